/**
 * What the mcp-chat checks share: the contract reference, a per-exchange view of the transcript
 * (request, head, end and — for JSON — the parsed body), the stream scope (which exchanges are
 * "streams", their events parsed once), SSE line classification and CORS header access.
 *
 * Everything here is incremental: an exchange's record lives from its request to its end, and a
 * stream keeps counters and the first sentinel, never its events.
 */
import { at, excerpt, kindsOf, tap, type CheckDef, type ContractRef, type Evidence, type Outcome, type Tap } from "../../../core/check.js";
import type { EventKind, TranscriptEvent } from "../../../core/transcript.js";
import { isStreamLabel, NOTE } from "../labels.js";

export const SEED = "002_f5cea501a704c7bf.txt";

/**
 * A CheckDef of this suite: full id, server side, and the seed reference as [section, quote].
 * When the probes stopped early, an incomplete outcome says so (the reason is a note event).
 */
export function serverCheck(def: Omit<CheckDef, "side" | "ref" | "id"> & { id: string; ref: [string, string] }): CheckDef {
  const [section, quote] = def.ref;
  const ref: ContractRef = { seed: SEED, section, quote };
  return {
    ...def,
    id: def.id,
    side: "server",
    ref,
    create(ctx) {
      const inner = def.create(ctx);
      let stopped: string | undefined;
      const innerKinds = inner.kinds ?? (inner.observe as Tap).kinds;
      return {
        // The wrapper reads notes too (the probes-stopped reason).
        ...(innerKinds ? { kinds: new Set<EventKind>([...innerKinds, "note"]) } : {}),
        observe(ev) {
          if (ev.kind === "note" && ev.name === NOTE.stopped) stopped = String(ev.value);
          inner.observe(ev);
        },
        finish() {
          const o = inner.finish();
          return stopped && o.verdict === "incomplete" ? { ...o, message: `${o.message} (the probes stopped early: ${stopped})` } : o;
        },
      };
    },
  };
}

type Ev<K extends TranscriptEvent["kind"]> = Extract<TranscriptEvent, { kind: K }>;
export type RequestEvent = Ev<"http-request">;
export type ResponseEvent = Ev<"http-response">;
export type BodyEndEvent = Ev<"body-end">;
export type ErrorEvent = Ev<"http-error">;
export type SseLineEvent = Ev<"sse-line">;
export type SseEventEvent = Ev<"sse-event">;
export type ChunkEvent = Ev<"body-chunk">;
export type NoteEvent = Ev<"note">;

/** Violations plus whether the rule was exercised (shared by every suite). */
import { Tally } from "../../../core/check.js";
export { dataValue, eventEvidence, eventWhere, is2xx, lineEvidence, lineWhere, mediaType, parseJson } from "../../../core/check-helpers.js";
import { is2xx, parseJson } from "../../../core/check-helpers.js";
export { Tally };

// ---------------------------------------------------------------------------------------------
// Exchanges

/** One finished exchange as the checks see it. */
export interface Exchange {
  id: string;
  label: string;
  method: string;
  path: string;
  /** The Origin the request carried. */
  origin: string | undefined;
  request: RequestEvent;
  response?: ResponseEvent;
  status?: number;
  /** Response headers (lower-case names), {} without a response. */
  headers: Record<string, string>;
  end?: BodyEndEvent;
  error?: ErrorEvent;
  /** Body text: every non-stream body; for stream labels only a non-2xx body (rebuilt from lines). */
  text?: string;
  /** Parsed body, when `text` is JSON. */
  json?: unknown;
  isJson: boolean;
}

/** A stream's non-2xx body (a JSON error) is rebuilt from its lines up to this size. */
const ERROR_BODY_CAP = 64 * 1024;

/**
 * Calls `done` once per exchange when it ends (body end or transport error). State: the exchanges
 * in flight only (the probes run serially, so one).
 */
export function onExchanges(done: (x: Exchange) => void): Tap {
  const open = new Map<string, Exchange & { parts?: string[]; size?: number }>();
  return tap(["http-request", "http-response", "sse-line", "http-error", "body-end"], (ev) => {
    switch (ev.kind) {
      case "http-request":
        open.set(ev.exchange, {
          id: ev.exchange,
          label: ev.label,
          method: ev.method,
          path: ev.path,
          origin: ev.headers["origin"],
          request: ev,
          headers: {},
          isJson: false,
        });
        return;
      case "http-response": {
        const x = open.get(ev.exchange);
        if (!x) return;
        x.response = ev;
        x.status = ev.status;
        x.headers = ev.headers;
        if (isStreamLabel(ev.label) && !is2xx(ev.status)) {
          x.parts = [];
          x.size = 0;
        }
        return;
      }
      case "sse-line": {
        const x = open.get(ev.exchange);
        if (!x?.parts || x.size! >= ERROR_BODY_CAP) return;
        x.parts.push(ev.line, ev.eol);
        x.size! += ev.line.length + ev.eol.length;
        return;
      }
      case "http-error":
      case "body-end": {
        const x = open.get(ev.exchange);
        if (!x) return;
        open.delete(ev.exchange);
        if (ev.kind === "http-error") x.error = ev;
        else {
          x.end = ev;
          const text = ev.text ?? x.parts?.join("");
          if (text !== undefined) {
            x.text = text;
            const parsed = parseJson(text);
            if (parsed.ok) {
              x.json = parsed.value;
              x.isJson = true;
            }
          }
        }
        delete x.parts;
        done(x);
        return;
      }
      default:
        return;
    }
  });
}

/**
 * Why an exchange cannot be judged, or undefined when it can: no response head, a body the kit
 * stopped reading (its own time or size limit), or a 429 the probes retried.
 */
export function unanswered(x: Exchange): string | undefined {
  if (x.status === undefined) return `${x.method} ${x.path} got no response (${x.error?.error ?? "no head"})`;
  if (x.status === 429) return `${x.method} ${x.path} was rate-limited (429)`;
  const reason = x.end?.reason;
  if (reason && reason !== "eof" && reason !== "error" && reason !== "close-timeout") {
    return `the kit stopped reading ${x.method} ${x.path} (${reason})`;
  }
  return undefined;
}

/**
 * The common shape of exchange-keyed checks: judge every answered exchange that `match`es, and
 * note unanswered ones as the reason the check may end incomplete.
 */
export function judgeExchanges(tally: Tally, match: (x: Exchange) => boolean, judge: (x: Exchange) => void): Tap {
  return onExchanges((x) => {
    if (!match(x)) return;
    const why = unanswered(x);
    if (why) tally.untestable(why);
    else judge(x);
  });
}

export const is4xx = (status: number | undefined): boolean => status !== undefined && status >= 400 && status < 500;

/** The last event of an exchange, for evidence. */
export function lastEvent(x: Exchange): TranscriptEvent {
  return x.end ?? x.error ?? x.response ?? x.request;
}

/** "GET /status → 200 application/json, 45 bytes" — how an exchange reads in a message. */
export function describe(x: Exchange): string {
  const what = `${x.method} ${x.path}`;
  if (x.status === undefined) return `${what} → no response (${x.error?.error ?? x.end?.reason ?? "unknown"})`;
  const type = x.headers["content-type"] ? ` ${x.headers["content-type"]}` : "";
  const bytes = x.end ? `, ${x.end.bytes} bytes` : "";
  const cut = x.end && x.end.reason !== "eof" ? `, body ended by ${x.end.reason}` : "";
  return `${what} → ${x.status}${type}${bytes}${cut}`;
}

/** Evidence for an exchange: its last event, and the body (or head) as the excerpt. */
export function evidenceOf(x: Exchange, extra: Partial<Evidence> = {}): Evidence {
  const body = x.text !== undefined ? excerpt(x.text) : undefined;
  return at(lastEvent(x), { ...(body !== undefined ? { excerpt: body } : {}), ...extra });
}


export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Names of the tools in a tools array (entries without a string name are skipped). */
export function toolNames(tools: unknown): string[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  return tools.flatMap((t) => (isObject(t) && typeof t.name === "string" ? [t.name] : []));
}

export function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((x) => sb.has(x));
}

/** Latest value of a note, by name. */
export function onNote(name: string, fn: (value: unknown, ev: NoteEvent) => void): Tap {
  return tap(["note"], (ev) => {
    if (ev.kind === "note" && ev.name === name) fn(ev.value, ev);
  });
}

/** Runs several observers on each event, in order. */
export function all(...observers: Tap[]): Tap {
  const fn: Tap = (ev) => {
    for (const o of observers) o(ev);
  };
  const kinds = kindsOf(...observers);
  return kinds ? Object.assign(fn, { kinds }) : fn;
}

// ---------------------------------------------------------------------------------------------
// Headers


/** Comma-separated header values as lower-case tokens. */
export function tokens(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
}

// ---------------------------------------------------------------------------------------------
// SSE payloads and lines

export type Terminal = "done" | "error";

export type Payload =
  /** `[DONE]`, or a data string starting with `[ERROR]` (its exact form is sentinel-format's). */
  | { kind: "terminal"; terminal: Terminal }
  /** Starts with "[" but is no sentinel: `[done]`, a JSON array... */
  | { kind: "bracket" }
  | { kind: "object"; value: Record<string, unknown>; type: unknown }
  | { kind: "not-object"; reason: string };

// Parsed once per event, shared by every check that looks at it; collected with the event.
const payloads = new WeakMap<object, Payload>();

export function payloadOf(ev: SseEventEvent): Payload {
  let p = payloads.get(ev);
  if (!p) {
    p = classifyPayload(ev.data);
    payloads.set(ev, p);
  }
  return p;
}

export function classifyPayload(data: string): Payload {
  if (data === "[DONE]") return { kind: "terminal", terminal: "done" };
  if (data.startsWith("[ERROR]")) return { kind: "terminal", terminal: "error" };
  if (data.startsWith("[")) return { kind: "bracket" };
  const parsed = parseJson(data);
  if (!parsed.ok) return { kind: "not-object", reason: `not JSON (${parsed.error})` };
  if (!isObject(parsed.value)) return { kind: "not-object", reason: `JSON ${Array.isArray(parsed.value) ? "array" : typeof parsed.value}, not an object` };
  return { kind: "object", value: parsed.value, type: parsed.value.type };
}

export type LineKind = "blank" | "comment" | "data" | "other";

/** A raw line as WHATWG SSE reads it: blank (dispatch), comment, a `data` field, or anything else. */
export function lineKind(line: string): LineKind {
  if (line === "") return "blank";
  if (line.startsWith(":")) return "comment";
  if (line === "data" || line.startsWith("data:")) return "data";
  return "other";
}


// ---------------------------------------------------------------------------------------------
// Streams

/** A stream in progress: a 2xx response to a stream-labelled request. */
export interface Stream {
  exchange: string;
  label: string;
  request: RequestEvent;
  head: ResponseEvent;
  /** The first terminal sentinel, once seen; events after it are the stream's tail. */
  terminal?: { event: SseEventEvent; kind: Terminal };
  /** An event of a type the profile counts as an error (budget-master `{type:"error"}`) came first. */
  errorEvent?: SseEventEvent;
  /** Events dispatched so far. */
  events: number;
}

export type Phase = "before" | "terminal" | "after";

export interface StreamHandlers<S> {
  /** Per-stream state, created at the response head. */
  start(s: Stream): S;
  event?(ev: SseEventEvent, p: Payload, phase: Phase, s: Stream, st: S): void;
  line?(ev: SseLineEvent, s: Stream, st: S): void;
  chunk?(ev: ChunkEvent, s: Stream, st: S): void;
  /** The body ended (eof, timeout, reset...). */
  end?(ev: BodyEndEvent, s: Stream, st: S): void;
}

export interface StreamOptions {
  /** Event types that mark the stream as failed (profile param errorEventTypes). */
  errorEventTypes?: readonly string[];
}

/**
 * Feeds the events of every stream (§4: the happy path and the disconnected probe, 2xx only —
 * a 4xx JSON answer is no stream) to handlers with per-stream state. A [DONE] that follows a
 * profile error event counts as an error terminal.
 */
export function onStreams<S>(h: StreamHandlers<S>, opts: StreamOptions = {}): Tap {
  const errorTypes = new Set(opts.errorEventTypes ?? []);
  const pending = new Map<string, RequestEvent>();
  const live = new Map<string, { s: Stream; st: S }>();
  // Raw lines and chunks only for the handlers that read them: they are most of a long stream.
  const kinds: EventKind[] = ["http-request", "http-response", "http-error", "sse-event", "body-end"];
  if (h.line) kinds.push("sse-line");
  if (h.chunk) kinds.push("body-chunk");
  return tap(kinds, (ev) => {
    switch (ev.kind) {
      case "http-request":
        if (isStreamLabel(ev.label)) pending.set(ev.exchange, ev);
        return;
      case "http-response": {
        const request = pending.get(ev.exchange);
        if (!request) return;
        pending.delete(ev.exchange);
        if (!is2xx(ev.status)) return;
        const s: Stream = { exchange: ev.exchange, label: ev.label, request, head: ev, events: 0 };
        live.set(ev.exchange, { s, st: h.start(s) });
        return;
      }
      case "http-error":
        pending.delete(ev.exchange);
        return;
      case "sse-event": {
        const l = live.get(ev.exchange);
        if (!l) return;
        const { s, st } = l;
        s.events++;
        const p = payloadOf(ev);
        let phase: Phase = s.terminal ? "after" : "before";
        if (phase === "before") {
          if (p.kind === "terminal") {
            s.terminal = { event: ev, kind: p.terminal === "done" && !s.errorEvent ? "done" : "error" };
            phase = "terminal";
          } else if (p.kind === "object" && typeof p.type === "string" && errorTypes.has(p.type) && !s.errorEvent) {
            s.errorEvent = ev;
          }
        }
        h.event?.(ev, p, phase, s, st);
        return;
      }
      case "sse-line": {
        const l = live.get(ev.exchange);
        if (l) h.line?.(ev, l.s, l.st);
        return;
      }
      case "body-chunk": {
        const l = live.get(ev.exchange);
        if (l) h.chunk?.(ev, l.s, l.st);
        return;
      }
      case "body-end": {
        const l = live.get(ev.exchange);
        if (!l) return;
        live.delete(ev.exchange);
        h.end?.(ev, l.s, l.st);
        return;
      }
      default:
        return;
    }
  });
}





// ---------------------------------------------------------------------------------------------
// Connection state as /status and /connect report it

export interface StatusView {
  connected: boolean;
  serverId: string | null;
  /** Tool names, sorted. */
  tools: string[];
}

/** A /status body reduced to what state checks compare; undefined when it says nothing clear. */
export function statusView(x: Exchange): StatusView | undefined {
  if (x.status !== 200 || !isObject(x.json) || typeof x.json.connected !== "boolean") return undefined;
  const id = x.json.server_id;
  return {
    connected: x.json.connected,
    serverId: typeof id === "string" ? id : null,
    tools: (toolNames(x.json.tools) ?? []).sort(),
  };
}

export function sameStatus(a: StatusView, b: StatusView): boolean {
  return a.connected === b.connected && a.serverId === b.serverId && sameSet(a.tools, b.tools);
}

export function showStatus(s: StatusView): string {
  return s.connected ? `connected to ${JSON.stringify(s.serverId)} with tools [${s.tools.join(", ")}]` : "disconnected";
}

/** The server id a POST /connect/{id} asked for. */
export function connectId(x: Exchange): string {
  const raw = x.path.split("?")[0]!.replace(/^\/connect\//, "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A 200 connect answer: the id asked for and the tool names it returned (undefined if no array). */
export function connectView(x: Exchange): { id: string; tools: string[] | undefined } | undefined {
  if (x.status !== 200 || !isObject(x.json)) return undefined;
  return { id: connectId(x), tools: toolNames(x.json.tools) };
}

// ---------------------------------------------------------------------------------------------
// Tool events

export interface ToolEvent {
  kind: "start" | "end";
  id: string;
  name: unknown;
  value: Record<string, unknown>;
}

/** A tool_start/tool_end with a string id (others are events/schema's problem), else undefined. */
export function toolEvent(p: Payload): ToolEvent | undefined {
  if (p.kind !== "object" || (p.type !== "tool_start" && p.type !== "tool_end")) return undefined;
  const id = p.value.id;
  if (typeof id !== "string") return undefined;
  return { kind: p.type === "tool_start" ? "start" : "end", id, name: p.value.name, value: p.value };
}

export const isTextEvent = (p: Payload): boolean => p.kind === "object" && p.type === "text";
export const isToolEvent = (p: Payload): boolean => p.kind === "object" && (p.type === "tool_start" || p.type === "tool_end");
