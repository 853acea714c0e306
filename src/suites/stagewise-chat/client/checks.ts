/**
 * The client half of stagewise-chat (§4, side client or both): what a toolbar sends the mock, judged from the mock's
 * recording of it. Frames from the toolbar ("in") are judged; frames the mock sent ("out") say what the toolbar had
 * been told: the active chat, whether the agent works, which tool calls await it.
 *
 * Each rule has one owner, so one toolbar mistake fails one check: text-frames owns the frame type (binary) and bytes
 * that are not JSON, request-shape owns the tRPC envelope and ids, known-procedures the path and kind of a text frame
 * that names both, client-metadata the metadata (client-valid-input judges a copy with a stand-in),
 * messaging/client-user-message the messaging input.
 */
import { listFirst } from "../../../core/list-text.js";
import { at, type CheckDef, type Evidence, type Tally } from "../../../core/checks/check.js";
import { clientFrameRules, frameEvidence } from "../../../core/checks/client-frame-rule.js";
import { acrossStates, crossedReason, crossingGrace, sinceShown } from "../../../core/checks/crossing.js";
import { checkMaker, type CheckSpec } from "../../../core/checks/define-check.js";
import type { RunStop } from "../../../core/checks/run-stop.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import type { WsFrameEvent } from "../../../core/transport/ws-exchange.js";
import type { Conn, OpenEvent } from "../../../core/views/ws-connection.js";
import type { ChatState } from "../../../stagewise/chat-state.js";
import { datedValueOf, datePaths, SEED, taggedDate } from "../checks/support.js";
import { AgentView, CLIENT_PROBE, toolCalls, TOOLBAR, type Frame, type ToolCallInfo } from "./traffic.js";
import { ACTIVE_CHAT_ONLY, callOf, GATED, isObject, PONG_MS, PROCEDURES, STAND_IN_METADATA, WITH_METADATA, type Json } from "./vocabulary.js";
import { ownEntry } from "../../../core/checks/check-helpers.js";
import { cutByKit } from "../../../core/transport/ws-limits.js";

const clientCheck: (spec: CheckSpec) => CheckDef = checkMaker({ seed: SEED, side: "client" });

/** Rules over the toolbar's frames, each check following the agent's state as the mock told it. */
const toolbarRule = clientFrameRules(clientCheck, {
  view: TOOLBAR,
  probe: CLIENT_PROBE,
  follow: { make: (ctx) => new AgentView(crossingGrace(ctx)), frame: (agent, ev, f, c) => agent.frame(ev, f, c) },
});


/** One request of the toolbar: the message, its call, and its input as the agent reads it (undefined → null). */
interface ToolbarCall {
  /** The frame it came in. */
  ev: WsFrameEvent;
  v: Json;
  method: string;
  path: string;
  /** The input read back; absent when the envelope is malformed (request-shape's finding). */
  input?: { value: unknown; meta: Json | undefined };
}

function callsOf(ev: WsFrameEvent, f: Frame): ToolbarCall[] {
  if (f.kind !== "json") return [];
  return f.values.map((v) => {
    const call = callOf(v);
    return { ev, v, method: call.method, path: call.path, ...(call.input?.ok ? { input: { value: call.input.value ?? null, meta: call.input.meta } } : {}) };
  });
}

/** Where a toolbar frame is, as a knock-on names it. */
const frameAt = (ev: WsFrameEvent): string => `toolbar frame on ${ev.connection} (transcript seq ${ev.seq}, at ${Math.round(ev.t)} ms)`;

/**
 * What a request may have been written against: every chat state the mock sent within the crossing grace before it
 * arrived, and the one in force before them (undefined: no chat snapshot yet), oldest first.
 */
interface Crossing {
  states: (ChatState | undefined)[];
  grace: number;
}

/**
 * A check over the toolbar's requests with the agent's state as the mock told it: `judge` sees each request of the
 * toolbar (mock frames feed the state first), the state as last told, and the states the request may have crossed.
 */
function requestCheck(
  spec: Omit<CheckSpec, "create" | "probes"> & {
    pass: string;
    untested: string;
    /** Why never exercising the rule is a path the contract allows (the check then skips). */
    optional?: string;
    /** `seen`: what this check noted so far in this evaluation (ids the toolbar already answered). */
    judge(call: ToolbarCall, t: Tally, agent: AgentView, proof: (note?: string) => Evidence, validate: Validate, seen: Set<string>, crossing: Crossing): void;
  },
): CheckDef {
  const { judge, ...rule } = spec;
  return toolbarRule({
    ...rule,
    state: () => new Set<string>(),
    client(f, t, seen, ctx) {
      const crossing = { states: f.view.statesFor(f.ev), grace: f.view.trail.grace };
      for (const call of callsOf(f.ev, f.m)) judge(call, t, f.view, f.proof, ctx.validate, seen, crossing);
    },
  });
}

/** Validates a toolbar input, with the agent's schema registry. */
type Validate = (schema: string, value: unknown) => { ok: true } | { ok: false; errors: Parameters<typeof formatSchemaErrors>[0] };

const inputProblem = (validate: Validate, schema: string, value: unknown): string | undefined => {
  const r = validate(schema, value);
  return r.ok ? undefined : formatSchemaErrors(r.errors);
};

export const textFramesCheck = toolbarRule({
  // The agent's half is the server suite's check of the same id.
  id: "stagewise-chat/wire/text-frames",
  pass: "every toolbar frame was text: keep-alive or JSON",
  untested: "the toolbar sent no frame",
  client({ ev, m, proof }, t) {
    if (ev.binary) return t.fail("a text frame", "the toolbar sent a binary frame", proof());
    if (m.kind === "bad") return t.fail("PING, PONG or JSON", `a toolbar frame is ${m.reason}`, proof());
    t.ok();
  },
});

/** One connection's requests in flight, by id. */
const inFlight = (open: Map<string, Map<string, string>>, c: Conn) => open.get(c.id) ?? open.set(c.id, new Map()).get(c.id)!;

export const requestShapeCheck = toolbarRule({
  id: "stagewise-chat/trpc/client-request-shape",
  pass: "every toolbar request matched trpc-request, ids unique in flight",
  untested: "the toolbar sent no JSON frame",
  // Per connection: ids of mutations not yet answered and subscriptions not yet stopped.
  state: () => new Map<string, Map<string, string>>(),
  mock({ m, c }, _t, open) {
    if (m.kind !== "json") return;
    const ids = inFlight(open, c);
    for (const v of m.values) {
      const done = "error" in v || (isObject(v.result) && (v.result.type === "stopped" || (v.result.type !== "started" && ids.get(JSON.stringify(v.id))?.startsWith("mutation"))));
      if (done) ids.delete(JSON.stringify(v.id));
    }
  },
  client({ m, c, proof }, t, open, ctx) {
    if (m.kind !== "json") return;
    const ids = inFlight(open, c);
    const problem = inputProblem(ctx.validate, "trpc-request", m.raw);
    if (problem) return t.fail("a tRPC request (trpc-request)", `a toolbar frame is no tRPC request: ${problem}`, proof());
    for (const v of m.values) {
      const key = JSON.stringify(v.id);
      const method = String(v.method);
      if (method === "subscription.stop") {
        ids.delete(key);
        continue;
      }
      const busy = ids.get(key);
      if (busy) return t.fail("a fresh id per request in flight", `id ${key} (${method}) reuses the id of ${busy}, still in flight`, proof());
      ids.set(key, `${method} ${String(isObject(v.params) ? v.params.path : "")}`);
    }
    t.ok();
  },
});

export const knownProceduresCheck = requestCheck({
  id: "stagewise-chat/trpc/client-known-procedures",
  pass: "every toolbar request named a known procedure with its kind",
  untested: "the toolbar sent no request",
  judge(call, t, _agent, proof) {
    if (call.method === "subscription.stop") return;
    // A binary frame is wire/text-frames' failure, and a message naming no method or path is no request at all
    // (trpc/client-request-shape's): neither is judged again as a call of an unknown procedure.
    if (call.ev.binary) return t.knockOn("stagewise-chat/wire/text-frames", frameAt(call.ev));
    const params = isObject(call.v.params) ? call.v.params : undefined;
    if (typeof call.v.method !== "string" || typeof params?.path !== "string" || params.path === "")
      return t.knockOn("stagewise-chat/trpc/client-request-shape", frameAt(call.ev));
    const known = ownEntry(PROCEDURES, call.path);
    const all = Object.entries(PROCEDURES).map(([p, d]) => `${d.kind} ${p}`);
    if (!known) return t.fail(`one of: ${all.join(", ")}`, `${call.method} ${JSON.stringify(call.path)}: no such procedure`, proof());
    if (known.kind !== call.method) return t.fail(`${known.kind} ${call.path}`, `${call.method} ${call.path}`, proof());
    t.ok();
  },
});

/** The requests whose inputs a rule judges: known path with the right kind and a readable envelope. */
function judged(call: ToolbarCall): { value: unknown; schema: string } | undefined {
  const known = ownEntry(PROCEDURES, call.path);
  if (!known || known.kind !== call.method || !call.input) return undefined;
  return { value: call.input.value, schema: known.schema };
}

export const validInputCheck = requestCheck({
  id: "stagewise-chat/chat/client-valid-input",
  pass: "every chat input matched its schema",
  untested: "the toolbar sent no chat request",
  judge(call, t, _agent, proof, validate) {
    const j = judged(call);
    if (!j || !call.path.startsWith("chat.")) return;
    let value = j.value;
    if (WITH_METADATA.has(call.path) && isObject(value)) value = { ...value, metadata: STAND_IN_METADATA };
    const problem = inputProblem(validate, j.schema, value);
    if (problem) return t.fail(`an input matching ${j.schema}`, `${call.path}: ${problem}`, proof());
    t.ok();
  },
});

export const metadataCheck = requestCheck({
  id: "stagewise-chat/chat/client-metadata",
  pass: "every sendMessage and approveToolCall carried valid metadata",
  untested: "the toolbar sent no chat.sendMessage or chat.approveToolCall",
  judge(call, t, _agent, proof, validate) {
    const j = judged(call);
    if (!j || !WITH_METADATA.has(call.path) || !isObject(j.value)) return;
    if (!("metadata" in j.value)) return t.fail("a metadata object", `${call.path} without metadata`, proof());
    const problem = inputProblem(validate, "user-message-metadata", j.value.metadata);
    if (problem) return t.fail("metadata matching UserMessageMetadata", `${call.path}: metadata ${problem}`, proof());
    t.ok();
  },
});

export const userMessageCheck = requestCheck({
  id: "stagewise-chat/messaging/client-user-message",
  pass: "every messaging.sendUserMessage input was valid",
  untested: "the toolbar sent no messaging.sendUserMessage",
  optional: "the toolbar sent no messaging.sendUserMessage (a chat toolbar may use chat.sendMessage only)",
  judge(call, t, _agent, proof, validate) {
    const j = judged(call);
    if (!j || call.path !== "messaging.sendUserMessage") return;
    const problem = inputProblem(validate, j.schema, j.value);
    if (problem) return t.fail(`an input matching ${j.schema}`, `messaging.sendUserMessage: ${problem}`, proof());
    t.ok();
  },
});

export const dateAnnotationsCheck = requestCheck({
  // The agent's half is the server suite's check of the same id.
  id: "stagewise-chat/trpc/date-annotations",
  pass: "every Date the toolbar sent was tagged",
  untested: "the toolbar sent no Date",
  optional: "the toolbar sent no Date (only messaging.sendUserMessage carries one)",
  judge(call, t, _agent, proof) {
    if (!call.input || !ownEntry(PROCEDURES, call.path)) return;
    // Only the Dates §2 places in an input (a messaging UserMessage's createdAt); page data and tool output hold none.
    const kind = datedValueOf(call.path, "input");
    if (!kind) return;
    const paths = datePaths(call.input.value, kind);
    if (paths.length === 0) return;
    const untagged = paths.filter((p) => !taggedDate(call.input!.meta, p));
    if (untagged.length) return t.fail(`meta.values tagging ${untagged.join(", ")} as Date`, `${call.path}: ${untagged.join(", ")} not tagged Date`, proof());
    t.ok();
  },
});

const chatIdOf = (value: unknown): string | undefined => (isObject(value) && typeof value.chatId === "string" ? value.chatId : undefined);

/**
 * A request judged by every chat state it may have been written against (those before any snapshot left out): fails
 * only when wrong in all of them; `shows` drops the states before the first one holding what the request names (it
 * was written after that arrived). `problem` is what was expected in a state, unless `expected` says it once.
 */
function judgeAcross(
  t: Tally,
  call: ToolbarCall,
  crossing: Crossing,
  proof: (note?: string) => Evidence,
  o: { shows?: (s: ChatState) => boolean; problem: (s: ChatState) => string | undefined; expected?: string; actual: string | ((problem: string) => string) },
): void {
  const told = crossing.states.filter((s): s is ChatState => s !== undefined);
  if (told.length === 0) return t.untestable(`${call.path} came before any chat snapshot`);
  const states = o.shows ? sinceShown(told, o.shows) : told;
  const r = acrossStates(states, o.problem);
  if (r.verdict === "ok") return t.ok();
  if (r.verdict === "unsure") return t.untestable(crossedReason(call.path, crossing.grace));
  t.fail(o.expected ?? r.problem, typeof o.actual === "function" ? o.actual(r.problem) : o.actual, proof());
}

export const activeChatOnlyCheck = requestCheck({
  id: "stagewise-chat/chat/client-active-chat-only",
  pass: "every chat-scoped call named the active chat",
  untested: "the toolbar sent no sendMessage, approveToolCall or reportToolResult after a chat snapshot",
  judge(call, t, _agent, proof, _validate, _seen, crossing) {
    const j = judged(call);
    const chatId = j && ACTIVE_CHAT_ONLY.has(call.path) ? chatIdOf(j.value) : undefined;
    if (chatId === undefined) return;
    judgeAcross(t, call, crossing, proof, {
      // Naming a chat shows the toolbar had read the list that holds it.
      shows: (s) => s.chats.some((c) => c.id === chatId),
      problem: (s) => (chatId === s.activeChatId ? undefined : s.activeChatId === null ? "no such call while no chat is active" : `chatId "${s.activeChatId}" (the active chat)`),
      actual: `${call.path} to chat "${chatId}"`,
    });
  },
});

export const respectsWorkingCheck = requestCheck({
  id: "stagewise-chat/chat/client-respects-working",
  pass: "no gated call while the agent worked",
  untested: "the toolbar sent no createChat, deleteChat, switchChat or deleteMessageAndSubsequent after a chat snapshot",
  judge(call, t, _agent, proof, _validate, _seen, crossing) {
    const j = judged(call);
    if (!j || !GATED.has(call.path)) return;
    judgeAcross(t, call, crossing, proof, {
      problem: (s) => {
        const toActive = call.path === "chat.switchChat" && chatIdOf(j.value) === s.activeChatId;
        return s.isWorking && !toActive ? "working" : undefined;
      },
      expected: "no gated call while isWorking is true",
      actual: `${call.path} while the agent was working`,
    });
  },
});

/** A rule about one toolbar call per tool call: `problem` says what is wrong with it given the calls the mock reported. */
function toolCheck(
  spec: Omit<Parameters<typeof requestCheck>[0], "judge"> & {
    path: string;
    problem(call: ToolCallInfo | undefined, id: string, value: Json): string | undefined;
    expected: string;
  },
): CheckDef {
  const { path, problem, expected, ...rest } = spec;
  return requestCheck({
    ...rest,
    judge(call, t, _agent, proof, _validate, answered, crossing) {
      const j = judged(call);
      if (!j || call.path !== path || !isObject(j.value) || typeof j.value.toolCallId !== "string") return;
      const id = j.value.toolCallId;
      // The second answer is wrong even before the mock records the first.
      const again = answered.has(id);
      answered.add(id);
      if (again) return t.fail(expected, `${path}: toolCallId "${id}" was already answered by this toolbar`, proof());
      judgeAcross(t, call, crossing, proof, {
        // Naming a tool call shows the toolbar had read the message that holds it.
        shows: (s) => toolCalls(s).has(id),
        problem: (s) => problem(toolCalls(s).get(id), id, j.value as Json),
        expected,
        actual: (wrong) => `${path}: ${wrong}`,
      });
    },
  });
}

export const pendingApprovalsOnlyCheck = toolCheck({
  id: "stagewise-chat/tools/client-pending-approvals-only",
  pass: "every approval answered a pending call, once",
  untested: "the toolbar approved no tool call",
  path: "chat.approveToolCall",
  expected: "an approval of a pending tool call",
  problem(call, id) {
    if (!call) return `no tool call "${id}" in the active chat`;
    if (!call.requiresApproval) return `tool call "${id}" does not require approval`;
    if (call.approved !== undefined) return `tool call "${id}" was already ${call.approved ? "approved" : "rejected"}`;
    if (call.hasResult) return `tool call "${id}" already has a result`;
    return undefined;
  },
});

export const toolbarResultsOnlyCheck = toolCheck({
  id: "stagewise-chat/tools/client-toolbar-results-only",
  pass: "every reported result answered an awaited toolbar call, once",
  untested: "the toolbar reported no tool result",
  path: "chat.reportToolResult",
  expected: "a result of an awaited toolbar tool call",
  problem(call, id) {
    if (!call) return `no tool call "${id}" in the active chat`;
    if (call.runtime !== "toolbar") return `tool call "${id}" runs on "${call.runtime}", not the toolbar`;
    if (call.requiresApproval && call.approved !== true) return `tool call "${id}" ${call.approved === false ? "was rejected" : "awaits approval"}`;
    if (call.hasResult) return `tool call "${id}" already has a result`;
    return undefined;
  },
});

/** The PINGs whose PONG was due by `now`: failed, or unjudged when the kit's stop came first. */
function pongsDue(now: number, t: Tally, waiting: Map<string, WsFrameEvent>, stop: RunStop): void {
  for (const [id, ping] of waiting) {
    if (now - ping.t <= PONG_MS) continue;
    waiting.delete(id);
    if (stop.cuts(ping.t + PONG_MS)) t.untestable(stop.reason(`a PONG was still due on ${id}`));
    else t.fail(`PONG within ${PONG_MS} ms`, `no PONG ${PONG_MS} ms after the mock's PING`, frameEvidence(ping));
  }
}

export const keepalivePongCheck = toolbarRule({
  // The agent's half is the server suite's check of the same id.
  id: "stagewise-chat/trpc/keepalive-pong",
  pass: "the toolbar answered every PING with PONG within 5 s",
  untested: "the mock sent no PING (it pings after a spell of toolbar silence, 30 s by default)",
  // Per connection: the unanswered PING.
  state: () => new Map<string, WsFrameEvent>(),
  tick: pongsDue,
  mock({ ev, m, c }, _t, waiting) {
    if (m.kind === "keepalive" && m.text === "PING") waiting.set(c.id, ev);
  },
  client({ m, c }, t, waiting) {
    if (m.kind === "keepalive" && m.text === "PONG" && waiting.delete(c.id)) t.ok();
  },
  close(ev, c, t, waiting) {
    const cut = cutByKit(ev);
    if (waiting.delete(c.id)) t.untestable(cut === undefined ? "the connection closed within 5 s of a PING" : `the mock cut socket ${c.id} at its own limit (${cut}) within 5 s of a PING`);
  },
  end(t, waiting, stop) {
    // A PONG overdue when the kit stopped the run was late by then.
    if (stop.at !== undefined) pongsDue(stop.at, t, waiting, stop);
    if (waiting.size > 0) t.untestable(stop.at !== undefined ? stop.reason("a PONG was still due") : "the run ended within 5 s of a PING");
  },
});

/** A toolbar subscribes to chat updates this soon after opening a socket, and after a drop or `reconnect` (§4). */
const SUBSCRIBE_AFTER_OPEN_MS = 5_000;
const SUBSCRIBE_AFTER_DROP_MS = 10_000;

const isChatSubscribe = (v: Json): boolean => v.method === "subscription" && isObject(v.params) && v.params.path === "chat.getChatUpdates";

/** What the resubscription rule waits for: sockets opened without a chat subscription yet, and a drop not yet answered. */
interface Subscribes {
  opened: Map<string, OpenEvent>;
  dropped: { t: number; what: string; proof: Evidence } | undefined;
}

/** The sockets whose chat subscription was due by `now`: failed, or unjudged when the kit's stop came first. */
function openedDue(now: number, t: Tally, s: Subscribes, stop: RunStop): void {
  for (const [id, o] of s.opened) {
    if (now - o.t <= SUBSCRIBE_AFTER_OPEN_MS) continue;
    s.opened.delete(id);
    if (stop.cuts(o.t + SUBSCRIBE_AFTER_OPEN_MS)) t.untestable(stop.reason(`socket ${id} still had time to subscribe`));
    else t.fail(`a chat subscription within ${SUBSCRIBE_AFTER_OPEN_MS} ms of the open`, `socket ${id} went ${SUBSCRIBE_AFTER_OPEN_MS} ms without one`, at(o, { label: id, excerpt: `open ${o.url}` }));
  }
}

/** The subscription due after a drop by `now`: failed, or unjudged when the kit's stop came first. */
function dropDue(now: number, t: Tally, s: Subscribes, stop: RunStop): void {
  const d = s.dropped;
  if (!d || now - d.t <= SUBSCRIBE_AFTER_DROP_MS) return;
  s.dropped = undefined;
  if (stop.cuts(d.t + SUBSCRIBE_AFTER_DROP_MS)) t.untestable(stop.reason(`the toolbar still had time to subscribe after ${d.what}`));
  else t.fail(`a chat subscription within ${SUBSCRIBE_AFTER_DROP_MS} ms of ${d.what}`, `none ${SUBSCRIBE_AFTER_DROP_MS} ms after ${d.what}`, d.proof);
}

export const resubscribeCheck = toolbarRule({
  id: "stagewise-chat/chat/client-resubscribe",
  pass: "the toolbar subscribed in time after every open and drop",
  untested: "the toolbar opened no socket",
  state: (): Subscribes => ({ opened: new Map(), dropped: undefined }),
  tick(now, t, s, stop) {
    openedDue(now, t, s, stop);
    dropDue(now, t, s, stop);
  },
  open(ev, c, _t, s) {
    s.opened.set(c.id, ev);
  },
  mock({ ev, m, proof }, _t, s) {
    if (m.kind === "json" && m.values.some((v) => v.method === "reconnect")) s.dropped ??= { t: ev.t, what: "the mock's reconnect request", proof: proof() };
  },
  client({ m, c }, t, s) {
    if (m.kind !== "json" || !m.values.some(isChatSubscribe)) return;
    if (s.opened.delete(c.id)) t.ok();
    if (s.dropped) {
      s.dropped = undefined;
      t.ok();
    }
  },
  close(ev, c, t, s, stop) {
    const unsubscribed = s.opened.delete(c.id);
    // The mock's cut at its own cap is the kit's doing: neither the subscription it came before nor a return after it
    // is the toolbar's to owe.
    const cut = cutByKit(ev);
    if (cut !== undefined) {
      if (unsubscribed) t.untestable(`the mock cut socket ${c.id} at its own limit (${cut}) before the toolbar subscribed on it`);
      return;
    }
    // The mock's closes once the kit stopped the run end it: no toolbar is asked to come back.
    if (ev.by === "kit" && !stop.hadStopped(ev.t)) s.dropped ??= { t: ev.t, what: `the mock's close of socket ${c.id} (${ev.code ?? "no code"})`, proof: at(ev, { label: c.id, excerpt: `close ${ev.code ?? ""} ${ev.reason ?? ""}`.trim() }) };
  },
  end(t, s, stop) {
    // A socket still open when the kit stopped the run, past its time without a subscription, was late by then. A drop
    // no event followed past its time leaves no sign the toolbar was still there to come back: that stays unjudged.
    if (stop.at === undefined) {
      if (s.opened.size > 0 || s.dropped) t.untestable("the run ended before the time to subscribe was over");
      return;
    }
    openedDue(stop.at, t, s, stop);
    if (s.opened.size > 0) t.untestable(stop.reason(`socket ${listFirst([...s.opened.keys()])} still had time to subscribe`));
    const d = s.dropped;
    if (d && stop.cuts(d.t + SUBSCRIBE_AFTER_DROP_MS)) t.untestable(stop.reason(`the toolbar still had time to subscribe after ${d.what}`));
    else if (d) t.untestable(`${stop.said} with no event since ${d.what} past its ${SUBSCRIBE_AFTER_DROP_MS} ms: whether the toolbar was still there to subscribe could not be told`);
  },
});

/**
 * What a dropped toolbar connection had received: from the mock's close of it, or its reconnect request on it, the
 * last chat event sent on it before, and the ones sent on it after (a toolbar that acts on the request at once never
 * reads those): the client's resubscription on its new socket may name any.
 */
interface Dropped {
  /** When the dropped connection was opened: only a socket opened after it can be its client's new one. */
  openedAt: number;
  atDrop: string | undefined;
  after: Set<string>;
}

/** One toolbar connection as the last-event-id rule follows it. */
interface ResumeConn {
  /** Its chat subscriptions (by tRPC id as sent). */
  chatSubs: Set<string>;
  /** Those not yet ended (by the toolbar's subscription.stop, or the mock's stopped or error). */
  open: Set<string>;
  /** The last chat event the mock sent on it. */
  last: string | undefined;
  /** Set once the mock closed it or asked it to reconnect. */
  dropped: Dropped | undefined;
}

/** What the last-event-id rule follows of the chat subscriptions. */
interface Resumes {
  conns: Map<string, ResumeConn>;
  /** Dropped connections that had received chat events, not yet resumed by a new socket, oldest first. */
  pending: Dropped[];
  /** The mock dropped a connection or asked one to reconnect. */
  dropped: boolean;
}

const resumeConn = (s: Resumes, c: Conn): ResumeConn =>
  s.conns.get(c.id) ?? s.conns.set(c.id, { chatSubs: new Set(), open: new Set(), last: undefined, dropped: undefined }).get(c.id)!;

/** Dropped connections kept for a resumption at most (the oldest forgotten first). */
const PENDING_KEPT = 64;

function drop(s: Resumes, rc: ResumeConn, c: Conn): void {
  s.dropped = true;
  if (rc.dropped) return;
  rc.dropped = { openedAt: c.openedAt, atDrop: rc.last, after: new Set() };
  s.pending.push(rc.dropped);
  if (s.pending.length > PENDING_KEPT) s.pending.shift();
}

/** Whether a resubscription naming `sent` resumes where the dropped connection left off (nothing named: a fresh start). */
const resumes = (d: Dropped, sent: unknown): boolean =>
  sent === undefined || sent === null ? d.atDrop === undefined : typeof sent === "string" && (sent === d.atDrop || d.after.has(sent));

/**
 * A resubscription (§1 "resume, same id"; §8 drop-after-n, reconnect-notice) is the same toolbar subscribing again after
 * it had received chat events: on the connection that received them (once its earlier subscription ended, or naming an
 * event id), or, after the mock closed that connection or asked it to reconnect, as the first chat subscription on a
 * socket opened since. A socket with no such drop before it (a second tab, a page reloaded by the user: the toolbar
 * keeps nothing across reloads, r3) has received nothing and is not judged.
 */
export const lastEventIdCheck = toolbarRule({
  id: "stagewise-chat/chat/client-last-event-id",
  pass: "every resubscription carried the last event id",
  untested: "the toolbar never resubscribed to chat updates after receiving chat events (on the same socket, or on a new one after a drop or reconnect request)",
  // Without a drop or a reconnect request the toolbar had no reason to resubscribe (the drop-after-n and
  // reconnect-notice scenarios give it one).
  optional: (s) => (s.dropped ? undefined : "the mock never dropped the toolbar nor asked it to reconnect (scenarios drop-after-n, reconnect-notice do)"),
  state: (): Resumes => ({ conns: new Map(), pending: [], dropped: false }),
  close(ev, c, t, s, stop) {
    const rc = s.conns.get(c.id);
    s.conns.delete(c.id);
    // The mock's cut at its own cap is no drop the toolbar is asked to resume from: whether and how it comes back after
    // one is not judged.
    const cut = cutByKit(ev);
    if (cut !== undefined) {
      if (rc?.last !== undefined) t.untestable(`the mock cut socket ${c.id} at its own limit (${cut}) after it had received chat events: a resumption after the cut is not judged`);
      return;
    }
    // The mock's closes once the kit stopped the run end it: no toolbar is asked to resume.
    if (ev.by !== "kit" || stop.hadStopped(ev.t)) return;
    s.dropped = true;
    // A connection closed before it received any chat event leaves nothing to resume.
    if (rc && (rc.last !== undefined || rc.dropped)) drop(s, rc, c);
  },
  mock({ m, c }, _t, s) {
    if (m.kind !== "json") return;
    for (const v of m.values) {
      if (v.method === "reconnect") drop(s, resumeConn(s, c), c);
      const r = isObject(v.result) ? v.result : undefined;
      const rc = s.conns.get(c.id);
      const key = JSON.stringify(v.id);
      if (rc && ("error" in v || r?.type === "stopped")) rc.open.delete(key);
      if (rc?.chatSubs.has(key) && r?.type === "data" && typeof r.id === "string") {
        rc.last = r.id;
        // Bounded: only what is sent between a reconnect request and the connection's end.
        if (rc.dropped && rc.dropped.after.size < 10_000) rc.dropped.after.add(r.id);
      }
    }
  },
  client({ m, c, proof }, t, s) {
    if (m.kind !== "json") return;
    for (const v of m.values) {
      const key = JSON.stringify(v.id);
      if (v.method === "subscription.stop") s.conns.get(c.id)?.open.delete(key);
      if (!isChatSubscribe(v)) continue;
      const rc = resumeConn(s, c);
      const first = rc.chatSubs.size === 0;
      // Another chat subscription of this socket still runs: a new one naming no event is another reader, not a resume.
      const alongside = [...rc.open].some((k) => k !== key);
      rc.chatSubs.add(key);
      rc.open.add(key);
      const sent = callOf(v).lastEventId;
      const fresh = sent === undefined || sent === null;
      const actual = fresh ? "a resubscription without lastEventId" : `lastEventId ${JSON.stringify(sent)}`;
      if (rc.last !== undefined || rc.dropped) {
        // Again on a connection that received chat events (or was asked to reconnect, and subscribes on it again).
        if (fresh && alongside) continue;
        const d = rc.dropped;
        if (d) {
          const i = s.pending.indexOf(d);
          if (i >= 0) s.pending.splice(i, 1);
          if (d.atDrop === undefined && d.after.size === 0) continue;
        }
        if (sent === rc.last || (d && resumes(d, sent))) t.ok();
        else t.fail(d ? expectedAfterDrop(d) : `lastEventId "${rc.last}" (the last chat event received on this socket)`, actual, proof());
        continue;
      }
      // A new socket: the return of a dropped one opened before it, or a toolbar that has received nothing (not judged).
      if (!first) continue;
      const eligible = s.pending.filter((d) => d.openedAt <= c.openedAt);
      if (eligible.length === 0) continue;
      const d = eligible.find((x) => resumes(x, sent)) ?? eligible[0]!;
      s.pending.splice(s.pending.indexOf(d), 1);
      if (d.atDrop === undefined && d.after.size === 0) continue;
      if (resumes(d, sent)) t.ok();
      else t.fail(expectedAfterDrop(d), actual, proof());
    }
  },
});

const expectedAfterDrop = (d: Dropped): string =>
  d.atDrop === undefined
    ? "no lastEventId, or a chat event's id sent since the drop or reconnect request"
    : `lastEventId "${d.atDrop}" or later (the last chat event sent before the drop or reconnect request)`;

export const STAGEWISE_CHAT_CLIENT_CHECKS: CheckDef[] = [
  textFramesCheck,
  requestShapeCheck,
  knownProceduresCheck,
  validInputCheck,
  metadataCheck,
  userMessageCheck,
  dateAnnotationsCheck,
  activeChatOnlyCheck,
  respectsWorkingCheck,
  pendingApprovalsOnlyCheck,
  toolbarResultsOnlyCheck,
  keepalivePongCheck,
  resubscribeCheck,
  lastEventIdCheck,
];
