/**
 * Every fault of the stagewise-chat contract (§7). Each breaks one rule of the reference mock and names, in
 * `violates`, the full ids of the checks it must trip. A fault is a record of hooks (hooks.ts): discovery and
 * listening changes, inputs left unchecked, requests the mock answers in the agent's place, rewrites of outgoing
 * frames, and turn styles. Browser-safe.
 */
import { superjson } from "./superjson-ref.js";
import type { UserChatMessage } from "../../generated/stagewise-chat.js";
import type { FaultInfo } from "../../core/run/protocol.js";
import { awaitsApproval, awaitsToolbarResult, toolCalls, toolCallStatus } from "../../stagewise/adapter/tool-calls.js";
import { updateToWire } from "../../stagewise/adapter/wire-dates.js";
import { messagesOf, onChat, onKind, onValue } from "./events.js";
import type { Connection, StagewiseHooks } from "./hooks.js";
import { CHAT_PATH, copyFrame, errorFrame, MESSAGING_PATH, resultFrame, seqOf, setSeq, type Frame, type Json, type Request, type Sub } from "./wire.js";

const BUSY = new Set(["thinking", "working", "calling_tool", "waiting_for_user_response"]);

export interface StagewiseFault extends FaultInfo, StagewiseHooks {}


/** Every schema of toolbar input (what lenient-input stops checking). */
const INPUT_SCHEMAS = [
  "send-message-input",
  "create-chat-input",
  "chat-id-input",
  "update-chat-title-input",
  "delete-message-input",
  "approve-tool-call-input",
  "report-tool-result-input",
  "void-input",
  "messaging-user-message",
];

/** The input schema of each chat mutation that names ids. */
const INPUT_OF: Record<string, string> = {
  "chat.sendMessage": "send-message-input",
  "chat.deleteChat": "chat-id-input",
  "chat.switchChat": "chat-id-input",
  "chat.updateChatTitle": "update-chat-title-input",
  "chat.deleteMessageAndSubsequent": "delete-message-input",
  "chat.approveToolCall": "approve-tool-call-input",
  "chat.reportToolResult": "report-tool-result-input",
};

/** Answers only requests of one path (a mutation), when `when` holds. */
function answerOn(path: string, fn: (input: Json, request: Request, conn: Connection) => string[] | undefined): StagewiseHooks["answer"] {
  return (request, conn) => (request.method === "mutation" && request.path === path ? fn((request.input ?? {}) as Json, request, conn) : undefined);
}

const valid = (conn: Connection, schema: string, input: unknown) => conn.ctx.validate(schema, input) === null;
const chatExists = (conn: Connection, chatId: unknown) => typeof chatId === "string" && conn.ctx.agent.chats().some((c) => c.id === chatId);

/**
 * Waits until the turn is over or waits on the toolbar (an approval, a toolbar tool: holding the answer longer would
 * only deadlock), at most a minute, and a little longer, so the turn's last update goes first.
 */
function idle(conn: Connection): Promise<void> {
  const agent = conn.ctx.agent;
  const over = () => !agent.isWorking || toolCalls(agent.messages()).some((s) => awaitsApproval(s) || awaitsToolbarResult(s));
  return new Promise<void>((resolve) => {
    if (over()) return resolve();
    const timer = setTimeout(done, 60_000);
    const stop = agent.store.subscribe(() => {
      if (over()) done();
    });
    function done() {
      clearTimeout(timer);
      stop();
      resolve();
    }
  }).then(() => new Promise((resolve) => setTimeout(resolve, 50)));
}

const snapshotFrames = (frame: Frame) => frame.kind === "event" && frame.sub?.path === CHAT_PATH && frame.snapshot === true;

/** The frame's Date tags dropped, the ISO strings left as they are. */
function untagDates(json: Json | undefined): void {
  const meta = json?.meta as Json | undefined;
  if (!meta?.values || Array.isArray(meta.values)) return;
  for (const [path, tags] of Object.entries(meta.values as Record<string, unknown>)) if (Array.isArray(tags) && tags[0] === "Date") delete (meta.values as Json)[path];
  if (Object.keys(meta.values as Json).length === 0) delete json!.meta;
}

export const FAULTS: readonly StagewiseFault[] = [
  // ---- wire (§1) ----
  {
    name: "info-missing-description",
    description: "Discovery answers without description",
    violates: ["stagewise-chat/wire/info-shape"],
    info: ({ description: _d, ...rest }) => rest,
  },
  {
    name: "info-advertises-toolcalling",
    description: "Discovery says toolCalling:true",
    violates: ["stagewise-chat/wire/info-capabilities"],
    info: (info) => ({ ...info, capabilities: { ...(info.capabilities as Json), toolCalling: true } }),
  },
  { name: "info-no-cors", description: "Discovery sends no Access-Control-Allow-Origin", violates: ["stagewise-chat/wire/info-cors"], noCors: true },
  { name: "port-outside-range", description: "Listens on port 5800 (or the next free one), outside 5746..5776", violates: ["stagewise-chat/wire/port-range"], port: 5800 },
  { name: "ws-wrong-path", description: "The WebSocket is on /ws only (/stagewise/ws answers 404)", violates: ["stagewise-chat/wire/ws-upgrade"], wsPath: "/ws" },
  {
    name: "binary-frames",
    description: "tRPC answers and events go out as binary frames",
    violates: ["stagewise-chat/wire/text-frames"],
    outgoing: (frame) => [frame.json && frame.kind !== "reconnect" ? { ...frame, binary: true } : frame],
  },
  // ---- tRPC (§1) ----
  {
    name: "raw-json-results",
    description: "Results and events carry their value without superjson's {json, meta} envelope",
    violates: ["stagewise-chat/trpc/response-envelope"],
    outgoing: (frame) => {
      if (frame.kind !== "event" && frame.kind !== "result") return [frame];
      const out = copyFrame(frame);
      out.json!.result.data = out.json!.result.data?.json;
      return [out];
    },
  },
  { name: "no-started-frame", description: "Subscriptions never send {type:\"started\"}", violates: ["stagewise-chat/trpc/response-envelope"], outgoing: (frame) => (frame.kind === "started" ? [] : [frame]) },
  {
    name: "dates-as-strings",
    description: "Dates go out as plain ISO strings, without superjson's Date tags",
    violates: ["stagewise-chat/trpc/date-annotations"],
    outgoing: (frame) => {
      if (frame.kind !== "event" && frame.kind !== "result") return [frame];
      const out = copyFrame(frame);
      untagDates(out.json!.result.data as Json | undefined);
      return [out];
    },
  },
  {
    name: "double-mutation-result",
    description: "Every mutation is answered twice",
    violates: ["stagewise-chat/trpc/mutation-answered"],
    outgoing: (frame) => (frame.kind === "result" && frame.request?.method === "mutation" ? [frame, copyFrame(frame)] : [frame]),
  },
  {
    name: "subscription-completes",
    description: "chat.getChatUpdates ends ({type:\"stopped\"}) right after its snapshot",
    violates: ["stagewise-chat/trpc/subscription-stays-open"],
    outgoing: (frame) => {
      if (frame.kind !== "event" || frame.sub?.path !== CHAT_PATH) return [frame];
      if (frame.sub.stopped) return [];
      if (!frame.sub.snapshotOver) return [frame];
      frame.sub.stopped = true;
      return [frame, { kind: "stopped", text: "", json: { id: frame.json!.id, result: { type: "stopped" } }, sub: frame.sub }];
    },
  },
  {
    name: "close-on-parse-error",
    description: "Closes the socket after answering a frame it cannot parse",
    violates: ["stagewise-chat/trpc/parse-error"],
    outgoing: (frame) => [frame.kind === "error" && frame.json?.error?.json?.data?.code === "PARSE_ERROR" ? { ...frame, closeAfter: true } : frame],
  },
  {
    name: "unknown-path-internal-error",
    description: "An unknown procedure (or the wrong kind) is INTERNAL_SERVER_ERROR, not NOT_FOUND",
    violates: ["stagewise-chat/trpc/unknown-procedure"],
    outgoing: onKind("error", (frame) => {
      const e = frame.json!.error.json as Json;
      // toolCalling.* stays NOT_FOUND: that procedure family is chat/no-toolcalling's rule, not this fault's.
      if (e?.data?.code === "NOT_FOUND" && e.data.reason === undefined && !String(e.data.path ?? "").startsWith("toolCalling.")) Object.assign(e, { code: -32603, data: { ...e.data, code: "INTERNAL_SERVER_ERROR", httpStatus: 500 } });
      return [frame];
    }),
  },
  { name: "no-pong", description: "Ignores the toolbar's PING", violates: ["stagewise-chat/trpc/keepalive-pong"], outgoing: (frame) => (frame.kind === "pong" ? [] : [frame]) },
  { name: "no-ping", description: "Keep-alive off: never pings a silent toolbar", violates: ["stagewise-chat/trpc/keepalive-ping"], keepAlive: false },
  // ---- state (§2) ----
  {
    name: "state-bad-description",
    description: 'state.getState says description:"ok" (shorter than 3)',
    violates: ["stagewise-chat/state/initial-values"],
    outgoing: onValue("state.getState", (value) => {
      value.description = "ok";
    }),
  },
  {
    name: "state-incoherent",
    description: "state.getState says idle while the chat is working, and working while it is idle",
    violates: ["stagewise-chat/state/coherent-with-chat"],
    outgoing: onValue("state.getState", (value) => {
      const busy = BUSY.has(String(value.state));
      for (const k of Object.keys(value)) delete value[k];
      value.state = busy ? "idle" : "working";
    }),
  },
  // ---- messaging (§3 r16–r18) ----
  {
    name: "messaging-extra-field",
    description: "Messaging updates carry a field the schema does not have",
    violates: ["stagewise-chat/messaging/update-shape"],
    outgoing: onValue("messaging.getMessage", (value) => {
      value.source = "mock";
    }),
  },
  {
    name: "messaging-no-initial-resync",
    description: "A messaging subscription's first frame is a delta (resync:false)",
    violates: ["stagewise-chat/messaging/initial-resync"],
    outgoing: onValue("messaging.getMessage", (value, frame) => {
      if (frame.sub!.sent === 1) value.resync = false;
    }),
  },
  {
    name: "messaging-replay-after-resync",
    description: "After the subscribe resync, the last delta is sent again",
    violates: ["stagewise-chat/messaging/no-replay", "stagewise-chat/messaging/reduced-equals-fresh"],
    outgoing: (frame, conn) => {
      const last = conn.ctx.lastMessagingDelta;
      const replay = (sub: Sub): Frame => ({ kind: "event", text: "", sub, json: { id: sub.id, result: { type: "data", data: structuredClone(last) } } });
      // A subscriber joining gets the last delta again after its resync ("Hello world world").
      if (frame.kind !== "event" || frame.sub?.path !== MESSAGING_PATH || frame.sub.sent !== 1) return [frame];
      const current = frame.json?.result?.data?.json as Json | undefined;
      return last && (last.json as Json).messageId === current?.messageId ? [frame, replay(frame.sub)] : [frame];
    },
  },
  {
    name: "messaging-replace-truncates",
    description: "A resync carries only the message's last part (replies have two text parts)",
    violates: ["stagewise-chat/messaging/applicable", "stagewise-chat/messaging/reduced-equals-fresh"],
    turn: { twoTextParts: true },
    outgoing: onValue("messaging.getMessage", (value) => {
      const parts = value.updateParts as unknown[];
      if (value.resync === true && parts.length > 1) value.updateParts = parts.slice(-1);
    }),
  },
  {
    name: "messaging-aliasing",
    description: "Messaging deltas show the text as it was later (each appended text twice)",
    violates: ["stagewise-chat/messaging/reduced-equals-fresh"],
    outgoing: onValue("messaging.getMessage", (value) => {
      if (value.resync === true) return;
      for (const u of value.updateParts as { part: Json }[]) if (u.part.type === "text") u.part.text = `${u.part.text}${u.part.text}`;
    }),
  },
  {
    name: "messaging-accepts-invalid",
    description: "messaging.sendUserMessage accepts any input",
    violates: ["stagewise-chat/messaging/send-user-message"],
    lenient: ["messaging-user-message"],
  },
  // ---- chat sync (§3 r4–r8) ----
  {
    name: "snapshot-replays-last-update",
    description: "A subscribe gets the chat list and the last delta instead of the full sync and agent state",
    violates: ["stagewise-chat/chat/snapshot-order", "stagewise-chat/chat/snapshot-equals-reduced"],
    outgoing: onChat((update, frame, conn) => {
      if (!frame.snapshot || update.type === "chat-list") return undefined;
      const last = conn.ctx.lastChatEvent;
      // Before any delta there is nothing to replay: the snapshot is then the list and the agent state.
      if (!last) return update.type === "agent-state" ? undefined : [];
      if (update.type !== "agent-state") return [];
      return [{ ...frame, json: { id: frame.json!.id, result: { type: "data", id: (last.json as Json).id, data: structuredClone(last) } } }];
    }),
  },
  {
    name: "snapshot-first-subscribe-only",
    description: "A resubscription (with lastEventId, or a second one on the connection) gets no snapshot",
    violates: ["stagewise-chat/chat/snapshot-every-subscribe"],
    outgoing: (frame, conn) => {
      if (frame.kind === "started" && frame.sub?.path === CHAT_PATH) {
        const first = !conn.scratch.has("chat-subscribed");
        conn.scratch.set("chat-subscribed", true);
        if (!first || frame.sub.resumed) conn.scratch.set(`no-snapshot:${String(frame.sub.id)}`, true);
      }
      return snapshotFrames(frame) && conn.scratch.has(`no-snapshot:${String(frame.sub!.id)}`) ? [] : [frame];
    },
  },
  {
    name: "two-active-chats",
    description: "The snapshot's chat list marks two chats active (when there are two)",
    violates: ["stagewise-chat/chat/snapshot-coherent"],
    outgoing: onChat((update, frame) => {
      if (!frame.snapshot || update.type !== "chat-list" || update.chats.length < 2) return undefined;
      const other = update.chats.find((c) => !c.isActive);
      if (other) other.isActive = true;
      return update;
    }),
  },
  {
    name: "untracked-updates",
    description: "Chat events carry no event id (untracked)",
    violates: ["stagewise-chat/chat/seq-tracked"],
    outgoing: onChat((update, frame) => {
      const out = copyFrame(frame);
      delete out.json!.result.id;
      out.json!.result.data = superjson().serialize(updateToWire(update)) as unknown as Json;
      return [out];
    }),
  },
  {
    name: "snapshot-fresh-ids",
    description: "Each snapshot frame gets an id of its own (counting up to the head)",
    violates: ["stagewise-chat/chat/seq-snapshot-head"],
    outgoing: (frame) => {
      if (!snapshotFrames(frame)) return [frame];
      const type = (frame.json!.result.data.json as Json).data.type as string;
      const fromEnd = type === "agent-state" ? 0 : type === "chat-full-sync" ? 1 : 2;
      const out = copyFrame(frame);
      setSeq(out, Math.max(0, seqOf(frame)! - fromEnd));
      return [out];
    },
  },
  {
    name: "seq-reset-on-resume",
    description: "A resumed subscription's snapshot has id 0",
    violates: ["stagewise-chat/chat/seq-snapshot-head"],
    outgoing: (frame) => {
      if (!snapshotFrames(frame) || !frame.sub!.resumed) return [frame];
      const out = copyFrame(frame);
      setSeq(out, 0);
      return [out];
    },
  },
  {
    name: "seq-gap",
    description: "An event id is skipped before each turn's end",
    violates: ["stagewise-chat/chat/seq-gap-free"],
    outgoing: (frame, conn) => {
      const seq = seqOf(frame);
      if (frame.kind !== "event" || frame.sub?.path !== CHAT_PATH || seq === undefined) return [frame];
      const skipped = conn.ctx.gapsBefore.filter((g) => g <= seq).length;
      if (skipped === 0) return [frame];
      const out = copyFrame(frame);
      setSeq(out, seq + skipped);
      return [out];
    },
  },
  {
    name: "seq-per-subscriber",
    description: "Each subscription counts its own event ids (from 0, or from the lastEventId it resumes at)",
    violates: ["stagewise-chat/chat/seq-global"],
    outgoing: (frame) => {
      const seq = seqOf(frame);
      if (frame.kind !== "event" || frame.sub?.path !== CHAT_PATH || seq === undefined) return [frame];
      const sub = frame.sub as typeof frame.sub & { count?: number };
      const base = /^(0|[1-9][0-9]*)$/.test(sub.lastEventId ?? "") ? Number(sub.lastEventId) : 0;
      if (frame.snapshot) sub.count = base;
      else sub.count = (sub.count ?? base) + 1;
      const out = copyFrame(frame);
      setSeq(out, sub.count);
      return [out];
    },
  },
  {
    name: "bad-runtime",
    description: 'Backend tool calls go out with runtime:"server"',
    violates: ["stagewise-chat/chat/update-shape"],
    outgoing: onChat((update) => {
      let changed = false;
      const parts = update.type === "message-updated" ? [update.update.content] : messagesOf(update).flatMap((m) => m.content as unknown[]);
      for (const p of parts as Json[]) {
        if (p.type === "tool-call" && p.runtime === "backend") {
          p.runtime = "server";
          changed = true;
        }
      }
      return changed ? update : undefined;
    }),
  },
  {
    name: "append-to-tool-call",
    description: "A text append after a tool call targets the tool-call part",
    violates: ["stagewise-chat/chat/update-applicable"],
    outgoing: onChat((update, frame, conn) => {
      if (frame.snapshot || update.type !== "message-updated" || update.update.updateType !== "append") return undefined;
      const at = conn.ctx.toolCallIndex.get(update.update.messageId);
      if (at === undefined || update.update.partIndex <= at) return undefined;
      update.update.partIndex = at;
      return update;
    }),
  },
  {
    name: "switch-without-full-sync",
    description: "chat-switched is followed by an agent-state instead of the chat's full sync",
    violates: ["stagewise-chat/chat/update-applicable"],
    outgoing: onChat((update, frame, conn) => (frame.snapshot || update.type !== "chat-full-sync" ? undefined : { type: "agent-state", isWorking: conn.ctx.agent.isWorking })),
  },
  {
    name: "stream-not-stored",
    description: "Appended text is not stored: full syncs show replies as their first delta",
    violates: ["stagewise-chat/chat/snapshot-equals-reduced"],
    outgoing: onChat((update, _frame, conn) => {
      if (update.type !== "chat-full-sync") return undefined;
      for (const m of update.chat.messages) if (m.role === "assistant") for (const p of m.content) if (p.type === "text") p.text = p.text.slice(0, conn.ctx.chunkSize);
      return update;
    }),
  },
  {
    name: "silent-message-edit",
    description: "Full syncs show the last reply edited, with no delta for the edit",
    violates: ["stagewise-chat/chat/snapshot-equals-reduced"],
    outgoing: onChat((update) => {
      if (update.type !== "chat-full-sync") return undefined;
      const last = [...update.chat.messages].reverse().find((m) => m.role === "assistant" && m.content.some((p) => p.type === "text"));
      const part = last && [...last.content].reverse().find((p) => p.type === "text");
      if (!part || part.type !== "text") return undefined;
      part.text += " (edited)";
      return update;
    }),
  },
  {
    name: "replace-truncates-stored",
    description: "A replaced part drops the message's other parts from the store (replies end with a replace)",
    violates: ["stagewise-chat/chat/snapshot-equals-reduced"],
    turn: { finalReplace: true },
    outgoing: onChat((update, _frame, conn) => {
      if (update.type !== "chat-full-sync") return undefined;
      let changed = false;
      for (const m of update.chat.messages) {
        const at = conn.ctx.replaced.get(m.id);
        if (at === undefined || m.role !== "assistant" || m.content.length < 2) continue;
        m.content = [m.content[at]!] as typeof m.content;
        changed = true;
      }
      return changed ? update : undefined;
    }),
  },
  {
    name: "aliased-frames",
    description: "Text appends show the text as it was later (each appended text twice)",
    violates: ["stagewise-chat/chat/snapshot-equals-reduced"],
    outgoing: onChat((update) => {
      if (update.type !== "message-updated" || update.update.updateType !== "append") return undefined;
      const c = update.update.content;
      if (c.type !== "text") return undefined;
      c.text = `${c.text}${c.text}`;
      return update;
    }),
  },
  // ---- chats (§3 r9–r12) ----
  {
    name: "create-chat-silent",
    description: "createChat returns an id but creates and sends nothing",
    violates: ["stagewise-chat/chat/create-chat"],
    answer: answerOn("chat.createChat", (input, r, conn) =>
      valid(conn, "create-chat-input", r.input ?? null) && !conn.ctx.agent.isWorking ? [resultFrame(r.id, `chat-silent-${Date.now().toString(36)}`)] : undefined,
    ),
  },
  {
    name: "switch-chat-silent",
    description: "switchChat answers but switches nothing",
    violates: ["stagewise-chat/chat/switch-chat"],
    answer: answerOn("chat.switchChat", (input, r, conn) =>
      chatExists(conn, input.chatId) && input.chatId !== conn.ctx.agent.activeChatId && !conn.ctx.agent.isWorking ? [resultFrame(r.id, undefined)] : undefined,
    ),
  },
  {
    name: "delete-chat-silent",
    description: "deleteChat answers but deletes nothing",
    violates: ["stagewise-chat/chat/delete-chat"],
    answer: answerOn("chat.deleteChat", (input, r, conn) => (chatExists(conn, input.chatId) && !conn.ctx.agent.isWorking ? [resultFrame(r.id, undefined)] : undefined)),
  },
  {
    name: "title-not-broadcast",
    description: "updateChatTitle answers but sends no chat-title-updated",
    violates: ["stagewise-chat/chat/update-title"],
    answer: answerOn("chat.updateChatTitle", (input, r, conn) => (valid(conn, "update-chat-title-input", input) && chatExists(conn, input.chatId) ? [resultFrame(r.id, undefined)] : undefined)),
  },
  {
    name: "send-no-echo",
    description: "sendMessage starts the turn without sending the user's message-added",
    violates: ["stagewise-chat/chat/send-message"],
    answer: answerOn("chat.sendMessage", (input, r, conn) => {
      const agent = conn.ctx.agent;
      if (!valid(conn, "send-message-input", input) || agent.isWorking || input.chatId !== agent.activeChatId) return undefined;
      const message: UserChatMessage = { id: agent.newMessageId(), role: "user", createdAt: new Date().toISOString(), content: input.content, metadata: input.metadata };
      agent.startTurn(input.chatId as string, message);
      return [resultFrame(r.id, message.id)];
    }),
  },
  {
    name: "send-blocks-until-done",
    description: "sendMessage is answered only when the turn is over",
    violates: ["stagewise-chat/chat/send-returns-promptly"],
    outgoing: (frame, conn) => (frame.kind === "result" && frame.request?.path === "chat.sendMessage" ? [{ ...frame, waitFor: () => idle(conn) }] : [frame]),
  },
  {
    name: "wrong-deleted-count",
    description: "messages-deleted says one more message than it removed",
    violates: ["stagewise-chat/chat/delete-messages", "stagewise-chat/chat/update-applicable"],
    outgoing: onChat((update, frame) => (frame.snapshot || update.type !== "messages-deleted" ? undefined : { ...update, deletedCount: update.deletedCount + 1 })),
  },
  {
    name: "stop-idle-rejects",
    description: "chat.stop while idle is an error",
    violates: ["stagewise-chat/chat/stop"],
    answer: answerOn("chat.stop", (_input, r, conn) => (conn.ctx.agent.isWorking ? undefined : [errorFrame(r.id, "INTERNAL_SERVER_ERROR", "Agent is not currently working", { path: "chat.stop" })])),
  },
  {
    name: "no-working-state",
    description: "Never says it is working (agent-state and state.getState stay idle)",
    violates: ["stagewise-chat/chat/working-brackets-turn"],
    outgoing: (frame, conn) =>
      onChat((update) => (update.type === "agent-state" && update.isWorking ? { type: "agent-state", isWorking: false } : undefined))(frame, conn).flatMap((f) =>
        onValue("state.getState", (value) => {
          for (const k of Object.keys(value)) delete value[k];
          value.state = "idle";
        })(f, conn),
      ),
  },
  {
    name: "buffered-reply",
    description: "The whole reply arrives in one create",
    violates: ["stagewise-chat/chat/stream-incremental"],
    turn: { buffered: true },
  },
  {
    name: "replace-streaming",
    description: "Replies grow by replacing the whole text part",
    violates: ["stagewise-chat/chat/stream-append"],
    turn: { replaceStreaming: true },
  },
  // ---- rejections (§3 r11, r12) ----
  {
    name: "generic-errors",
    description: "Rejections are INTERNAL_SERVER_ERROR without a reason",
    violates: ["stagewise-chat/chat/reject-error-shape"],
    outgoing: onKind("error", (frame) => {
      const e = frame.json!.error.json as Json;
      if (e?.data?.reason !== undefined) {
        const { reason: _r, ...data } = e.data as Json;
        Object.assign(e, { code: -32603, data: { ...data, code: "INTERNAL_SERVER_ERROR", httpStatus: 500 } });
      }
      return [frame];
    }),
  },
  {
    name: "accept-unknown-ids",
    description: "Mutations naming an unknown chat, message or tool call succeed (and do nothing)",
    violates: ["stagewise-chat/chat/reject-unknown-ids"],
    answer: (r, conn) => {
      if (r.method !== "mutation" || !r.path.startsWith("chat.")) return undefined;
      const input = (r.input ?? {}) as Json;
      // Bad input is still refused first (r12): only well-formed calls with unknown ids succeed.
      const schema = INPUT_OF[r.path];
      if (!schema || !valid(conn, schema, r.input ?? null)) return undefined;
      const agent = conn.ctx.agent;
      if (typeof input.chatId !== "string") return undefined;
      const unknown =
        !chatExists(conn, input.chatId) ||
        (typeof input.messageId === "string" && !agent.messages(input.chatId).some((m) => m.id === input.messageId)) ||
        (typeof input.toolCallId === "string" && !toolCallStatus(agent.messages(input.chatId), input.toolCallId));
      if (!unknown) return undefined;
      return [resultFrame(r.id, r.path === "chat.sendMessage" ? `msg-unknown-${Date.now().toString(36)}` : undefined)];
    },
  },
  {
    name: "accept-non-active-send",
    description: "sendMessage to a chat that is not active stores the message there",
    violates: ["stagewise-chat/chat/reject-not-active"],
    answer: answerOn("chat.sendMessage", (input, r, conn) => {
      const agent = conn.ctx.agent;
      if (!valid(conn, "send-message-input", input) || agent.isWorking || !chatExists(conn, input.chatId) || input.chatId === agent.activeChatId) return undefined;
      const message: UserChatMessage = { id: agent.newMessageId(), role: "user", createdAt: new Date().toISOString(), content: input.content, metadata: input.metadata };
      agent.emit({ type: "message-added", chatId: input.chatId as string, message });
      return [resultFrame(r.id, message.id)];
    }),
  },
  {
    name: "allow-switch-while-working",
    description: "switchChat works while the agent is working (no working gate)",
    violates: ["stagewise-chat/chat/reject-while-working"],
    answer: answerOn("chat.switchChat", (input, r, conn) => {
      const agent = conn.ctx.agent;
      if (!agent.isWorking || !chatExists(conn, input.chatId) || input.chatId === agent.activeChatId) return undefined;
      agent.switchNow(input.chatId as string);
      return [resultFrame(r.id, undefined)];
    }),
  },
  { name: "lenient-input", description: "Chat inputs are not validated", violates: ["stagewise-chat/chat/reject-invalid-input"], lenient: INPUT_SCHEMAS.filter((s) => s !== "messaging-user-message" && s !== "create-chat-input") },
  {
    name: "reject-after-side-effect",
    description: "A rejected mutation first sends an update",
    violates: ["stagewise-chat/chat/reject-no-side-effects"],
    outgoing: (frame, conn) => {
      if (frame.kind !== "error" || frame.request?.method !== "mutation" || frame.json?.error?.json?.data?.reason === undefined) return [frame];
      const agent = conn.ctx.agent;
      const chat = agent.chats().find((c) => c.id === agent.activeChatId) ?? agent.chats()[0];
      // A title update (to the same title) goes out although the mutation fails.
      if (chat) agent.emit({ type: "chat-title-updated", chatId: chat.id, title: chat.title });
      // The update reaches the subscriptions first.
      return [{ ...frame, delayMs: 30 }];
    },
  },
  {
    name: "legacy-toolcalling-router",
    description: "Mounts the 0.2.3 toolCalling procedures",
    violates: ["stagewise-chat/chat/no-toolcalling"],
    answer: (r) => {
      if (!r.path.startsWith("toolCalling.")) return undefined;
      if (r.method === "subscription") return [JSON.stringify({ id: r.id, result: { type: "started" } })];
      return [resultFrame(r.id, undefined)];
    },
  },
  // ---- tools (§3 r13, r14) ----
  {
    name: "approval-not-recorded",
    description: "An approval is acted on but no tool-approval message is stored",
    violates: ["stagewise-chat/tools/approval-recorded"],
    turn: { directResults: true },
    answer: answerOn("chat.approveToolCall", (input, r, conn) => {
      const agent = conn.ctx.agent;
      if (!valid(conn, "approve-tool-call-input", input) || input.chatId !== agent.activeChatId) return undefined;
      const status = toolCallStatus(agent.messages(), input.toolCallId as string);
      if (!status || !awaitsApproval(status)) return undefined;
      agent.settleApproval(input.toolCallId as string, input.reason !== undefined ? { approved: input.approved, reason: input.reason } : { approved: input.approved });
      return [resultFrame(r.id, undefined)];
    }),
  },
  {
    name: "accept-double-approval",
    description: "A second approval of the same call is accepted and stored",
    violates: ["stagewise-chat/tools/reject-not-pending"],
    answer: answerOn("chat.approveToolCall", (input, r, conn) => {
      const agent = conn.ctx.agent;
      if (!valid(conn, "approve-tool-call-input", input) || input.chatId !== agent.activeChatId) return undefined;
      const status = toolCallStatus(agent.messages(), input.toolCallId as string);
      if (!status || awaitsApproval(status) || !status.approval) return undefined;
      const part = { type: "tool-approval" as const, toolCallId: input.toolCallId as string, approved: input.approved as boolean };
      const message: UserChatMessage = { id: agent.newMessageId(), role: "user", createdAt: new Date().toISOString(), content: [part], metadata: input.metadata };
      agent.emit({ type: "message-added", chatId: input.chatId as string, message });
      return [resultFrame(r.id, undefined)];
    }),
  },
  {
    name: "orphan-tool-result",
    description: "A tool-result part for a call that never happened",
    violates: ["stagewise-chat/tools/result-linked"],
    turn: { orphanResult: true },
  },
  {
    name: "backend-result-in-tool-message",
    description: "A backend call's result comes in a tool message",
    violates: ["stagewise-chat/tools/result-linked"],
    turn: { backendResultInToolMessage: true },
  },
  {
    name: "execute-rejected-tool",
    description: "A rejected call still runs and gets a successful result",
    violates: ["stagewise-chat/tools/approval-respected"],
    turn: { executeRejected: true, directResults: true },
  },
  {
    name: "toolbar-result-dropped",
    description: "reportToolResult is answered but its result is not stored",
    violates: ["stagewise-chat/tools/toolbar-result-recorded"],
    answer: answerOn("chat.reportToolResult", (input, r, conn) => {
      const agent = conn.ctx.agent;
      if (!valid(conn, "report-tool-result-input", input) || input.chatId !== agent.activeChatId) return undefined;
      const status = toolCallStatus(agent.messages(), input.toolCallId as string);
      if (!status || status.call.runtime !== "toolbar" || status.result) return undefined;
      agent.settleToolbarResult(input.toolCallId as string, { output: input.output, isError: input.isError === true });
      return [resultFrame(r.id, undefined)];
    }),
  },
  {
    name: "stop-leaves-pending",
    description: "chat.stop ends the turn but leaves its approvals and toolbar calls open",
    violates: ["stagewise-chat/tools/stop-closes-pending"],
    answer: answerOn("chat.stop", (_input, r, conn) => {
      if (!conn.ctx.agent.isWorking || !conn.ctx.abortTurn) return undefined;
      conn.ctx.abortTurn();
      return [resultFrame(r.id, undefined)];
    }),
  },
  // ---- security (§4) ----
  {
    name: "leak-stack",
    description: "Errors carry data.stack with the agent's file paths (development mode)",
    violates: ["stagewise-chat/security/no-stack-leak"],
    outgoing: onKind("error", (frame) => {
      const e = frame.json!.error.json as Json;
      if (e?.data) e.data.stack = `TRPCError: ${String(e.message)}\n    at callProcedure (/home/dev/agent/node_modules/@trpc/server/dist/index.mjs:1:1)`;
      return [frame];
    }),
  },
];

export function findFault(name: string): StagewiseFault | undefined {
  return FAULTS.find((f) => f.name === name);
}
