/**
 * What the pi-web checks share: the contract reference, a view of the WebSocket traffic per
 * connection (labels, frames parsed once), command ↔ response correlation, and the run state of
 * each client connection. Everything is incremental: a connection's record lives from its open to
 * its close; a command's from its send to its answer; nothing keeps the stream of events.
 */
import { at, excerpt, notApplicable, Tally, type CheckDef, type Evidence } from "../../../core/checks/check.js";
import { serverCheckMaker, type CheckSpec, type MakeCheck } from "../../../core/checks/define-check.js";
import { jsonEqual as equalJson, MAX_JSON_DEPTH, tooDeep } from "../../../core/json-depth.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { frameJson, frameValues, type WsFrameEvent } from "../../../core/transport/ws-exchange.js";
import { all, on, tap, type Listen } from "../../../core/views/hooks.js";
import { rpcHooks, rpcView, type RpcIn, type RpcMatch, type RpcProtocol, type RpcRequest } from "../../../core/views/rpc.js";
import { derivedView } from "../../../core/views/router.js";
import { wsConnectionView, type Conn } from "../../../core/views/ws-connection.js";
import { isClientConnection, NOTE, type Topic } from "../labels.js";

export const SEED = "004_88f3c17269c3c25a.txt";

export { all, onNote } from "../../../core/views/hooks.js";

/**
 * A CheckDef of this suite: full id, server side, and the seed reference as [section, quote].
 * When the probes stopped early, an incomplete outcome says so (the reason is a note event).
 * `notApplicableWhen` names the behaviours this rule is about: when the probes report that the
 * target legally never showed one of them (NOTE.notApplicable), a rule never exercised is skipped
 * with that reason rather than left incomplete.
 */
export const serverCheck: MakeCheck<CheckSpec & { notApplicableWhen?: Topic[] }> = serverCheckMaker(SEED, {
  stopped: NOTE.stopped,
  notApplicable: NOTE.notApplicable,
  reasons: { [NOTE.runsSkipped]: (v) => `runs were skipped: ${String(v)}` },
});

export { notApplicable, Tally };

type Ev<K extends TranscriptEvent["kind"]> = Extract<TranscriptEvent, { kind: K }>;
export type FrameEvent = WsFrameEvent;
export type OpenEvent = Ev<"ws-open">;
export type RejectEvent = Ev<"ws-reject">;
export type CloseEvent = Ev<"ws-close">;
export type NoteEvent = Ev<"note">;
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Messages

export type Msg =
  | { kind: "object"; value: Json; type: unknown }
  | { kind: "not-object"; reason: string };

/**
 * The frame being routed and what it carries. Every check reads that frame, a few dozen times, so
 * it is classified once, when the connection view decodes it; a rule that looks back at an older
 * frame (evidence, a command's frame) has it classified again from its parse, which core caches.
 */
let routed: object | undefined;
let routedMsg: Msg | undefined;
let routedParts: Msg[] | undefined;

/**
 * The messages a frame carries, for checks that follow the conversation: the frame's own message,
 * or — for a frame of newline-joined JSON objects, which framing/json-object-frames fails — one
 * per line, so one framing fault does not blind every other rule.
 */
export function messagesOf(ev: FrameEvent): Msg[] {
  if (ev === routed) return (routedParts ??= partsOf(ev, routedMsg as Msg));
  return partsOf(ev, classify(ev));
}

function partsOf(ev: FrameEvent, whole: Msg): Msg[] {
  if (whole.kind === "object" || frameJson(ev).ok) return [whole];
  const values = frameValues(ev);
  return values.length > 1 ? values.map((v) => (isObject(v) ? { kind: "object" as const, value: v, type: v.type } : { kind: "not-object" as const, reason: "not an object" })) : [whole];
}

/** A frame's payload classified (once for the frame being routed, shared by every check that reads it). */
export function messageOf(ev: FrameEvent): Msg {
  return ev === routed ? (routedMsg as Msg) : classify(ev);
}

function classify(ev: FrameEvent, c?: Conn): Msg {
  const p = frameJson(ev, ev.direction === "in" ? c?.json : undefined);
  if (!p.ok) return { kind: "not-object", reason: `not JSON (${p.error})` };
  if (!isObject(p.value)) return { kind: "not-object", reason: `JSON ${p.value === null ? "null" : Array.isArray(p.value) ? "array" : typeof p.value}, not an object` };
  return { kind: "object", value: p.value, type: p.value.type };
}

/** The connection view's decoder: the frame now routed to every check. */
function route(ev: FrameEvent, c: Conn): Msg {
  if (ev !== routed) {
    routedMsg = classify(ev, c);
    routedParts = undefined;
    routed = ev;
  }
  return routedMsg as Msg;
}

// ---------------------------------------------------------------------------------------------
// Connections

export type { Conn };

export interface WireHandlers {
  open?(ev: OpenEvent, c: Conn): void;
  reject?(ev: RejectEvent): void;
  /** A message the kit sent. */
  out?(ev: FrameEvent, m: Msg, c: Conn): void;
  /** A message the server sent (each of a batched frame's messages in turn). */
  in?(ev: FrameEvent, m: Msg, c: Conn): void;
  /** A frame the server sent, as framed (before any batch is split). */
  frame?(ev: FrameEvent, m: Msg, c: Conn): void;
  close?(ev: CloseEvent, c: Conn): void;
  note?(ev: NoteEvent): void;
}

/** This suite's connections, each frame's message classified once for every check. */
const WIRE = wsConnectionView<Msg>({ name: "pi-web/connections", decode: route });

/**
 * Feeds WebSocket traffic to handlers with the connection it belongs to. `clientsOnly` keeps the
 * two long-lived clients (main, passive) and drops the upgrade probes.
 */
export function onWire(h: WireHandlers, opts: { clientsOnly?: boolean } = {}): Listen {
  const { out, frame, close } = h;
  const inbound = h.in;
  const wire = WIRE.on({
    ...(opts.clientsOnly ? { accept: (label: string | undefined) => isClientConnection(label) } : {}),
    ...(h.open ? { open: h.open } : {}),
    ...(h.reject ? { reject: h.reject } : {}),
    ...(out || frame || inbound
      ? {
          frame: (ev: FrameEvent, m: Msg, c: Conn) => {
            if (ev.direction === "out") {
              out?.(ev, m, c);
              return;
            }
            frame?.(ev, m, c);
            if (inbound) for (const part of messagesOf(ev)) inbound(ev, part, c);
          },
        }
      : {}),
    ...(close ? { close } : {}),
  });
  const note = h.note;
  return note ? all(wire, tap(["note"], (ev) => ev.kind === "note" && note(ev))) : wire;
}

/** Server messages of a known-shaped kind: an object with a string `type`. */
export function onServerMessages(fn: (ev: FrameEvent, type: string, value: Json, c: Conn) => void, opts: { clientsOnly?: boolean } = { clientsOnly: true }) {
  return onWire(
    {
      in: (ev, m, c) => {
        if (m.kind === "object" && typeof m.type === "string") fn(ev, m.type, m.value, c);
      },
    },
    opts,
  );
}

// ---------------------------------------------------------------------------------------------
// Commands and responses

export const COMMANDS = ["prompt", "abort", "clear_queue", "get_state", "get_messages", "list_sessions", "switch_session", "new_session", "get_context_usage"] as const;
export const QUERY_COMMANDS: ReadonlySet<string> = new Set(["get_state", "get_messages", "list_sessions", "get_context_usage"]);
export const isKnownCommand = (t: unknown): boolean => typeof t === "string" && (COMMANDS as readonly string[]).includes(t);

/** A command the kit sent, and what answered it so far (core's request record). */
export type Command = RpcRequest;

/** How a response relates to the commands of its connection. */
export type Match = RpcMatch;

export interface RpcHandlers {
  command?(cmd: Command): void;
  /** An extension_ui_response the kit sent. */
  reply?(ev: FrameEvent, value: Json, c: Conn): void;
  response?(ev: FrameEvent, resp: Json, cmd: Command | undefined, how: Match, c: Conn): void;
  /** The command got no answer: the connection closed (by whom), or the transcript ended. */
  unanswered?(cmd: Command, why: "closed-by-server" | "closed-by-kit" | "end", ev: TranscriptEvent | undefined): void;
  /** Any other server message (events), for checks that also follow them. */
  event?(ev: FrameEvent, type: string, value: Json, c: Conn): void;
  open?(ev: OpenEvent, c: Conn): void;
  close?(ev: CloseEvent, c: Conn): void;
}

/**
 * pi-web's commands and responses as core's correlation reads them: a command is any object the
 * kit sends except an extension_ui_response (a reply); a `response` answers by id, or — when the
 * server mangles the id — by the `command` it names, as the kit's client does; each of a batched
 * frame's messages counts on its own.
 */
const PI_RPC: RpcProtocol<Msg> = {
  name: "pi-web",
  connections: WIRE,
  key: (id) => (typeof id === "string" ? id : undefined),
  matchByType: true,
  outgoing: (_ev, m) => {
    if (m.kind !== "object") return [];
    const v = m.value;
    if (v.type === "extension_ui_response") return [{ kind: "reply", rawId: v.id, value: v }];
    return [{ kind: "request", rawId: v.id, hasId: "id" in v, type: typeof v.type === "string" ? v.type : "", value: v }];
  },
  incoming: (ev) => {
    // Every server frame passes here: a plain loop, one array.
    const out: RpcIn[] = [];
    for (const m of messagesOf(ev)) {
      if (m.kind !== "object") continue;
      const v = m.value;
      if (m.type !== "response") {
        if (typeof m.type === "string") out.push({ kind: "event", type: m.type, value: v });
      } else out.push({ kind: "response", rawId: v.id, hasId: "id" in v, ...(typeof v.command === "string" ? { type: v.command } : {}), final: true, value: v });
    }
    return out;
  },
};

/** The command ↔ response views of this suite, one per connection scope, whatever the number of checks. */
const RPC_CLIENTS = rpcView(PI_RPC, { name: "clients", accept: isClientConnection });
const RPC_ALL = rpcView(PI_RPC, { name: "" });

/**
 * Correlates commands and responses per connection (core's rpc view). Call `end()` from finish()
 * to hear of the commands still unanswered at the end of the transcript.
 */
export function rpc(h: RpcHandlers, opts: { clientsOnly?: boolean } = { clientsOnly: true }) {
  const event = h.event;
  return rpcHooks(opts.clientsOnly ? RPC_CLIENTS : RPC_ALL, {
    request: h.command,
    reply: h.reply,
    response: h.response,
    unanswered: h.unanswered,
    event: event && ((ev, value, c, type) => type !== undefined && event(ev, type, value, c)),
    open: h.open,
    close: h.close,
  });
}

/** The rule that fails when a command's answer never came. */
export const RESPONSE_PER_COMMAND = "pi-web/rpc/response-per-command";

/**
 * Whether rpc/response-per-command fails on this unanswered command (the server closed the socket,
 * or the kit's request timeout ran out), so a rule that needed the answer names that failure
 * instead of judging nothing. The kit closing the socket first is no one's failure.
 */
export const answerMissed = (cmd: Command, why: "closed-by-server" | "closed-by-kit" | "end", ev?: TranscriptEvent): boolean =>
  (why === "closed-by-server" && !shutDown(ev)) || cmd.timedOut !== undefined;

/** Close codes that say the server is going away (1001) or restarting (1012), not failing one command. */
const SHUTDOWN_CODES: ReadonlySet<number> = new Set([1001, 1012]);

/** The server closed the socket because it was shutting down: what it had not answered was cut off, no broken rule. */
export const shutDown = (ev: TranscriptEvent | undefined): ev is Extract<TranscriptEvent, { kind: "ws-close" }> =>
  ev?.kind === "ws-close" && SHUTDOWN_CODES.has(ev.code ?? 0);

/** Names rpc/response-per-command as the reason a rule that needed `cmd`'s answer judged nothing. */
export function knockOnUnanswered(t: Tally, cmd: Command): void {
  t.knockOn(RESPONSE_PER_COMMAND, where(cmd.frame, cmd.conn));
}

// ---------------------------------------------------------------------------------------------
// Evidence

/** Evidence for a frame, with its payload as the excerpt. */
export function frameEvidence(ev: FrameEvent, extra: Partial<Evidence> = {}): Evidence {
  return at(ev, { excerpt: excerpt(ev.data), ...extra });
}

/** "main → get_state [state:initial] (seq 12, at 40 ms)". */
export function where(ev: FrameEvent, c?: Conn, what?: string): string {
  const arrow = ev.direction === "out" ? "→" : "←";
  const m = messageOf(ev);
  const w = what ?? (m.kind === "object" ? (typeof m.type === "string" ? m.type : "(no type)") : "frame");
  const label = ev.label ? ` [${ev.label}]` : "";
  return `${c?.label ?? ev.connection} ${arrow} ${w}${label} (seq ${ev.seq}, at ${Math.round(ev.t)} ms)`;
}

/** A command as it reads in a message: `get_state [state:initial]`. */
export function showCommand(cmd: Command): string {
  return `${cmd.type || "(typeless)"}${cmd.label ? ` [${cmd.label}]` : ""}`;
}

// ---------------------------------------------------------------------------------------------
// Values

/** Deep equality of JSON values (key order ignored). Any depth. */
export const jsonEqual = (a: unknown, b: unknown): boolean => a === b || equalJson(a, b);

/**
 * The first difference between two JSON values, as "pointer: a vs b", or undefined. It follows the values
 * MAX_JSON_DEPTH levels down: a difference below that is reported as the values nesting too deep to compare.
 */
export function jsonDiff(a: unknown, b: unknown, path = "", depth = 0): string | undefined {
  if (jsonEqual(a, b)) return undefined;
  if (depth >= MAX_JSON_DEPTH) return `${path || "/"}: ${tooDeep()} to compare`;
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const d = jsonDiff(a[k], b[k], `${path}/${k}`, depth + 1);
      if (d) return d;
    }
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path || "/"}: ${a.length} item(s) vs ${b.length}`;
    for (let i = 0; i < a.length; i++) {
      const d = jsonDiff(a[i], b[i], `${path}/${i}`, depth + 1);
      if (d) return d;
    }
  }
  return `${path || "/"}: ${excerpt(a, 60)} vs ${excerpt(b, 60)}`;
}

/** Text of a message's content: a string, or the text parts joined. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p) => (isObject(p) && p.type === "text" && typeof p.text === "string" ? p.text : "")).join("");
}

/** The text of a message's content parts, in order (first text part first). */
export function firstText(content: unknown): string | undefined {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return undefined;
  const t = content.find((p) => isObject(p) && p.type === "text");
  return isObject(t) && typeof t.text === "string" ? t.text : undefined;
}

/** toolCall parts of an assistant message's content. */
export function toolCalls(message: unknown): Json[] {
  if (!isObject(message) || !Array.isArray(message.content)) return [];
  return message.content.filter((p): p is Json => isObject(p) && p.type === "toolCall");
}

// ---------------------------------------------------------------------------------------------
// Runs

/** What a connection has seen of runs so far. */
export interface RunView {
  /** Between agent_start and agent_end (or, where the profile says so, session_changed). */
  open: boolean;
  /** agent_start / agent_end events seen. */
  starts: number;
  ends: number;
  /** Counts every agent_start and agent_end: equal values mean "nothing happened in between". */
  epoch: number;
  /** The last agent_end's messages, and the epoch just after it. */
  lastEnd?: { ev: FrameEvent; messages: unknown; epoch: number };
}

/**
 * Tracks run state per client connection from agent_start / agent_end. Call `view(conn)` in
 * handlers; the view sees each event before any check's hooks do.
 */
type RunsSub = { views?: Map<string, RunView> };

/** Who is running, per client connection: one record for every check, updated before their hooks run. */
const RUNS = derivedView<RunsSub>("pi-web/runs", { kinds: ["ws-open", "ws-reject", "ws-frame", "ws-close"], rank: -1 }, () => {
  const views = new Map<string, RunView>();
  return {
    reads: onServerMessages((ev, type, value, c) => {
      const v = runView(views, c.id);
      if (type === "agent_start") {
        v.open = true;
        v.starts++;
        v.epoch++;
      } else if (type === "agent_end") {
        v.open = false;
        v.ends++;
        v.epoch++;
        v.lastEnd = { ev, messages: value.messages, epoch: v.epoch };
      }
    }),
    add(sub) {
      sub.views = views;
    },
  };
});

function runView(views: Map<string, RunView>, conn: string): RunView {
  let v = views.get(conn);
  if (!v) views.set(conn, (v = { open: false, starts: 0, ends: 0, epoch: 0 }));
  return v;
}

export function runViews() {
  const sub: RunsSub = {};
  const idle = new Map<string, RunView>();
  return { observe: on(RUNS, sub), view: (conn: string): RunView => runView(sub.views ?? idle, conn) };
}

/**
 * An answer that contradicts the run state the kit saw when it sent its command may have raced the
 * run's edge: the server's run ended (or a new one began) before it answered, and the event saying
 * so was still on its way. Such an answer is judged by what its connection shows next: the edge
 * itself (`agent_end` of a run seen open, `agent_start` after a run seen ended), close behind the
 * answer, means it raced and cannot be judged; an event of a run still producing (a message or tool
 * step, a new turn), or an edge long after, means the answer contradicted the run as it was. A run's
 * closing events (message_end, turn_end) decide nothing, since a server may change its state before
 * it sends them; a close or the end of the transcript leaves the contradiction standing.
 */
export class EdgeRaces {
  private readonly waits = new Map<string, { edge: "agent_start" | "agent_end"; at: number; judge: (raced: boolean) => void }[]>();

  /** Holds the judgement of an answer read at `at` on `conn` until the connection shows whether it raced `edge`. */
  hold(conn: string, edge: "agent_start" | "agent_end", at: number, judge: (raced: boolean) => void): void {
    const list = this.waits.get(conn);
    if (list) list.push({ edge, at, judge });
    else this.waits.set(conn, [{ edge, at, judge }]);
  }

  /** A server event on `conn`, read at `t`. */
  event(conn: string, type: string, t: number): void {
    const list = this.waits.get(conn);
    if (!list) return;
    const left = list.filter((w) => {
      if (type === w.edge) w.judge(t - w.at <= RACE_WINDOW_MS);
      else if (w.edge === "agent_end" && RUN_PROGRESS.has(type)) w.judge(false);
      else return true;
      return false;
    });
    if (left.length) this.waits.set(conn, left);
    else this.waits.delete(conn);
  }

  /**
   * The kit sent a command of `type` on `conn`: a run that starts after a prompt of its own is its
   * doing, no edge the answer could have raced, so an answer waiting for an `agent_start` stands.
   */
  command(conn: string, type: string): void {
    if (!RUN_STARTERS.has(type)) return;
    const list = this.waits.get(conn);
    if (!list) return;
    const left = list.filter((w) => {
      if (w.edge !== "agent_start") return true;
      w.judge(false);
      return false;
    });
    if (left.length) this.waits.set(conn, left);
    else this.waits.delete(conn);
  }

  /** The connection closed: what waits on it stands. */
  close(conn: string): void {
    const list = this.waits.get(conn);
    this.waits.delete(conn);
    for (const w of list ?? []) w.judge(false);
  }

  /** The transcript ended. */
  end(): void {
    for (const conn of [...this.waits.keys()]) this.close(conn);
  }
}

/** Commands with which the kit itself may start a run. */
const RUN_STARTERS: ReadonlySet<string> = new Set(["prompt", "steer", "follow_up"]);

/** How soon after the answer (ms) the edge must follow for the two to have crossed on the wire. */
const RACE_WINDOW_MS = 1000;

/** Events only a run still producing sends. */
const RUN_PROGRESS: ReadonlySet<string> = new Set(["message_start", "message_update", "tool_execution_start", "tool_execution_update", "turn_start"]);
