/**
 * Every fault of the continue-remote contract (protocol doc §7). Each breaks one rule of the
 * reference mock and names, in `violates`, the full ids of the checks it must make fail; checks it
 * only keeps from judging (knock-ons) are not named: the suite reports those as skips. A fault is
 * a record of hooks (hooks.ts); the engine and the machine apply whatever the active faults carry.
 * `profile` limits a fault to the profile whose rule it breaks (§7 [seed] / [cn]).
 */
import type { FaultInfo } from "../../core/run/protocol.js";
import type { ContinueRemoteHooks, Json } from "./hooks.js";
import type { ContinueRemoteProfile } from "./options.js";
import { TOOL_NAMES } from "./scenarios.js";

export interface ContinueRemoteFault extends FaultInfo, ContinueRemoteHooks {
  /** The only profile the fault applies to; both when absent. */
  profile?: ContinueRemoteProfile;
}


/** The history of a snapshot in either profile (seed `chatHistory`, cn `session.history`). */
function historyOf(s: Json): Json[] {
  if (Array.isArray(s.chatHistory)) return s.chatHistory as Json[];
  const history = (s.session as Json | undefined)?.history;
  return Array.isArray(history) ? (history as Json[]) : [];
}

function setHistory(s: Json, list: Json[]): Json {
  if (Array.isArray(s.chatHistory)) s.chatHistory = list;
  else if (s.session && typeof s.session === "object") (s.session as Json).history = list;
  return s;
}

/** A snapshot transform that rewrites each history entry. */
const eachEntry =
  (fn: (e: Json) => Json) =>
  (s: Json): Json =>
    setHistory(s, historyOf(s).map(fn));

/** Entry rewrites by seed messageType. */
const ofType = (type: string, fn: (e: Json) => Json) => eachEntry((e) => (e.messageType === type ? fn(e) : e));

const withContent = (fn: (c: string) => string) => (e: Json): Json => ({ ...e, content: fn(String(e.content)) });

/** cn tool states, wherever they are in the history. */
function toolStates(s: Json): Json[] {
  return historyOf(s).flatMap((item) => (Array.isArray(item.toolCallStates) ? (item.toolCallStates as Json[]) : []));
}

const DISPLAY_OF: Record<string, string> = Object.fromEntries(Object.entries(TOOL_NAMES).map(([display, name]) => [name, display]));

const counter = (memo: Map<string, unknown>, key: string): number => {
  const n = ((memo.get(key) as number | undefined) ?? 0) + 1;
  memo.set(key, n);
  return n;
};

const escapeHtml = (t: string): string => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** What Express's finalhandler sends for an error. */
const expressPage = (message: string): string =>
  `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${escapeHtml(message)}</pre>\n</body>\n</html>\n`;

export const FAULTS: readonly ContinueRemoteFault[] = [
  // --- wire (§1) ---
  {
    name: "state-html",
    description: "GET /state is served as text/html (the JSON text, under the wrong type)",
    violates: ["continue-remote/wire/state-json"],
    transformAnswer: (a, route) =>
      route === "state" && a.status === 200 && !a.raw ? { ...a, raw: { text: JSON.stringify(a.value), contentType: "text/html; charset=utf-8" } } : a,
  },
  {
    name: "error-html",
    description: "Errors come back as Express HTML pages, as 1.5.47 sends them",
    violates: ["continue-remote/wire/json-errors"],
    transformAnswer: (a) =>
      a.status >= 400 && !a.raw
        ? { ...a, raw: { text: expressPage(String((a.value as Json | null)?.error ?? "Error")), contentType: "text/html; charset=utf-8" } }
        : a,
  },
  // --- state (§2) ---
  {
    name: "state-missing-isprocessing",
    description: "GET /state leaves out `isProcessing`",
    violates: ["continue-remote/state/schema"],
    transformState: ({ isProcessing: _gone, ...rest }) => rest,
  },
  {
    name: "entry-bad-message-type",
    description: "seed: user entries carry the legacy `messageType:\"tool-permission-request\"`; cn: items have no `contextItems`",
    violates: ["continue-remote/state/entry-schema"],
    transformState: eachEntry((e) => {
      if ("message" in e) {
        const { contextItems: _gone, ...rest } = e;
        return rest;
      }
      return e.role === "user" ? { ...e, messageType: "tool-permission-request" } : e;
    }),
  },
  {
    name: "queue-length-stale",
    description: "`messageQueueLength` reads 0 while messages wait",
    violates: ["continue-remote/state/queue-length"],
    transformState: (s) => ("messageQueueLength" in s ? { ...s, messageQueueLength: 0 } : s),
  },
  {
    name: "get-mutates-idle",
    description: "Each idle GET /state bumps a `pollCount` field",
    violates: ["continue-remote/state/idempotent-get"],
    transformState: (s, { memo }) => {
      const n = s.isProcessing === false ? counter(memo, "pollCount") : ((memo.get("pollCount") as number | undefined) ?? 0);
      return { ...s, pollCount: n };
    },
  },
  // --- seed tool entries (§3.5, §3.6) ---
  {
    name: "start-no-circle",
    description: "seed: tool-starts read `Read(README.md)`, without the ○",
    violates: ["continue-remote/tools/entry-format"],
    profile: "seed",
    transformState: ofType("tool-start", withContent((c) => c.replace(/^○ /, ""))),
  },
  {
    name: "error-wrong-prefix",
    description: "seed: tool-errors read `Tool error: …`, without the ✗",
    violates: ["continue-remote/tools/entry-format"],
    profile: "seed",
    transformState: ofType("tool-error", withContent((c) => c.replace(/^✗ /, ""))),
  },
  {
    name: "legacy-result-content",
    description: "seed: tool-results read `● Read`, without the argument",
    violates: ["continue-remote/tools/result-legacy-content"],
    profile: "seed",
    transformState: ofType("tool-result", withContent((c) => c.replace(/^(● [^\s(]+)\([\s\S]*\)$/, "$1"))),
  },
  {
    name: "display-toolname",
    description: "seed: `toolName` is the display name (`Read`), not the table's (`read_file`)",
    violates: ["continue-remote/tools/name-map"],
    profile: "seed",
    transformState: (s) => {
      const rename = (x: Json): Json => (typeof x.toolName === "string" && DISPLAY_OF[x.toolName] ? { ...x, toolName: DISPLAY_OF[x.toolName] } : x);
      const out = eachEntry(rename)(s);
      if (out.pendingPermission && typeof out.pendingPermission === "object") out.pendingPermission = rename(out.pendingPermission as Json);
      return out;
    },
  },
  {
    name: "start-never-resolved",
    description: "seed: the result of each Read is never shown, so the final text follows an unresolved ○",
    violates: ["continue-remote/tools/start-resolves"],
    profile: "seed",
    transformState: (s) => setHistory(s, historyOf(s).filter((e) => !(e.messageType === "tool-result" && e.toolName === "read_file"))),
  },
  {
    name: "result-other-arg",
    description: "seed: `○ Read(README.md)` is answered by `● Read(other.md)`",
    violates: ["continue-remote/tools/result-pairs-start"],
    profile: "seed",
    transformState: ofType("tool-result", withContent((c) => c.replace(/^(● [^\s(]+)\([\s\S]*\)$/, "$1(other.md)"))),
  },
  // --- seed streaming (§3.7) ---
  {
    name: "two-streaming",
    description: "seed: a finished assistant entry of the running turn keeps `isStreaming:true` until the turn ends",
    violates: ["continue-remote/stream/single-last"],
    profile: "seed",
    transformState: (s) => {
      if (s.isProcessing !== true) return s;
      const list = historyOf(s);
      const turnStart = list.map((e) => e.role).lastIndexOf("user");
      return setHistory(
        s,
        list.map((e, i) => (i > turnStart && e.role === "assistant" && e.isStreaming === false ? { ...e, isStreaming: true } : e)),
      );
    },
  },
  {
    name: "stream-rewrite",
    description: "seed: the streaming entry's text is rewritten (served backwards) instead of extended",
    violates: ["continue-remote/stream/grows-by-append"],
    profile: "seed",
    transformState: eachEntry((e) => (e.isStreaming === true ? withContent((c) => Array.from(c).reverse().join(""))(e) : e)),
  },
  // --- consistency (§3.17) ---
  {
    name: "history-reorder",
    description: "The first two different finished assistant entries of one kind swap places once an entry follows them",
    violates: ["continue-remote/poll/append-only"],
    transformState: (s) => {
      const list = historyOf(s);
      const finished = (e: Json): boolean =>
        "message" in e ? (e.message as Json).role === "assistant" : e.role === "assistant" && e.isStreaming !== true;
      // cn: a tool item swaps with a tool item, a reply with a reply, so every turn still ends with its reply.
      const kind = (e: Json): boolean => Array.isArray((e.message as Json | undefined)?.toolCalls);
      const a = list.findIndex(finished);
      // Two equal entries (the same reply twice) would swap invisibly.
      const b = list.findIndex(
        (e, i) => i > a && finished(e) && kind(e) === kind(list[a] as Json) && JSON.stringify(e) !== JSON.stringify(list[a]),
      );
      if (a < 0 || b < 0 || b + 1 >= list.length) return s;
      const swapped = [...list];
      [swapped[a], swapped[b]] = [list[b] as Json, list[a] as Json];
      return setHistory(s, swapped);
    },
  },
  // --- processing (§3.2, §3.3, §3.8) ---
  {
    name: "drop-queued-message",
    description: "A message that arrives while busy is answered 200 and never run",
    violates: ["continue-remote/processing/message-not-lost"],
    message: { dropWhileBusy: true },
  },
  {
    name: "processing-flag-late",
    description: "`isProcessing` reads false while a new turn shows only its user entry (its first second at most)",
    violates: ["continue-remote/processing/true-while-handling"],
    // Only while nothing waits (with a queue the snapshot would break the idle rules too); and the
    // turn moves on at once (time clock; the other clocks step when told), so the next poll shows
    // it going on rather than a turn that ended.
    transformState: (s, { machine, opts }) => {
      const last = historyOf(s).at(-1);
      const userLast = last !== undefined && ("message" in last ? (last.message as Json).role : last.role) === "user";
      const early = opts.now() - machine.turnStartedAt < 1000;
      if (!(s.isProcessing === true && userLast && early && machine.queue.length === 0)) return s;
      if (opts.clock === "time") machine.step();
      return { ...s, isProcessing: false };
    },
  },
  {
    name: "processing-stuck",
    description: "`isProcessing` never goes back to false once a turn has started",
    violates: ["continue-remote/processing/false-when-done"],
    transformState: (s, { memo }) => {
      if (s.isProcessing === true) memo.set("started", true);
      return memo.get("started") ? { ...s, isProcessing: true } : s;
    },
  },
  {
    name: "stale-streaming-flag",
    description: "seed: the last assistant entry still streams when idle; cn: the first tool state stays at `calling` for good",
    violates: ["continue-remote/processing/idle-invariants"],
    transformState: (s) => {
      const list = historyOf(s);
      if (Array.isArray(s.chatHistory)) {
        const last = list.at(-1);
        if (s.isProcessing === false && last?.role === "assistant") list[list.length - 1] = { ...last, isStreaming: true };
        return setHistory(s, list);
      }
      const first = toolStates(s)[0];
      if (first?.status === "done") first.status = "calling";
      return s;
    },
  },
  {
    name: "user-entry-trimmed",
    description: "The user entry is the posted text trimmed and NFC-normalised",
    violates: ["continue-remote/processing/user-entry-verbatim"],
    transformText: (t) => t.trim().normalize("NFC"),
  },
  {
    name: "turn-ends-without-reply",
    description: "Turns end at the last tool result, with no final assistant text",
    violates: ["continue-remote/processing/turn-ends-with-assistant"],
    transformScenario: (s) => ({ ...s, endsAtTool: true }),
  },
  // --- message and queue (§3.2, §3.9) ---
  {
    name: "ack-position-zero",
    description: "POST /message answers `position:0` when idle",
    violates: ["continue-remote/message/accepted-shape"],
    transformAck: (b, busy) => (busy ? b : { ...b, position: 0 }),
  },
  {
    name: "busy-rejects-message",
    description: "POST /message answers 409 while busy (nothing queued)",
    violates: ["continue-remote/queue/position-while-processing"],
    message: { busyStatus: 409 },
  },
  {
    name: "lifo-queue",
    description: "The newest waiting message runs first",
    violates: ["continue-remote/queue/fifo"],
    machine: { lifo: true },
  },
  {
    name: "false-will-interrupt",
    description: "seed: a message during a turn answers `willInterrupt:true`, and the turn runs on",
    violates: ["continue-remote/queue/will-interrupt-honoured"],
    profile: "seed",
    transformAck: (b, busy) => (busy ? { ...b, willInterrupt: true } : b),
  },
  // --- bad input (§6) ---
  {
    name: "accept-empty-message",
    description: "`{\"message\":\"\"}` is queued",
    violates: ["continue-remote/bad-input/missing-or-empty-message"],
    message: { acceptEmpty: true },
  },
  {
    name: "accept-non-string",
    description: "A non-string `message` (42, {}, …) is queued as its JSON text, as 1.5.47 queues it",
    violates: ["continue-remote/bad-input/non-string-message"],
    message: { acceptNonString: true },
  },
  {
    name: "text-plain-500",
    description: "A POST without a JSON content type answers 500, as 1.5.47 does",
    violates: ["continue-remote/bad-input/unparseable-body"],
    body: { wrongTypeStatus: 500 },
  },
  {
    name: "malformed-json-500",
    description: "A malformed JSON body answers 500",
    violates: ["continue-remote/bad-input/unparseable-body"],
    body: { malformedStatus: 500 },
  },
  {
    name: "unknown-route-200",
    description: "Unknown paths and wrong methods answer 200 `{}`",
    violates: ["continue-remote/bad-input/unknown-route"],
    routes: { unknownOk: true },
  },
  {
    name: "bad-input-corrupts",
    description: "After a 400 answer, GET /state shows `isProcessing:true` for 2 s",
    violates: ["continue-remote/bad-input/server-survives"],
    corruptAfterBadInputMs: 2000,
  },
  // --- permission (§3.11) ---
  {
    name: "permission-id-rotates",
    description: "The pending `requestId` changes on every GET /state (the newest one is accepted)",
    violates: ["continue-remote/permission/pending-shape"],
    transformState: (s, { machine, memo }) => {
      const pending = machine.pending;
      if (!pending) return s;
      const base = pending.requestId.split(".")[0] as string;
      pending.requestId = `${base}.${counter(memo, "rotation")}`;
      return { ...s, pendingPermission: structuredClone(pending) };
    },
  },
  {
    name: "permission-any-id",
    description: "POST /permission accepts any `requestId` for the pending request",
    violates: ["continue-remote/permission/wrong-id"],
    permission: { anyId: true },
  },
  {
    name: "permission-none-200",
    description: "POST /permission answers 200 when nothing is pending",
    violates: ["continue-remote/permission/wrong-id"],
    permission: { nonePendingOk: true },
  },
  {
    name: "permission-sticky",
    description: "POST /permission answers 200, but the request stays pending (and the turn waits) for 5 s",
    violates: ["continue-remote/permission/approve"],
    permission: { applyAfterMs: 5000 },
  },
  {
    name: "deny-runs-tool",
    description: "A denied tool runs all the same",
    violates: ["continue-remote/permission/deny"],
    permission: { denyRuns: true },
  },
  {
    name: "permission-truthy",
    description: "A non-boolean `approved` is read by truthiness (`\"false\"` approves), as 1.5.47 does",
    violates: ["continue-remote/permission/approved-boolean"],
    permission: { truthy: true },
  },
  // --- diff, exit (§3.12, §3.13) ---
  {
    name: "diff-plain-text",
    description: "GET /diff is served as text/x-diff, the bare diff",
    violates: ["continue-remote/diff/shape"],
    transformAnswer: (a, route) =>
      route === "diff" && a.status === 200 && !a.raw ? { ...a, raw: { text: String((a.value as Json).diff), contentType: "text/x-diff; charset=utf-8" } } : a,
  },
  {
    name: "exit-ignored",
    description: "POST /exit answers as usual but the server keeps running",
    violates: ["continue-remote/exit/shuts-down"],
    exit: { ignore: true },
  },
  {
    name: "exit-no-body",
    description: "POST /exit answers 204 with no body (and shuts down)",
    violates: ["continue-remote/exit/shuts-down"],
    exit: { emptyStatus: 204 },
  },
  {
    name: "get-exit-shuts-down",
    description: "GET /exit shuts the server down",
    violates: ["continue-remote/exit/post-only"],
    exit: { onGet: true },
  },
  // --- security ---
  {
    name: "bind-all-interfaces",
    description: "Listens on 0.0.0.0, as the real server does (only when given at start)",
    violates: ["continue-remote/security/loopback-bind"],
    server: { host: "0.0.0.0" },
  },
  {
    name: "cors-wildcard",
    description: "Every answer carries `Access-Control-Allow-Origin: *`, and preflights are approved",
    violates: ["continue-remote/security/cors"],
    cors: { wildcard: true },
  },
  {
    name: "parse-any-content-type",
    description: "A POST body that is JSON is parsed whatever its content type (text/plain is queued)",
    violates: ["continue-remote/security/simple-request-no-effect"],
    body: { anyContentType: true },
  },
  // --- timing ---
  {
    name: "slow-state",
    description: "GET /state answers after 1500 ms",
    violates: ["continue-remote/timing/responsive"],
    options: { stateDelayMs: 1500 },
  },
  {
    name: "blocking-message",
    description: "POST /message answers only once the queue has run dry (at most 8 s)",
    violates: ["continue-remote/timing/responsive"],
    message: { waitForIdle: true },
  },
  {
    name: "instant-turns",
    description: "Each turn is applied at once, between two requests (only when given at start)",
    violates: ["continue-remote/timing/intermediate-visible"],
    options: { speed: 0 },
  },
  // --- cn session (§3.15) ---
  {
    name: "session-id-changes",
    description: "cn: every GET /state carries a new `sessionId`",
    violates: ["continue-remote/session/id-stable"],
    profile: "cn-session",
    transformState: (s, { memo }) => {
      const n = counter(memo, "sessionIds");
      const session = s.session as Json;
      return { ...s, session: { ...session, sessionId: `00000000-0000-4000-9000-${n.toString(16).padStart(12, "0")}` } };
    },
  },
  {
    name: "tool-state-missing",
    description: "cn: assistant items carry `toolCalls` without `toolCallStates`",
    violates: ["continue-remote/session/tool-state-per-call"],
    profile: "cn-session",
    transformState: eachEntry(({ toolCallStates: _gone, ...rest }) => rest),
  },
  {
    name: "tool-status-regress",
    description: "cn: once, on a busy poll, a tool state already served `done` reads `calling` again",
    violates: ["continue-remote/session/tool-status-forward"],
    profile: "cn-session",
    // Once and while busy: a regress seen idle would also read as an unsettled idle state.
    transformState: (s, { memo }) => {
      const served = (memo.get("done") as Set<string> | undefined) ?? new Set<string>();
      memo.set("done", served);
      const regress = s.isProcessing === true && !memo.get("regressed") ? toolStates(s).find((st) => st.status === "done" && served.has(String(st.toolCallId))) : undefined;
      if (regress) {
        regress.status = "calling";
        memo.set("regressed", true);
      }
      for (const st of toolStates(s)) if (st.status === "done") served.add(String(st.toolCallId));
      return s;
    },
  },
  {
    name: "arguments-unparseable",
    description: "cn: tool calls carry `arguments:\"{\\\"filepath\\\":\"`, which does not parse",
    violates: ["continue-remote/session/tool-state-content"],
    profile: "cn-session",
    transformState: (s) => {
      const broken = '{"filepath":';
      for (const item of historyOf(s)) {
        const calls = ((item.message as Json | undefined)?.toolCalls as Json[] | undefined) ?? [];
        for (const c of calls) (c.function as Json).arguments = broken;
        for (const st of (item.toolCallStates as Json[] | undefined) ?? []) ((st.toolCall as Json).function as Json).arguments = broken;
      }
      return s;
    },
  },
  {
    name: "leak-system-prompt",
    description: "cn: the system prompt is the first history item",
    violates: ["continue-remote/session/no-system-items"],
    profile: "cn-session",
    transformState: (s) =>
      setHistory(s, [{ message: { role: "system", content: "You are a helpful coding agent." }, contextItems: [] }, ...historyOf(s)]),
  },
  {
    name: "pause-ignored",
    description: "cn: POST /pause answers `success:true` while busy, and the turn runs on",
    violates: ["continue-remote/pause/semantics"],
    profile: "cn-session",
    pause: { ignore: true },
  },
  {
    name: "pause-idle-success",
    description: "cn: POST /pause answers `success:true` when idle",
    violates: ["continue-remote/pause/semantics"],
    profile: "cn-session",
    pause: { idleSuccess: true },
  },
];

export function findFault(name: string): ContinueRemoteFault | undefined {
  return FAULTS.find((f) => f.name === name);
}

/** Why a fault cannot run under a profile; null when it can. */
export function faultProfileProblem(fault: ContinueRemoteFault, profile: ContinueRemoteProfile): string | null {
  return fault.profile && fault.profile !== profile
    ? `fault "${fault.name}" applies to the ${fault.profile} profile only (this mock runs ${profile})`
    : null;
}

export function unknownFault(name: string): string {
  return `unknown fault "${name}" (known: ${FAULTS.map((f) => f.name).join(", ")})`;
}
