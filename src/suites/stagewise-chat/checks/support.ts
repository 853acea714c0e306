/**
 * What the stagewise-chat checks share: the contract reference, the frames of each connection
 * decoded once (keep-alive text, tRPC messages, superjson envelopes), request ↔ answer correlation
 * by tRPC id (core's rpc view), and one record per chat subscription: its snapshot, its sequence
 * numbers and the state reduced with the normative reducer, so no check reduces twice.
 */
import { at, excerpt, notApplicable, Tally, type CheckDef, type Evidence } from "../../../core/checks/check.js";
import { checkSpec, serverCheckMaker, type CheckArgs, type CheckSpec, type MakeCheck } from "../../../core/checks/define-check.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { frameJson, type WsFrameEvent } from "../../../core/transport/ws-exchange.js";
import { cutByKit } from "../../../core/transport/ws-limits.js";
import type { Exchange } from "../../../core/views/exchange.js";
import { exchangeChecks } from "../../../core/views/exchange-checks.js";
import { all, each, on, type Guard, type Listen } from "../../../core/views/hooks.js";
import { derivedView } from "../../../core/views/router.js";
import { rpcHooks, rpcView, type RpcHandlers, type RpcIn, type RpcOut, type RpcProtocol, type RpcRequest } from "../../../core/views/rpc.js";
import { wsConnectionView, type Conn } from "../../../core/views/ws-connection.js";
import { applyChatUpdate, initialChatState, parseEventId, type ChatReduced, type ChatState } from "../../../stagewise/chat-state.js";
import type { ChatUpdate } from "../../../generated/stagewise-chat.js";
import { isProtocolConnection, NOTE, TOPIC, type Topic } from "../labels.js";

export const SEED = "003_69c02258757d0ed3.txt";

export { all, onNote } from "../../../core/views/hooks.js";
export { notApplicable, Tally };
export type { Conn, Exchange, RpcRequest };

/** A CheckDef of this suite: full id, server side, the seed reference; early stops and absent behaviours explained. */
const makeCheck = serverCheckMaker(SEED, { stopped: NOTE.stopped, notApplicable: NOTE.notApplicable, knockOn: NOTE.knockOn });

/** Rules about the chat capability: moot for an agent without it (the probes then say so). */
const NEEDS_CHAT = /^stagewise-chat\/(chat\/(?!no-toolcalling)|tools\/|state\/coherent-with-chat$)/;

type Spec = CheckSpec & { notApplicableWhen?: Topic[] };
export const serverCheck: MakeCheck<Spec> = (...args: CheckArgs<Spec>): CheckDef => {
  const spec = checkSpec(...args);
  return makeCheck(NEEDS_CHAT.test(spec.id) ? { ...spec, notApplicableWhen: [...(spec.notApplicableWhen ?? []), TOPIC.chat] } : spec);
};

export type FrameEvent = WsFrameEvent;
export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Frames

/** A frame as the checks read it. */
export type Frame =
  | { kind: "keepalive"; text: "PING" | "PONG" }
  /** One tRPC message, or (outgoing) a batch of them. */
  | { kind: "json"; values: Json[]; batch: boolean }
  | { kind: "bad"; reason: string };

/**
 * The frame decoded last: every view instance reading WIRE decodes the same frame in turn, one after the other. Asked
 * again later, a frame is read again from its parse (which frameJson keeps per event): the same values.
 */
let lastEvent: FrameEvent | undefined;
let lastFrame: Frame | undefined;

export function frameOf(ev: FrameEvent, c?: Conn): Frame {
  if (ev === lastEvent) return lastFrame!;
  let f: Frame;
  if (ev.data === "PING" || ev.data === "PONG") f = { kind: "keepalive", text: ev.data };
  else {
    const p = frameJson(ev, ev.direction === "in" ? c?.json : undefined);
    if (!p.ok) f = { kind: "bad", reason: `not JSON (${p.error})` };
    else if (isObject(p.value)) f = { kind: "json", values: [p.value], batch: false };
    else if (Array.isArray(p.value) && ev.direction === "out") f = { kind: "json", values: p.value.filter(isObject), batch: true };
    else f = { kind: "bad", reason: `JSON ${p.value === null ? "null" : Array.isArray(p.value) ? "array" : typeof p.value}, not a tRPC message` };
  }
  lastEvent = ev;
  lastFrame = f;
  return f;
}

/** A frame's class (WIRE's tag): its direction and kind, so a hook may read only the classes it judges (`only`). */
export type FrameClass = `${"in" | "out"} ${Frame["kind"]}`;
const CLASSES: Record<"in" | "out", Record<Frame["kind"], FrameClass>> = {
  in: { keepalive: "in keepalive", json: "in json", bad: "in bad" },
  out: { keepalive: "out keepalive", json: "out json", bad: "out bad" },
};
/** The tRPC messages both ways (no keep-alive, nothing unreadable). */
export const JSON_FRAMES: readonly FrameClass[] = ["in json", "out json"];

/** This suite's connections, each frame decoded once for every check. */
export const WIRE = wsConnectionView<Frame>({ name: "stagewise-chat/connections", decode: (ev, c) => frameOf(ev, c), tag: (f, ev) => (f.kind === "json" ? (ev.direction === "in" ? "in json" : "out json") : CLASSES[ev.direction][f.kind]) });

/** Frames of the protocol connections (not the upgrade probes); `only`: the classes the hook reads (default: all). */
export function onFrames(fn: (ev: FrameEvent, f: Frame, c: Conn) => void, opts: { all?: boolean; only?: readonly FrameClass[] } = {}): Listen {
  return WIRE.on({ ...(opts.all ? {} : { accept: isProtocolConnection }), ...(opts.only ? { only: opts.only } : {}), frame: fn });
}

// ---------------------------------------------------------------------------------------------
// superjson

/** A superjson envelope read back: the value with Dates left as ISO strings, `undefined` for tagged nulls. */
export type Envelope = { ok: true; value: unknown; meta: Json | undefined } | { ok: false; reason: string };

export function readEnvelope(env: unknown): Envelope {
  if (!isObject(env) || !("json" in env)) return { ok: false, reason: "not a superjson envelope {json, meta?}" };
  const meta = env.meta;
  if (meta !== undefined && !isObject(meta)) return { ok: false, reason: "meta is not an object" };
  const values = meta?.values;
  // Top level `undefined`: {"json":null,"meta":{"values":["undefined"]}}.
  if (Array.isArray(values) && values[0] === "undefined") return { ok: true, value: undefined, meta };
  return { ok: true, value: env.json, meta };
}

/** The dotted superjson path of a JSON pointer-ish key list (dots in keys escaped). */
export const dotted = (keys: (string | number)[]): string => keys.map((k) => String(k).replace(/\./g, "\\.")).join(".");

/**
 * The values the contract puts Dates in (§2), by the procedure that carries them: a chat.getChatUpdates event (tracked
 * `{id, data}` or, untracked, the update itself), a messaging.getMessage AgentMessageUpdate, a
 * messaging.sendUserMessage input. No other value of the protocol holds a Date.
 */
export type DatedValue = "chat-event" | "agent-message" | "user-message";

/** Which dated value a procedure's results (subscriptions) or input (`input`) are, if any; the router prefix is ignored. */
export function datedValueOf(path: string, side: "result" | "input"): DatedValue | undefined {
  const name = procedure(path);
  if (side === "result") return name === "getChatUpdates" ? "chat-event" : name === "getMessage" ? "agent-message" : undefined;
  return name === "sendUserMessage" ? "user-message" : undefined;
}

/**
 * Paths (dotted) of the Date fields of §2 a value holds as strings, at their places only: `createdAt` of a Chat, a
 * ChatListItem, a ChatMessage, an AgentMessageUpdate and a messaging UserMessage. A `createdAt` anywhere else (in
 * `metadata`, `ownProperties`, `attributes`, a tool call's `input` or a tool result's `output`: free-form page or tool
 * data) is no Date of the contract, and superjson rightly leaves a string there untagged.
 */
export function datePaths(value: unknown, kind: DatedValue): string[] {
  const out: string[] = [];
  if (!isObject(value)) return out;
  if (kind !== "chat-event") {
    dateAt(value, [], out);
    return out;
  }
  // Tracked `{id, data: update}`, or the update itself (untracked: chat/seq-tracked's finding), as the chat subs read it.
  if (isObject(value.data)) updateDates(value.data, ["data"], out);
  else if (typeof value.type === "string") updateDates(value, [], out);
  return out;
}

/** The `createdAt` of an object at `keys`, when it is a string. */
function dateAt(o: Json, keys: (string | number)[], out: string[]): void {
  if (typeof o.createdAt === "string") out.push(dotted([...keys, "createdAt"]));
}

function updateDates(u: Json, keys: (string | number)[], out: string[]): void {
  switch (u.type) {
    case "chat-list":
      if (Array.isArray(u.chats)) u.chats.forEach((c, i) => isObject(c) && dateAt(c, [...keys, "chats", i], out));
      return;
    case "chat-created":
    case "chat-full-sync": {
      const chat = u.chat;
      if (!isObject(chat)) return;
      // In the chat's key order, as superjson walks it.
      for (const k in chat) {
        if (k === "createdAt") dateAt(chat, [...keys, "chat"], out);
        else if (k === "messages" && Array.isArray(chat.messages))
          chat.messages.forEach((m, i) => isObject(m) && dateAt(m, [...keys, "chat", "messages", i], out));
      }
      return;
    }
    case "message-added":
      if (isObject(u.message)) dateAt(u.message, [...keys, "message"], out);
      return;
  }
}

/**
 * Whether a frame may carry a Date at all: a key read as `createdAt` is written so in the text, or with a `\u` escape.
 * Most frames of a turn (text deltas) carry none, and need no walk.
 */
export const mayCarryDates = (ev: FrameEvent): boolean => ev.data.includes("createdAt") || ev.data.includes("\\u");

/** Whether `meta.values` tags `path` as a Date (flat form, as superjson writes it). */
export function taggedDate(meta: Json | undefined, path: string): boolean {
  const values = meta?.values;
  if (!isObject(values)) return false;
  const tag = values[path];
  return Array.isArray(tag) && tag[0] === "Date";
}

// ---------------------------------------------------------------------------------------------
// tRPC messages

export type Result =
  | { kind: "started" | "stopped"; id: unknown }
  | {
      kind: "data";
      id: unknown;
      eventId: unknown;
      hasEventId: boolean;
      envelope: Envelope;
      raw: unknown;
      /** The value: the envelope's, or — when the server sent none (trpc/response-envelope's finding) — the data as sent. */
      value: unknown;
    }
  | { kind: "error"; id: unknown; envelope: Envelope; error: Json | undefined }
  | { kind: "reconnect" }
  | { kind: "other"; id: unknown; reason: string };

/**
 * The message `resultOf` read last and what it said: every check reading a frame asks about the same message while the
 * frame is handed round, so it is read once. Messages are parsed JSON, never changed after.
 */
let lastMessage: Json | undefined;
let lastResult: Result | undefined;

/** What one server message says (the same object for the same message, asked again). */
export function resultOf(v: Json): Result {
  if (v === lastMessage) return lastResult!;
  const r = readResult(v);
  lastMessage = v;
  lastResult = r;
  return r;
}

function readResult(v: Json): Result {
  if (v.method === "reconnect") return { kind: "reconnect" };
  if ("error" in v) {
    const envelope = readEnvelope(v.error);
    return { kind: "error", id: v.id, envelope, error: envelope.ok && isObject(envelope.value) ? envelope.value : undefined };
  }
  const r = v.result;
  if (!isObject(r)) return { kind: "other", id: v.id, reason: "neither result nor error" };
  if (r.type === "started" || r.type === "stopped") return { kind: r.type, id: v.id };
  if (r.type === "data" || r.type === undefined) {
    const envelope = readEnvelope(r.data);
    return { kind: "data", id: v.id, eventId: r.id, hasEventId: "id" in r, envelope, raw: r.data, value: envelope.ok ? envelope.value : r.data };
  }
  return { kind: "other", id: v.id, reason: `result type ${JSON.stringify(r.type)}` };
}

/** A request the kit sent: method, path, input read back. */
export interface Call {
  id: unknown;
  method: string;
  path: string;
  input: Envelope | undefined;
  lastEventId: unknown;
}

export function callOf(v: Json): Call {
  const params = isObject(v.params) ? v.params : {};
  const input = isObject(params) && "input" in params ? readEnvelope(params.input) : undefined;
  const inputValue = input?.ok && isObject(input.value) ? input.value : undefined;
  return {
    id: v.id,
    method: typeof v.method === "string" ? v.method : "",
    path: typeof params.path === "string" ? params.path : "",
    input,
    lastEventId: params.lastEventId ?? inputValue?.lastEventId,
  };
}

/** The procedure a path names, without the router prefix (`chat.createChat` → `createChat`). */
export const procedure = (path: string): string => path.slice(path.lastIndexOf(".") + 1);

// ---------------------------------------------------------------------------------------------
// Requests and answers (core's rpc view, by tRPC id)

/** tRPC ids are numbers or strings; 1 and "1" are different ids. */
const keyOf = (id: unknown): string | undefined => (typeof id === "number" ? `#${id}` : typeof id === "string" ? `'${id}` : undefined);
export const idKey = keyOf;
/** A tRPC id as a map key, as sent: a Map tells 1 from "1", and takes -0 for 0, as keyOf does. */
const rawKey = (id: unknown): number | string | undefined => (typeof id === "number" || typeof id === "string" ? id : undefined);

const TRPC: RpcProtocol<Frame> = {
  name: "stagewise-chat",
  connections: WIRE,
  key: keyOf,
  outgoing: (_ev, f) => {
    if (f.kind !== "json") return [];
    // subscription.stop reuses the subscription's id: it ends a request, it is not one.
    return f.values
      .filter((v) => v.method !== "subscription.stop")
      .map((v): RpcOut => {
        const call = callOf(v);
        return { kind: "request", rawId: v.id, hasId: "id" in v, type: `${call.method} ${call.path}`, value: v };
      });
  },
  incoming: (_ev, f) => {
    if (f.kind !== "json") return [];
    return f.values.map((v): RpcIn => {
      const r = resultOf(v);
      if (r.kind === "reconnect" || r.kind === "other") return { kind: "event", value: v };
      // A subscription's started and data frames keep it open; a mutation's data is its one answer.
      return { kind: "response", rawId: v.id, hasId: "id" in v, final: r.kind === "data" ? dataIsFinal : r.kind !== "started", value: v };
    });
  },
};

/** A data answer is the last of a mutation (one function for every frame, not a closure each). */
const dataIsFinal = (req: RpcRequest): boolean => isMutation(req);

const RPC = rpcView(TRPC, { name: "", accept: isProtocolConnection });

/**
 * Requests and their answers. A mutation's request closes with its first answer only as far as the
 * check says: `response` gets `final` from the protocol (error or stopped); a data answer to a
 * mutation is its answer too, which the check reads off `req.type`.
 */
export function rpc(h: RpcHandlers) {
  return rpcHooks(RPC, h);
}

export const isMutation = (req: RpcRequest): boolean => req.type.startsWith("mutation ");
export const isSubscription = (req: RpcRequest): boolean => req.type.startsWith("subscription ");

/** The mutations the kit sent and their first answers (data or error), with the time between. */
export interface MutationHooks {
  answer?(req: RpcRequest, ev: FrameEvent, r: Result, ms: number): void;
  /**
   * Never answered: the connection closed, the kit gave up, or the transcript ended. `byKit`: the kit closed the
   * connection while still waiting (one of its limits cut it, or it was done), so nothing is said of the agent.
   */
  missing?(req: RpcRequest, why: string, byKit: boolean): void;
  request?(req: RpcRequest): void;
}

export function onMutations(h: MutationHooks) {
  const answered = new WeakSet<RpcRequest>();
  const r = rpc({
    only: isMutation,
    request: (req) => isMutation(req) && h.request?.(req),
    response: (ev, value, req) => {
      if (!req || !isMutation(req) || answered.has(req)) return;
      answered.add(req);
      h.answer?.(req, ev, resultOf(value), ev.t - req.frame.t);
    },
    unanswered: (req, why, ev) => {
      if (!isMutation(req) || answered.has(req)) return;
      answered.add(req);
      h.missing?.(
        req,
        req.timedOut !== undefined
          ? `no answer within ${req.timedOut} ms`
          : why === "end"
            ? "no answer before the run ended"
            : `the connection was ${why.replace(/-/g, " ")}${cutOf(ev)} before an answer`,
        req.timedOut === undefined && why === "closed-by-kit",
      );
    },
  });
  return { observe: r.observe, end: r.end };
}

/** " (<cause>)" when the close `ev` is the kit's cut at one of its limits (`cutByKit`); "" for any other close. */
export const cutOf = (ev: TranscriptEvent | undefined): string => {
  const cut = ev?.kind === "ws-close" ? cutByKit(ev) : undefined;
  return cut === undefined ? "" : ` (${cut})`;
};

/** `error.json.data` of an error answer. */
export function errorData(r: Result): Json | undefined {
  return r.kind === "error" && isObject(r.error?.data) ? r.error!.data : undefined;
}

/** "error CONFLICT/409 reason agent-working" or "data …". */
export function showResult(r: Result): string {
  if (r.kind === "error") {
    const d = errorData(r);
    return `error ${String(d?.code ?? r.error?.code ?? "?")}/${String(d?.httpStatus ?? "?")}${d?.reason !== undefined ? ` reason ${String(d.reason)}` : " (no reason)"}: ${excerpt(r.error?.message ?? "", 80)}`;
  }
  if (r.kind === "data") return `data ${excerpt(r.envelope.ok ? r.envelope.value : r.raw, 80)}`;
  return r.kind;
}

// ---------------------------------------------------------------------------------------------
// Chat subscriptions

const SNAPSHOT_TYPES = new Set(["chat-list", "chat-full-sync", "agent-state"]);

/** One data frame of a chat subscription. */
export interface ChatFrame {
  ev: FrameEvent;
  /** `result.id` as sent. */
  eventId: unknown;
  /** Its seq, or null when it is not a decimal event id. */
  seq: number | null;
  /** `data.json.id` (the tracked envelope's id). */
  innerId: unknown;
  update: ChatUpdate | undefined;
  /** The subscription it came on. */
  sub: ChatSub;
  /**
   * For a delta: the first delta with the same seq, on any subscription, when one came before it (the most recent
   * {@link SEQS_KEPT} seqs are remembered). Kept once for every rule that asks whether one id named one update.
   */
  earlier?: ChatFrame;
}

export interface ChatSub {
  conn: Conn;
  /** tRPC id of the subscribe request. */
  id: unknown;
  label: string | undefined;
  request: FrameEvent;
  lastEventId: unknown;
  started: boolean;
  phase: "snapshot" | "live" | "ended";
  snapshot: ChatFrame[];
  /** The snapshot's state (null until complete, or when it did not reduce). */
  snapshotState: ChatState | null;
  /** The reduced state now; null once an update did not apply (the reduction is broken from there). */
  state: ChatState | null;
  /** Why `state` is null. */
  broken?: { ev: FrameEvent; message: string };
  /** Seq of the last data frame with a valid id. */
  lastSeq: number | null;
  /** Reduced states by seq, the most recent few (for comparing a later snapshot with this one). */
  history: Map<number, ChatState>;
  /** The kit sent subscription.stop. */
  stoppedByClient: boolean;
  /** Order of the frames applied (the reducer's own counter, independent of the ids sent). */
  applied: number;
  /** The snapshot ended with its agent-state (else chat/snapshot-order failed on it). */
  snapshotComplete: boolean;
  /** Every snapshot frame carried the same id (else chat/seq-snapshot-head failed on it). */
  snapshotIdsUniform: boolean;
  /**
   * The last frame of turn content (an assistant message-added, a message-updated) that came while the state before it
   * was not working; undefined when the last came while working, or none came.
   */
  idleContent?: FrameEvent;
}

export interface ChatSubHooks {
  subscribe?(sub: ChatSub): void;
  /** The snapshot is complete: its frames (ids, updates) and the state they reduce to (or the violation). */
  snapshot?(sub: ChatSub, frames: ChatFrame[], reduced: ChatReduced | undefined): void;
  /** A frame after the snapshot: the state before, and the reducer's outcome (undefined: state already broken). */
  delta?(sub: ChatSub, f: ChatFrame, before: ChatState | null, reduced: ChatReduced | undefined): void;
  /** The server ended the subscription (`stopped` or an error) or closed its connection. */
  end?(sub: ChatSub, ev: TranscriptEvent, how: "stopped" | "error" | "closed"): void;
  /**
   * While true, `delta` has nothing to do with a well-formed update and is called only for a message-added without a
   * message (which it reads, and so fails on, as it would if always called). The hooks may set it as they go.
   */
  idle?: boolean;
}

/** Reduced states kept per subscription: at least this many of the most recent (at most twice as many). */
const HISTORY = 64;
/** Delta seqs remembered with their first frame: at least this many of the most recent (at most twice as many). */
export const SEQS_KEPT = 4096;

/**
 * Forgets the oldest entries of a map kept in insertion order, half at a time once it holds twice `keep`: one pass
 * now and then instead of an iterator on every insert.
 */
function trimOldest<K, V>(m: Map<K, V>, keep: number): void {
  if (m.size < 2 * keep) return;
  let drop = m.size - keep;
  for (const k of m.keys()) {
    if (drop-- <= 0) break;
    m.delete(k);
  }
}

const isChatSubscribe = (call: Call): boolean => call.method === "subscription" && procedure(call.path) === "getChatUpdates";

/** Every chat subscription, decoded and reduced once, before any check's hooks see the frame. */
const CHAT_SUBS = derivedView<{ h: ChatSubHooks }>("stagewise-chat/chat-subs", { kinds: ["ws-open", "ws-frame", "ws-close"], rank: -1 }, () => {
  const subs: { hooks: { h: ChatSubHooks }; guard: Guard }[] = [];
  // By connection, then by tRPC id as sent (a Map tells 1 from "1" as keyOf does): no key string per frame.
  const byConn = new Map<string, Map<number | string, ChatSub>>();
  const call = (fn: (h: ChatSubHooks) => void) => each(subs, (s) => fn(s.h));
  /** Every subscriber's delta hook: called for each frame of a stream, so without a closure per frame. */
  const callDelta = (sub: ChatSub, f: ChatFrame, before: ChatState | null, reduced: ChatReduced | undefined, malformed: boolean) => {
    for (const s of subs) {
      if (s.guard.dead || !s.hooks.h.delta || (s.hooks.h.idle === true && !malformed)) continue;
      try {
        s.hooks.h.delta(sub, f, before, reduced);
      } catch (e) {
        s.guard.fail(e);
      }
    }
  };

  const finishSnapshot = (sub: ChatSub) => {
    let state: ChatState = initialChatState();
    let reduced: ChatReduced | undefined;
    for (const f of sub.snapshot) {
      if (!f.update) {
        reduced = { ok: false, violation: { rule: "r6", clause: "snapshot", path: "", message: "a snapshot frame carries no update" } };
        break;
      }
      reduced = applyChatUpdate(state, f.update, sub.applied++);
      if (!reduced.ok) break;
      state = reduced.state;
    }
    sub.phase = "live";
    sub.snapshotComplete = sub.snapshot[sub.snapshot.length - 1]?.update?.type === "agent-state";
    sub.snapshotIdsUniform = sub.snapshot.every((f) => f.eventId === sub.snapshot[0]?.eventId);
    if (reduced?.ok) {
      sub.snapshotState = state;
      sub.state = state;
      const s = sub.snapshot[0]?.seq;
      if (s !== null && s !== undefined) sub.history.set(s, state);
    } else {
      sub.state = null;
      sub.broken = { ev: sub.snapshot[sub.snapshot.length - 1]?.ev ?? sub.request, message: reduced ? reduced.violation.message : "empty snapshot" };
    }
    call((h) => h.snapshot?.(sub, sub.snapshot, reduced));
  };

  const firstBySeq = new Map<number, ChatFrame>();
  const delta = (sub: ChatSub, f: ChatFrame) => {
    if (f.seq !== null && f.update) {
      const first = firstBySeq.get(f.seq);
      if (first) f.earlier = first;
      else {
        firstBySeq.set(f.seq, f);
        trimOldest(firstBySeq, SEQS_KEPT);
      }
    }
    const before = sub.state;
    let reduced: ChatReduced | undefined;
    if (before && f.update) {
      reduced = applyChatUpdate(before, f.update, sub.applied++);
      if (reduced.ok) {
        sub.state = reduced.state;
        if (f.seq !== null) {
          sub.history.set(f.seq, reduced.state);
          trimOldest(sub.history, HISTORY);
        }
      } else {
        sub.state = null;
        sub.broken = { ev: f.ev, message: reduced.violation.message };
      }
    }
    const u = f.update;
    const malformed = before !== null && u !== undefined && u.type === "message-added" && (u.message === null || u.message === undefined);
    if (before && u && ((u.type === "message-added" && !malformed && u.message.role === "assistant") || u.type === "message-updated"))
      sub.idleContent = before.isWorking ? undefined : f.ev;
    callDelta(sub, f, before, reduced, malformed);
  };

  const reads = WIRE.on({
    accept: isProtocolConnection,
    only: JSON_FRAMES,
    frame: (ev, f, c) => {
      if (f.kind !== "json") return;
      let mine = byConn.get(c.id);
      if (ev.direction === "out") {
        for (const v of f.values) {
          const k = rawKey(v.id);
          if (k === undefined) continue;
          if (v.method === "subscription.stop") {
            const s = mine?.get(k);
            if (s) s.stoppedByClient = true;
            continue;
          }
          const cl = callOf(v);
          if (!isChatSubscribe(cl)) continue;
          if (!mine) byConn.set(c.id, (mine = new Map()));
          const sub: ChatSub = {
            conn: c,
            id: v.id,
            label: ev.label,
            request: ev,
            lastEventId: cl.lastEventId,
            started: false,
            phase: "snapshot",
            snapshot: [],
            snapshotState: null,
            state: null,
            lastSeq: null,
            history: new Map(),
            stoppedByClient: false,
            applied: 0,
            snapshotComplete: false,
            snapshotIdsUniform: true,
          };
          mine.set(k, sub);
          call((h) => h.subscribe?.(sub));
        }
        return;
      }
      if (!mine) return;
      for (const v of f.values) {
        const k = rawKey(v.id);
        const sub = k === undefined ? undefined : mine.get(k);
        if (!sub || sub.phase === "ended") continue;
        const r = resultOf(v);
        if (r.kind === "started") sub.started = true;
        else if (r.kind === "stopped" || r.kind === "error") {
          if (sub.phase === "snapshot" && sub.snapshot.length) finishSnapshot(sub);
          sub.phase = "ended";
          call((h) => h.end?.(sub, ev, r.kind as "stopped" | "error"));
        } else if (r.kind === "data") {
          const inner = isObject(r.value) ? r.value : undefined;
          // Untracked frames carry the update itself (chat/seq-tracked's finding); read it all the same.
          const update = isObject(inner?.data)
            ? (inner!.data as unknown as ChatUpdate)
            : typeof inner?.type === "string"
              ? (inner as unknown as ChatUpdate)
              : undefined;
          const seq = parseEventId(r.eventId);
          const cf: ChatFrame = { ev, eventId: r.eventId, seq: typeof r.eventId === "string" ? seq : null, innerId: inner?.id, update, sub };
          if (cf.seq !== null) sub.lastSeq = cf.seq;
          const type = update?.type;
          if (sub.phase === "snapshot") {
            if (typeof type === "string" && SNAPSHOT_TYPES.has(type) && !(type === "chat-list" && sub.snapshot.some((s) => s.update?.type === "chat-list"))) {
              sub.snapshot.push(cf);
              if (type === "agent-state") finishSnapshot(sub);
              continue;
            }
            // The snapshot ended before this frame (it lacked its agent-state: chat/snapshot-order's).
            finishSnapshot(sub);
          }
          delta(sub, cf);
        }
      }
    },
    close: (ev, c) => {
      const mine = byConn.get(c.id);
      byConn.delete(c.id);
      for (const sub of mine?.values() ?? []) {
        if (sub.phase === "ended") continue;
        sub.phase = "ended";
        call((h) => h.end?.(sub, ev, "closed"));
      }
    },
  });
  return {
    reads,
    add(hooks, guard) {
      subs.push({ hooks, guard });
    },
  };
});

export function onChatSubs(h: ChatSubHooks): Listen {
  return on(CHAT_SUBS, { h });
}

/** Subscription A: the one the probes keep since the start (its label). */
export const isSubA = (sub: ChatSub): boolean => sub.label === "sub:chat:A";

export const SNAPSHOT_ORDER = "stagewise-chat/chat/snapshot-order";
export const SEQ_SNAPSHOT_HEAD = "stagewise-chat/chat/seq-snapshot-head";
export const REJECT_ERROR_SHAPE = "stagewise-chat/chat/reject-error-shape";

/**
 * Names the snapshot rule that already failed on this subscription when its frames cannot be judged
 * by a rule about what follows a snapshot (true: the caller skips the frame).
 */
export function snapshotKnockOn(t: Tally, sub: ChatSub, f: ChatFrame): boolean {
  if (!sub.snapshotComplete) t.knockOn(SNAPSHOT_ORDER, where(f.ev, sub.conn));
  else if (!sub.snapshotIdsUniform) t.knockOn(SEQ_SNAPSHOT_HEAD, where(f.ev, sub.conn));
  else return false;
  return true;
}

/**
 * Calls `fn` a few calls late, in order, a batch at a time (and the rest at `flush()`, from finish()): a rule that
 * validates every update and judges its failures at the end validates a run of updates with one validator, warm,
 * instead of in turn with the other schemas each frame is read against. Only for values never changed after (parsed
 * frames), and rules that tell nothing before the end.
 */
export function inBatches<A extends unknown[]>(fn: (...args: A) => void, size = 16): { add(...args: A): void; flush(): void } {
  const queue: A[] = [];
  const flush = () => {
    for (let i = 0; i < queue.length; i++) fn(...queue[i]!);
    queue.length = 0;
  };
  return {
    add(...args: A) {
      if (queue.push(args) >= size) flush();
    },
    flush,
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP (discovery)

const EXCHANGES = exchangeChecks({ name: "stagewise-chat/exchanges", errorBodyFromLines: () => false, brokenBodyIsAnswer: true });

/** Judges every answered discovery exchange; unanswered ones explain an incomplete. */
export function onInfo(t: Tally, label: string, judge: (x: Exchange) => void): Listen {
  return EXCHANGES.judgeExchanges(t, (x) => x.label === label, judge);
}

export { describe as describeExchange, evidenceOf as exchangeEvidence } from "../../../core/views/exchange.js";

// ---------------------------------------------------------------------------------------------
// Evidence

/** Evidence for a frame, with its payload as the excerpt. */
export function frameEvidence(ev: FrameEvent, extra: Partial<Evidence> = {}): Evidence {
  return at(ev, { excerpt: excerpt(ev.data), ...extra });
}

/** "main ← [sub:chat:A] (seq 12, at 40 ms)". */
export function where(ev: FrameEvent, c?: Conn, what?: string): string {
  const arrow = ev.direction === "out" ? "→" : "←";
  const label = ev.label ? ` [${ev.label}]` : "";
  return `${c?.label ?? ev.connection} ${arrow}${what ? ` ${what}` : ""}${label} (transcript seq ${ev.seq}, at ${Math.round(ev.t)} ms)`;
}

/** A subscription as it reads in a message: `sub:chat:A on main`. */
export const showSub = (sub: ChatSub): string => `${sub.label ?? `subscription ${String(sub.id)}`} on ${sub.conn.label}`;

/** A request as it reads in a message: `mutation chat.createChat [ok:create]`. */
export const showReq = (req: RpcRequest): string => `${req.type || "(no method)"}${req.label ? ` [${req.label}]` : ""}`;

export function evidenceOfReq(req: RpcRequest, extra: Partial<Evidence> = {}): Evidence {
  return frameEvidence(req.frame, extra);
}

/** The input a request carried (deserialized), or undefined. */
export function inputOf(req: RpcRequest): unknown {
  const c = callOf(req.value);
  return c.input?.ok ? c.input.value : undefined;
}

export { unanswered as unansweredExchange } from "../../../core/views/exchange.js";

// ---------------------------------------------------------------------------------------------
// Mutations and what subscription A saw around them

/** One delta of subscription A, with the state before it and after it (null: the reduction broke). */
export interface ADelta {
  f: ChatFrame;
  before: ChatState | null;
  after: ChatState | null;
}

/** A mutation, its answer, A's state when it was sent and A's deltas from its send to the end of its window. */
export interface Effect {
  req: RpcRequest;
  input: unknown;
  answer?: { ev: FrameEvent; r: Result; ms: number };
  /** Why no answer came. */
  missing?: string;
  /** A's state when the mutation was sent (null: not known). */
  aBefore: ChatState | null;
  deltas: ADelta[];
  /** A's state at the end of the window. */
  aAfter: ChatState | null;
  /** Where A's reduction broke before the mutation was sent (chat/update-applicable's finding): A's state is not known. */
  aBroken?: string;
  /** Where A last saw a turn's content while the agent said it was idle (chat/working-brackets-turn's finding). */
  idleStream?: string;
}

const MAX_KEPT = 10_000;

/**
 * The delta record every check's open windows keep: one object for one frame, however many checks keep it (they only
 * read it). Every check hears of a delta with the same frame and states, one after the other.
 */
let lastDelta: ADelta | undefined;
function sharedDelta(f: ChatFrame, before: ChatState | null, after: ChatState | null): ADelta {
  const d = lastDelta;
  if (d !== undefined && d.f === f && d.before === before && d.after === after) return d;
  return (lastDelta = { f, before, after });
}

/**
 * Follows the mutations `match` picks and A's deltas around them: a window opens when the mutation
 * is sent and closes `graceMs` after its answer (r2: an update may follow its result by up to 2 s)
 * or when the next mutation on the connection is sent, whichever comes first (`pastNext`: the next
 * mutation does not end it). `done` gets each closed window; windows still open at the end are
 * closed by `end()` (call it from finish()).
 */
export function mutationEffects(t: Tally, match: (req: RpcRequest) => boolean, done: (e: Effect) => void, opts: { graceMs?: number; pastNext?: boolean } = {}) {
  const grace = opts.graceMs ?? 2_000;
  let a: ChatSub | undefined;
  /** Where the server ended subscription A (nothing after it can be seen: trpc/subscription-stays-open's finding). */
  let aEnded: string | undefined;
  const open: Effect[] = [];
  const close = (e: Effect) => {
    open.splice(open.indexOf(e), 1);
    hooks.idle = open.length === 0;
    e.aAfter = a?.state ?? null;
    if (aEnded !== undefined) t.knockOn("stagewise-chat/trpc/subscription-stays-open", aEnded);
    else done(e);
  };
  const expire = (t: number) => {
    // Called for every delta: the list is copied (close() splices it) only when a window ends.
    let due = false;
    for (const e of open) if (e.answer && t - e.answer.ev.t > grace) due = true;
    if (due) for (const e of [...open]) if (e.answer && t - e.answer.ev.t > grace) close(e);
  };
  const m = onMutations({
    request: (req) => {
      expire(req.frame.t);
      // The next mutation on the same connection ends the windows before it (unless pastNext).
      if (!opts.pastNext) for (const e of [...open]) if (e.req.conn.id === req.conn.id && e.answer) close(e);
      if (!match(req)) return;
      const e: Effect = { req, input: inputOf(req), aBefore: a?.state ?? null, deltas: [], aAfter: null };
      if (a && a.state === null && a.broken) e.aBroken = where(a.broken.ev, a.conn);
      // The last turn content A saw came while A's isWorking was false: the probes could not tell a turn was running.
      if (a?.idleContent !== undefined) e.idleStream = where(a.idleContent, a.conn);
      open.push(e);
      hooks.idle = false;
    },
    answer: (req, ev, r, ms) => {
      const e = open.find((x) => x.req === req);
      if (e) e.answer = { ev, r, ms };
    },
    missing: (req, why, byKit) => {
      const e = open.find((x) => x.req === req);
      if (!e) return;
      // The kit closed the connection while waiting: neither the answer nor its effect can be judged.
      if (byKit) {
        open.splice(open.indexOf(e), 1);
        hooks.idle = open.length === 0;
        t.untestable(`${showReq(req)}: ${why}`);
        return;
      }
      e.missing = why;
      close(e);
    },
  });
  // A's deltas matter only while a window is open (A's idle content is the subscription's own record).
  const hooks: ChatSubHooks = {
    idle: true,
    snapshot: (sub) => {
      if (isSubA(sub)) {
        a = sub;
        aEnded = undefined;
      }
    },
    end: (sub, ev, how) => {
      if (sub === a && !sub.stoppedByClient && (how !== "closed" || (ev.kind === "ws-close" && ev.by === "server"))) aEnded = `${showSub(sub)} (${how})`;
    },
    delta: (sub, f, before) => {
      if (sub !== a) return;
      expire(f.ev.t);
      const u = f.update;
      // Read as ever, so a message-added without a message fails this check here, as it always did.
      if (before && u && u.type === "message-added") void u.message.role;
      if (!open.length) return;
      const d = sharedDelta(f, before, sub.state);
      for (const e of open) if (e.deltas.length < MAX_KEPT) e.deltas.push(d);
    },
  };
  return {
    observe: all(m.observe, onChatSubs(hooks)),
    end(): void {
      m.end();
      for (const e of [...open]) close(e);
    },
  };
}

/** The rejection reasons of §1: their tRPC code, JSON-RPC code and HTTP status. */
export const REASONS: Record<string, { code: string; json: number; http: number }> = {
  "chat-not-found": { code: "NOT_FOUND", json: -32004, http: 404 },
  "message-not-found": { code: "NOT_FOUND", json: -32004, http: 404 },
  "tool-call-not-found": { code: "NOT_FOUND", json: -32004, http: 404 },
  "agent-working": { code: "CONFLICT", json: -32009, http: 409 },
  "chat-not-active": { code: "CONFLICT", json: -32009, http: 409 },
  "tool-call-not-pending": { code: "CONFLICT", json: -32009, http: 409 },
  "rejected-by-agent": { code: "FORBIDDEN", json: -32003, http: 403 },
  "invalid-input": { code: "BAD_REQUEST", json: -32600, http: 400 },
};

/** A field of a mutation's input; a bare string input is the chat id (stagewise-internal-2025-08). */
export const inputField = (e: Effect, k: string): unknown =>
  isObject(e.input) ? e.input[k] : k === "chatId" && typeof e.input === "string" ? e.input : undefined;

/** Updates of a given type among a window's deltas. */
export const ofType = <T extends ChatUpdate["type"]>(deltas: ADelta[], type: T): (ADelta & { f: { update: Extract<ChatUpdate, { type: T }> } })[] =>
  deltas.filter((d) => d.f.update?.type === type) as never;

/** Evidence for an effect: its answer, or the request when none came. */
export const effectEvidence = (e: Effect, note?: string): Evidence => frameEvidence(e.answer?.ev ?? e.req.frame, note ? { note } : {});
