/**
 * The transcript: the ordered record of what crossed the wire.
 *
 * Events are pushed through a {@link TranscriptBus} to observers (checks) as they happen, and
 * optionally written as JSON Lines. Nothing here keeps the whole stream: a consumer that wants
 * history keeps it itself, so memory does not grow with stream length.
 */

export type Direction = "in" | "out";

interface Base {
  /** Monotonic sequence number within one run, assigned by the bus. */
  seq: number;
  /**
   * Milliseconds since the run started (monotonic clock), assigned by the bus. The lines and
   * events read from one body chunk carry the chunk's time.
   */
  t: number;
  /** The probe (server side) or the traffic source (client side: "client") that produced it. */
  probe: string;
}

/** Identifies one HTTP exchange (request + response) inside a run. */
interface ExchangeRef {
  exchange: string;
  /** Semantic name the probe gave the exchange, e.g. "status-after-connect". Checks key on it. */
  label: string;
}

export type TranscriptEvent =
  | (Base & { kind: "probe-start"; description?: string })
  | (Base & { kind: "probe-end"; error?: string })
  | (Base &
      ExchangeRef & {
        kind: "http-request";
        method: string;
        url: string;
        /** Path plus query, as sent. */
        path: string;
        /** Header names lower-cased. */
        headers: Record<string, string>;
        body?: string;
        /** Extra facts the sender knew (the mock records its state here for client checks). */
        meta?: Record<string, unknown>;
      })
  | (Base &
      ExchangeRef & {
        kind: "http-response";
        status: number;
        /** Header names lower-cased; repeated headers joined with ", ". */
        headers: Record<string, string>;
      })
  /** The exchange failed before a response head arrived (refused, reset, timeout). */
  | (Base & ExchangeRef & { kind: "http-error"; error: string; code?: string })
  /** One chunk of response body exactly as it was read from the socket. */
  | (Base & ExchangeRef & { kind: "body-chunk"; index: number; bytes: Uint8Array })
  | (Base &
      ExchangeRef & {
        kind: "body-end";
        reason: BodyEndReason;
        /** Total body bytes read. */
        bytes: number;
        /** The body as UTF-8 text, for non-stream exchanges only (whole, up to the exchange's byte limit). */
        text?: string;
        error?: string;
      })
  /**
   * One raw SSE line as decoded, with its terminator ("" = the body ended inside the line). A
   * leading BOM is dropped by the decode, as WHATWG parsing does; body-chunk still carries it. A
   * line ended by a CR that ends a chunk is recorded when the next chunk (or the end) shows
   * whether an LF completes a CRLF; the event that CR dispatched is recorded at once, before it.
   */
  | (Base &
      ExchangeRef & {
        kind: "sse-line";
        lineNo: number;
        line: string;
        eol: "\n" | "\r\n" | "\r" | "";
        /** Body chunk index where the line began / where its terminator arrived. */
        chunkStart: number;
        chunkEnd: number;
      })
  /** One SSE event as a browser's EventSource dispatches it (WHATWG event-stream parsing). */
  | (Base &
      ExchangeRef & {
        kind: "sse-event";
        index: number;
        data: string;
        /** The event type, when not the default "message". */
        event?: string;
        /** The last event ID, when non-empty: it persists from event to event, as lastEventId does. */
        id?: string;
        /** Body chunk index in which the event was dispatched. */
        chunk: number;
      })
  | (Base & {
      kind: "ws-open";
      connection: string;
      url: string;
      /** Request headers of the upgrade (names lower-cased). */
      headers?: Record<string, string>;
      /** Semantic name the probe gave the connection, e.g. "main". Checks key on it. */
      label?: string;
      /** Response headers of the 101 (names lower-cased). */
      responseHeaders?: Record<string, string>;
    })
  /**
   * The upgrade did not succeed: the server answered with another HTTP status than 101 (`status`,
   * its headers and the start of its body), or the connection failed before a 101 (`error`, `code`).
   */
  | (Base & {
      kind: "ws-reject";
      connection: string;
      url: string;
      label?: string;
      /** Request headers of the upgrade (names lower-cased). */
      headers?: Record<string, string>;
      status?: number;
      responseHeaders?: Record<string, string>;
      /** Start of the response body (capped), when the server sent one. */
      body?: string;
      error?: string;
      code?: string;
    })
  | (Base & {
      kind: "ws-frame";
      connection: string;
      direction: Direction;
      binary: boolean;
      /** The message as UTF-8 text (invalid sequences replaced by U+FFFD, see invalidUtf8). */
      data: string;
      /** Label the sender gave an outgoing message (e.g. "get-state:initial"). */
      label?: string;
      /** Size of the message in bytes. */
      bytes?: number;
      /** The bytes are not valid UTF-8 (in a text frame: a protocol error the kit records instead of dropping). */
      invalidUtf8?: boolean;
      /**
       * The message came in a socket read that followed a large one at once, while the kit was busy
       * reading: it may have been waiting since this time (ms, the run's clock), not only since `t`.
       */
      backlogSince?: number;
    })
  | (Base & {
      kind: "ws-close";
      connection: string;
      code?: number;
      reason?: string;
      /** Who ended the connection: the peer ("server" for probes, "client" for mocks) or the kit. */
      by?: "server" | "client" | "kit";
      /** Why the kit ended it, or what went wrong: "limit", "timeout", "aborted", an error message. */
      cause?: string;
    })
  /** What a client under test reported it assembled (client-parse adapters). */
  | (Base & { kind: "client-result"; case: string; result: unknown })
  /** Free-form fact a probe wants checks to see, e.g. { name: "servers", value: [...] }. */
  | (Base & { kind: "note"; name: string; value: unknown });

export type BodyEndReason =
  | "eof"
  | "timeout"
  | "idle-timeout"
  | "first-event-timeout"
  | "close-timeout"
  | "limit"
  | "error"
  | "aborted";

export type EventKind = TranscriptEvent["kind"];

/** An event as a producer hands it to the bus: seq and t are filled in there. */
export type NewEvent = TranscriptEvent extends infer E
  ? E extends TranscriptEvent
    ? Omit<E, "seq" | "t">
    : never
  : never;

export type Observer = (event: TranscriptEvent) => void;

/** Fans transcript events out to observers, stamping sequence numbers and times. */
export class TranscriptBus {
  private readonly observers: Observer[] = [];
  private seq = 0;
  private readonly start: number;
  /** The time stamped on events while a chunk's events are emitted (-1: read the clock). */
  private held = -1;

  constructor(start = performance.now()) {
    this.start = start;
  }

  subscribe(observer: Observer): () => void {
    this.observers.push(observer);
    return () => {
      const i = this.observers.indexOf(observer);
      if (i >= 0) this.observers.splice(i, 1);
    };
  }

  /**
   * Stamps and fans out `event`. A producer on a hot path may give it `seq` and `t` already (any
   * value), as its last properties: they are then overwritten in place, where adding two properties
   * to an object literal costs an allocation per event. The JSON form keeps the same key order.
   */
  emit(event: NewEvent): TranscriptEvent {
    // Stamped in place, not copied: producers hand over fresh objects, and a copy per event was
    // the largest cost of a long stream.
    const full = event as TranscriptEvent;
    full.seq = this.seq++;
    full.t = this.held >= 0 ? this.held : now(this.start);
    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) observers[i]!(full);
    return full;
  }

  /**
   * Stamps every event emitted until {@link release} with one time: the lines and events a body
   * chunk holds were seen when the chunk was, and one clock read per chunk instead of one per
   * event is a large share of a long stream's cost. `at`: when the chunk was seen, if earlier
   * (a `performance.now()` reading).
   */
  hold(at = performance.now()): void {
    this.held = stamp(at, this.start);
  }

  release(): void {
    this.held = -1;
  }

  /** A `performance.now()` reading on this bus's clock (ms since it started), as events are stamped. */
  clockOf(at: number): number {
    return stamp(at, this.start);
  }

  /** Replays recorded events (fixtures, saved transcripts) keeping their own seq and t. */
  replay(event: TranscriptEvent): void {
    for (const o of this.observers) o(event);
  }
}

function now(start: number): number {
  return stamp(performance.now(), start);
}

function stamp(at: number, start: number): number {
  return Math.round((at - start) * 1000) / 1000;
}

/** JSON Lines form of one event: bytes become base64 so the line is plain JSON. */
export function eventToJsonLine(event: TranscriptEvent): string {
  if (event.kind === "body-chunk") {
    return JSON.stringify({ ...event, bytes: undefined, base64: toBase64(event.bytes) });
  }
  return JSON.stringify(event);
}

/**
 * One JSON Lines event, its shape checked: a file edited by hand or cut short must be refused here,
 * with what is wrong, not crash a check or a reporter that reads a field later. Throws an Error
 * that says which field.
 */
export function eventFromJsonLine(line: string): TranscriptEvent {
  const raw = JSON.parse(line) as unknown;
  const problem = eventProblem(raw);
  if (problem) throw new Error(problem);
  const event = raw as Record<string, unknown>;
  if (event.kind === "body-chunk") {
    const { base64, ...rest } = event;
    return { ...rest, bytes: fromBase64(base64 as string) } as unknown as TranscriptEvent;
  }
  return event as unknown as TranscriptEvent;
}

/** What a field holds: a JSON type, "headers" (an object of strings); "?" when it may be absent. */
type FieldType = "string" | "number" | "boolean" | "object" | "headers" | "any";
type Fields = Record<string, FieldType | `${FieldType}?`>;

const EXCHANGE: Fields = { exchange: "string", label: "string" };

/**
 * The fields the kit reads of each kind of event, as the writer writes them (TranscriptEvent).
 * A kind's other fields are left as they are: nothing reads them.
 */
const EVENT_FIELDS: Record<EventKind, Fields> = {
  "probe-start": { description: "string?" },
  "probe-end": { error: "string?" },
  "http-request": { ...EXCHANGE, method: "string", url: "string", path: "string", headers: "headers", body: "string?", meta: "object?" },
  "http-response": { ...EXCHANGE, status: "number", headers: "headers" },
  "http-error": { ...EXCHANGE, error: "string", code: "string?" },
  // Its bytes are written as base64 (eventToJsonLine).
  "body-chunk": { ...EXCHANGE, index: "number", base64: "string" },
  "body-end": { ...EXCHANGE, reason: "string", bytes: "number", text: "string?", error: "string?" },
  "sse-line": { ...EXCHANGE, lineNo: "number", line: "string", eol: "string", chunkStart: "number", chunkEnd: "number" },
  "sse-event": { ...EXCHANGE, index: "number", data: "string", event: "string?", id: "string?", chunk: "number" },
  "ws-open": { connection: "string", url: "string", headers: "headers?", label: "string?", responseHeaders: "headers?" },
  "ws-reject": {
    connection: "string",
    url: "string",
    label: "string?",
    headers: "headers?",
    status: "number?",
    responseHeaders: "headers?",
    body: "string?",
    error: "string?",
    code: "string?",
  },
  "ws-frame": { connection: "string", direction: "string", binary: "boolean", data: "string", label: "string?", bytes: "number?", invalidUtf8: "boolean?", backlogSince: "number?" },
  "ws-close": { connection: "string", code: "number?", reason: "string?", by: "string?", cause: "string?" },
  "client-result": { case: "string", result: "any" },
  note: { name: "string", value: "any?" },
};

/** Every event has these; `probe` is only compared, so a file without it still reads. */
const BASE_FIELDS: Fields = { kind: "string", seq: "number", t: "number", probe: "string?" };

/** Why `raw` is not a transcript event (the first wrong field), or undefined when it is one. */
export function eventProblem(raw: unknown): string | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "not a JSON object";
  const event = raw as Record<string, unknown>;
  const base = fieldsProblem(event, BASE_LIST);
  if (base) return base;
  const fields = EVENT_LISTS.get(event.kind as string);
  if (!fields) return `"kind": ${JSON.stringify(event.kind)} is no kind of event`;
  return fieldsProblem(event, fields);
}

interface Field {
  name: string;
  type: FieldType;
  optional: boolean;
}

/** The fields as a list, made once: an event is checked by a plain loop, as many times as a transcript has lines. */
const fieldList = (fields: Fields): Field[] =>
  Object.entries(fields).map(([name, spec]) => ({ name, type: spec.replace("?", "") as FieldType, optional: spec.endsWith("?") }));

const BASE_LIST = fieldList(BASE_FIELDS);
const EVENT_LISTS = new Map(Object.entries(EVENT_FIELDS).map(([kind, fields]) => [kind, fieldList(fields)]));

function fieldsProblem(event: Record<string, unknown>, fields: readonly Field[]): string | undefined {
  for (const { name, type, optional } of fields) {
    const value = event[name];
    if (value === undefined && optional) continue;
    if (!fits(value, type)) return `"${name}" must be ${TYPE_WORDS[type]}, got ${value === undefined ? "nothing" : JSON.stringify(value)}`;
  }
  return undefined;
}

const TYPE_WORDS: Record<FieldType, string> = {
  string: "a string",
  number: "a number",
  boolean: "true or false",
  object: "a JSON object",
  headers: "an object of header strings",
  any: "a value",
};

function fits(value: unknown, type: FieldType): boolean {
  switch (type) {
    case "any":
      return value !== undefined;
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "headers":
      return fits(value, "object") && Object.values(value as object).every((v) => typeof v === "string");
    default:
      return typeof value === type;
  }
}

/**
 * The first line of a saved transcript: what the run was, so `agentwire replay` judges it as the
 * live run did. It has no `kind`, so readers that predate it can tell it from an event.
 */
export interface TranscriptHeader {
  agentwire: "transcript";
  version: 1;
  protocol: string;
  side: "server" | "client";
  profile: string;
  /** The parameters the checks read, as the run resolved them (defaults, pacing, profile, caller). */
  params: Record<string, unknown>;
  /** The parameters the caller gave (--set, --origin...), kept apart so another --profile can be replayed. */
  callerParams?: Record<string, unknown>;
  /** The self-test pacing used against the built-in mock, if any. */
  quickParams?: Record<string, unknown>;
  /** The URL the run talked to (the target, or the mock that played the server). */
  url?: string;
  /** The report's target line. */
  target: string;
  startedAt: string;
  /** Recorded by `agentwire proxy`: both sides' traffic, judged on replay as the proxy judged it. */
  proxy?: boolean;
}

export function isTranscriptHeader(value: unknown): value is TranscriptHeader {
  return !!value && typeof value === "object" && (value as { agentwire?: unknown }).agentwire === "transcript";
}

/** The header's fields a replay reads. */
const HEADER_FIELDS: Fields = { protocol: "string", side: "string", profile: "string", params: "object", callerParams: "object?", quickParams: "object?", url: "string?", target: "string", startedAt: "string", proxy: "boolean?" };

function headerProblem(header: TranscriptHeader): string | undefined {
  const problem = fieldsProblem(header as unknown as Record<string, unknown>, fieldList(HEADER_FIELDS));
  if (problem) return problem;
  if (header.side !== "server" && header.side !== "client") return `"side" must be "server" or "client", got ${JSON.stringify(header.side)}`;
  return undefined;
}

/** The events of a JSON Lines transcript; a header line, when there is one, is left out. */
export function parseJsonLines(text: string): TranscriptEvent[] {
  return readTranscript(text).events;
}

/** A saved transcript: its header (absent in files written before headers existed) and its events. */
export function readTranscript(text: string): { header?: TranscriptHeader; events: TranscriptEvent[] } {
  let header: TranscriptHeader | undefined;
  const events: TranscriptEvent[] = [];
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!;
    if (line.trim() === "") continue;
    if (header === undefined && events.length === 0 && line.startsWith('{"agentwire":')) {
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (e) {
        throw lineError(n, "header", (e as Error).message);
      }
      if (isTranscriptHeader(raw)) {
        const problem = headerProblem(raw);
        if (problem) throw lineError(n, "header", problem);
        header = raw;
        continue;
      }
    }
    try {
      events.push(eventFromJsonLine(line));
    } catch (e) {
      throw lineError(n, "event", (e as Error).message);
    }
  }
  return { ...(header ? { header } : {}), events };
}

/** What a reader of the file is told: `line N is not an agentwire transcript event: why`. */
function lineError(n: number, what: "header" | "event", why: string): SyntaxError {
  return new SyntaxError(`line ${n + 1} is not an agentwire transcript ${what}: ${why}`);
}

// Browser-safe base64 (no Buffer): the msw entry shares this module.
function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}
