/**
 * Every fault of the pi-web contract (§7). Each breaks one rule of the canonical mock and names,
 * in `violates`, the full ids of the checks it must trip. A fault is a record of hooks
 * (hooks.ts); the engine applies whatever the active records carry. The four "fork quirk" faults
 * share their hooks with the `pi-fork-0.54` profile (profiles.ts), which is why that profile
 * passes them.
 */
import type { FaultInfo } from "../../core/run/protocol.js";
import type { EventRewrite, PiWebHooks } from "./hooks.js";
import type { AgentMessage, Json } from "./types.js";

export interface PiWebFault extends FaultInfo, PiWebHooks {}


/** Quirks of the fork (§5), shared by the fork-quirk faults and the pi-fork-0.54 profile. */
export const QUIRKS = {
  busyDoubleResponse: { prompt: { busyDoubleResponse: true } },
  defaultScopeCwd: { sessions: { defaultScopeCwd: true } },
  switchMissingCreates: { sessions: { switchMissingCreates: true } },
  suppressRunOnChange: { sessions: { suppressRunOnChange: true } },
} satisfies Record<string, PiWebHooks>;

/** Commands that only read state (slow-queries delays them). */
export const QUERY_COMMANDS = ["get_state", "get_messages", "list_sessions", "get_context_usage"];

/** ASCII folding of an id: trimmed, accents stripped, anything else non-ASCII dropped. */
function foldId(id: string): string {
  return id
    .trim()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "");
}

function rewriteId(fn: (id: string) => string) {
  return (r: Json): Json => (typeof r.id === "string" ? { ...r, id: fn(r.id) } : r);
}

const mapType =
  (type: string, fn: (e: Json) => Json[]): (() => EventRewrite) =>
  () =>
  (e) =>
    e.type === type ? fn(e) : [e];

const updateOf = (e: Json): Json | undefined =>
  e.type === "message_update" ? (e.assistantMessageEvent as Json | undefined) : undefined;

export const FAULTS: readonly PiWebFault[] = [
  // --- connection (§1) ---
  {
    name: "ws-path-moved",
    description: "The WebSocket is served on /socket only (/ws answers 404)",
    violates: ["pi-web/conn/ws-upgrade"],
    upgrade: { wsPath: "/socket" },
  },
  {
    name: "ws-any-path",
    description: "Upgrades on any path",
    violates: ["pi-web/conn/other-path-404"],
    upgrade: { anyPath: true },
  },
  {
    name: "token-ignored",
    description: "Accepts any token (or none) although one is configured",
    violates: ["pi-web/conn/token-401"],
    upgrade: { ignoreToken: true },
  },
  {
    name: "origin-ignored",
    description: "Accepts any Origin",
    violates: ["pi-web/conn/origin-403"],
    upgrade: { ignoreOrigin: true },
  },
  {
    name: "no-health",
    description: "GET /health answers 404",
    violates: ["pi-web/conn/health"],
    upgrade: { noHealth: true },
  },
  // --- framing ---
  {
    name: "binary-frames",
    description: "Events are sent as binary frames (responses stay text)",
    violates: ["pi-web/framing/json-object-frames"],
    wire: { binaryEvents: true },
  },
  {
    name: "batched-frames",
    description: "Events emitted together are sent two per frame, joined by \\n",
    violates: ["pi-web/framing/json-object-frames"],
    wire: { batchEvents: true },
  },
  {
    name: "snake-case-fields",
    description: "tool_execution_end carries is_error and tool_call_id instead of isError and toolCallId",
    violates: ["pi-web/framing/server-schema"],
    events: mapType("tool_execution_end", ({ toolCallId, isError, ...rest }) => [
      { ...rest, tool_call_id: toolCallId, is_error: isError },
    ]),
  },
  {
    name: "unknown-event-type",
    description: "An agent_progress event follows every turn_start",
    violates: ["pi-web/framing/known-types"],
    events: mapType("turn_start", (e) => [e, { type: "agent_progress", progress: 0 }]),
  },
  // --- rpc ---
  {
    name: "drop-response",
    description: "get_context_usage is never answered",
    violates: ["pi-web/rpc/response-per-command"],
    rpc: { drop: ["get_context_usage"] },
  },
  {
    name: "response-id-mismatch",
    description: "Responses echo `<id>-1` instead of the id",
    violates: ["pi-web/rpc/response-echo"],
    transformResponse: rewriteId((id) => `${id}-1`),
  },
  {
    name: "id-mangled",
    description: "Echoed ids are trimmed and ASCII-folded (plain ids are unchanged)",
    violates: ["pi-web/rpc/response-echo"],
    transformResponse: rewriteId(foldId),
  },
  {
    name: "duplicate-response",
    description: "get_state is answered twice",
    violates: ["pi-web/rpc/single-response"],
    rpc: { duplicate: ["get_state"] },
  },
  {
    name: "duplicate-prompt-response",
    description: "Fork quirk: a busy prompt gets a broadcast failure, then a success",
    violates: ["pi-web/rpc/single-response", "pi-web/rpc/response-unicast", "pi-web/cmd/prompt-busy"],
    ...QUIRKS.busyDoubleResponse,
  },
  {
    name: "error-without-message",
    description: "Failure responses carry no `error`",
    violates: ["pi-web/rpc/result-shape"],
    transformResponse: (r) => {
      if (r.success !== false) return r;
      const { error: _error, ...rest } = r;
      return rest;
    },
  },
  {
    name: "state-missing-session-id",
    description: "get_state data has no sessionId",
    violates: ["pi-web/rpc/result-shape"],
    transformState: ({ sessionId: _id, ...rest }) => rest,
  },
  {
    name: "unknown-command-no-id",
    description: "The unknown-command failure carries no id",
    violates: ["pi-web/rpc/unknown-command"],
    rpc: { unknownCommandNoId: true },
  },
  {
    name: "close-on-malformed",
    description: "Invalid JSON closes the socket with 1007",
    violates: ["pi-web/rpc/bad-input"],
    rpc: { closeOnMalformed: true },
  },
  {
    name: "missing-type-silent",
    description: "An object without a string type gets no reply",
    violates: ["pi-web/rpc/bad-input"],
    rpc: { missingTypeSilent: true },
  },
  {
    name: "response-broadcast",
    description: "Responses are sent to every socket",
    violates: ["pi-web/rpc/response-unicast"],
    rpc: { responseBroadcast: true },
  },
  // --- commands ---
  {
    name: "prompt-no-run",
    description: "An idle prompt is answered but no run follows",
    violates: ["pi-web/cmd/prompt-accepted"],
    prompt: { noRun: true },
  },
  {
    name: "busy-prompt-queued",
    description: "A busy prompt without streamingBehavior is accepted and queued as a follow-up",
    violates: ["pi-web/cmd/prompt-busy"],
    prompt: { busyQueued: true },
  },
  {
    name: "invalid-prompt-accepted",
    description: "A prompt with invalid fields (message:42) gets a success only, and no run",
    violates: ["pi-web/cmd/prompt-invalid"],
    prompt: { acceptInvalid: true },
  },
  {
    name: "images-dropped",
    description: "The user echo of a prompt lacks its image parts",
    violates: ["pi-web/cmd/prompt-images"],
    prompt: { dropImages: true },
  },
  {
    name: "never-streaming",
    description: "get_state reports isStreaming false, even during a run",
    violates: ["pi-web/cmd/get-state-streaming"],
    transformState: (d) => ({ ...d, isStreaming: false }),
  },
  {
    name: "history-missing-run",
    description: "get_messages (and messageCount) leave out the last run",
    violates: ["pi-web/cmd/get-messages"],
    transformHistory: (messages, s) => messages.slice(0, Math.min(s.lastRunStart, messages.length)),
  },
  {
    name: "sessions-unsorted",
    description: "list_sessions lists the oldest first",
    violates: ["pi-web/cmd/list-sessions"],
    sessions: { unsorted: true },
  },
  {
    name: "scope-default-cwd",
    description: "Fork quirk: list_sessions without scope lists the cwd only",
    violates: ["pi-web/cmd/list-sessions-default-scope"],
    ...QUIRKS.defaultScopeCwd,
  },
  {
    name: "switch-ignored",
    description: "switch_session answers {cancelled:false} (and session_changed) but keeps the old session",
    violates: ["pi-web/cmd/switch-session"],
    sessions: { switchIgnored: true },
  },
  {
    name: "switch-missing-creates",
    description: "Fork quirk: switch_session to a missing file succeeds and creates an empty session there",
    violates: ["pi-web/cmd/switch-session-missing"],
    ...QUIRKS.switchMissingCreates,
  },
  {
    name: "new-session-keeps-history",
    description: "new_session changes the id but keeps the old messages",
    violates: ["pi-web/cmd/new-session"],
    sessions: { newKeepsHistory: true },
  },
  {
    name: "clear-queue-still-injects",
    description: "clear_queue returns the texts but they are injected anyway",
    violates: ["pi-web/cmd/clear-queue"],
    queue: { clearStillInjects: true },
  },
  {
    name: "abort-ignored",
    description: "abort is acknowledged at once and the run streams on to `stop`",
    violates: ["pi-web/cmd/abort"],
    abort: { ignored: true },
  },
  {
    name: "abort-idle-error",
    description: "abort while idle is a failure",
    violates: ["pi-web/cmd/abort"],
    abort: { idleError: true },
  },
  {
    name: "abort-early-response",
    description: "The abort response comes before the run's agent_end",
    violates: ["pi-web/cmd/abort-order"],
    abort: { earlyResponse: true },
  },
  // --- queue ---
  {
    name: "steer-new-run",
    description: "A steer is not injected into the run; it starts a new run after agent_end",
    violates: ["pi-web/queue/steer-injected"],
    queue: { steerNewRun: true },
  },
  {
    name: "steer-runs-all-tools",
    description: "With a steer queued, the remaining tool calls still run",
    violates: ["pi-web/queue/steer-skips-tools"],
    queue: { steerRunsAllTools: true },
  },
  {
    name: "follow-up-as-steer",
    description: "A follow-up is injected at the next turn, even after a reply with tool calls",
    violates: ["pi-web/queue/follow-up-at-end"],
    queue: { followUpAsSteer: true },
  },
  {
    name: "abort-clears-queue",
    description: "abort empties both queues",
    violates: ["pi-web/queue/abort-keeps-queue"],
    queue: { abortClears: true },
  },
  // --- events ---
  {
    name: "no-agent-end-after-abort",
    description: "An aborted run ends without agent_end (gsd-build/gsd-2#1414)",
    violates: ["pi-web/event/agent-bracketing", "pi-web/cmd/abort"],
    abort: { noAgentEnd: true },
  },
  {
    name: "nested-agent-start",
    description: "A second agent_start follows the first turn_start of a run",
    violates: ["pi-web/event/agent-bracketing"],
    events: () => {
      let seen = false;
      return (e) => {
        if (e.type === "agent_start") seen = false;
        if (e.type !== "turn_start" || seen) return [e];
        seen = true;
        return [e, { type: "agent_start" }];
      };
    },
  },
  {
    name: "switch-suppresses-agent-end",
    description: "Fork quirk: new/switch session during a run drops the rest of it, agent_end included",
    violates: ["pi-web/event/agent-bracketing"],
    ...QUIRKS.suppressRunOnChange,
  },
  {
    name: "agent-end-empty-messages",
    description: "agent_end.messages is []",
    violates: ["pi-web/event/extras-consistent"],
    agentEndMessages: () => [],
  },
  {
    name: "message-end-missing",
    description: "User echoes get message_start but no message_end (and are left out of agent_end.messages)",
    violates: ["pi-web/event/message-nesting"],
    events: mapType("message_end", (e) => ((e.message as Json | undefined)?.role === "user" ? [] : [e])),
    agentEndMessages: (ms: AgentMessage[]) => ms.filter((m) => m.role !== "user"),
  },
  {
    name: "error-as-response",
    description: "A provider error is a prompt failure, with no run and no error message",
    violates: ["pi-web/event/error-run"],
    prompt: { errorAsResponse: true },
  },
  // --- streaming ---
  {
    name: "delta-before-start",
    description: "The first text_delta of each text block comes before its text_start",
    violates: ["pi-web/stream/block-grammar"],
    events: () => {
      const held = new Map<unknown, Json>();
      return (e) => {
        const u = updateOf(e);
        if (u?.type === "text_start") {
          held.set(u.contentIndex, e);
          return [];
        }
        if (u?.type === "text_delta" && held.has(u.contentIndex)) {
          const start = held.get(u.contentIndex) as Json;
          held.delete(u.contentIndex);
          return [e, start];
        }
        if (u?.type === "text_end" && held.has(u.contentIndex)) {
          const start = held.get(u.contentIndex) as Json;
          held.delete(u.contentIndex);
          return [start, e];
        }
        return [e];
      };
    },
  },
  {
    name: "content-index-from-1",
    description: "Block indices start at 1 in message_update events",
    violates: ["pi-web/stream/block-grammar"],
    events: mapType("message_update", (e) => {
      const u = e.assistantMessageEvent as Json;
      if (typeof u.contentIndex !== "number") return [e];
      return [{ ...e, assistantMessageEvent: { ...u, contentIndex: u.contentIndex + 1 } }];
    }),
  },
  {
    name: "end-content-mismatch",
    description: "text_end content lacks the last delta",
    violates: ["pi-web/stream/end-values"],
    events: () => {
      const last = new Map<unknown, string>();
      return (e) => {
        const u = updateOf(e);
        if (u?.type === "text_delta" && typeof u.delta === "string") last.set(u.contentIndex, u.delta);
        if (u?.type !== "text_end" || typeof u.content !== "string") return [e];
        const cut = last.get(u.contentIndex)?.length ?? 0;
        return [{ ...e, assistantMessageEvent: { ...u, content: u.content.slice(0, u.content.length - cut) } }];
      };
    },
  },
  {
    name: "toolcall-args-mismatch",
    description: "toolCall.arguments differ from the parsed toolcall deltas",
    violates: ["pi-web/stream/toolcall-end"],
    stream: { toolArgsMismatch: true },
  },
  {
    name: "tool-use-as-stop",
    description: "A message with tool calls ends with stopReason `stop`",
    violates: ["pi-web/stream/stop-reason"],
    stream: { toolUseAsStop: true },
  },
  {
    name: "buffered-stream",
    description: "All updates of a message arrive in one burst at the end",
    violates: ["pi-web/stream/incremental"],
    stream: { buffered: true },
  },
  // --- tools ---
  {
    name: "tool-end-missing",
    description: "No tool_execution_end is sent",
    violates: ["pi-web/tool/pairing"],
    events: mapType("tool_execution_end", () => []),
  },
  {
    name: "tool-result-missing",
    description: "Tool calls get no toolResult message (events, turn_end and history)",
    violates: ["pi-web/tool/round-trip"],
    tools: { noResultMessage: true },
  },
  // --- sessions, fan-out, extension UI, history, timing ---
  {
    name: "session-changed-late",
    description: "session_changed comes after the new/switch response",
    violates: ["pi-web/session/changed"],
    sessions: { changedLate: true },
  },
  {
    name: "events-unicast",
    description: "Events go only to the socket that caused them",
    violates: ["pi-web/fanout/broadcast"],
    fanout: { unicast: true },
  },
  {
    name: "dialog-reply-ignored",
    description: "Dialog replies are ignored: dialogs never resolve",
    violates: ["pi-web/ext/dialog-resolves"],
    dialogs: { ignoreReplies: true },
  },
  {
    name: "last-reply-wins",
    description: "A dialog waits 50 ms after the first reply and uses the last one",
    violates: ["pi-web/ext/first-reply-wins"],
    dialogs: { lastReplyWinsMs: 50 },
  },
  {
    name: "stray-reply-error",
    description: "A reply to an unknown or fire-and-forget request gets a failure response",
    violates: ["pi-web/ext/stray-reply-ignored"],
    rpc: { strayReplyError: true },
  },
  {
    name: "history-orphan-tool-result",
    description: "get_messages starts with a toolResult whose toolCallId names no call",
    violates: ["pi-web/history/message-shapes"],
    // An empty history (after new_session) stays empty: the rule for a fresh session is another check's.
    transformHistory: (messages) => messages.length === 0 ? messages : [
      {
        role: "toolResult",
        toolCallId: "call_orphan",
        toolName: "read",
        content: [{ type: "text", text: "orphan" }],
        isError: false,
        timestamp: messages[0]?.timestamp ?? 0,
      },
      ...messages,
    ],
  },
  {
    name: "slow-queries",
    description: "get_state, get_messages, list_sessions and get_context_usage take 3 s (the slowQueryDelay knob)",
    violates: ["pi-web/timing/query-latency"],
    rpc: { slowQueries: true },
  },
];

export function findFault(name: string): PiWebFault | undefined {
  return FAULTS.find((f) => f.name === name);
}
