/**
 * Small helpers the check suites share: reading HTTP heads and bodies, and pointing evidence at an
 * SSE event or raw line in words a user can follow ("chat-stream line 4 (chunk 2, at 41 ms)").
 */
import { at, excerpt, type Evidence, type Tally } from "./check.js";
import type { TranscriptEvent } from "../transcript/transcript.js";
import { Utf8Body } from "../transport/utf8.js";
import { undoneCoding } from "../transport/content-coding.js";

/** A transcript event of one kind. */
export type EventOf<K extends TranscriptEvent["kind"]> = Extract<TranscriptEvent, { kind: K }>;
export type RequestEvent = EventOf<"http-request">;
export type ResponseEvent = EventOf<"http-response">;
export type BodyEndEvent = EventOf<"body-end">;
export type ErrorEvent = EventOf<"http-error">;
export type SseLineEvent = EventOf<"sse-line">;
export type SseEventEvent = EventOf<"sse-event">;
export type ChunkEvent = EventOf<"body-chunk">;
export type NoteEvent = EventOf<"note">;

/** Where a data line's value starts: after "data:" and one optional space. */
const valueStart = (line: string): number => (line.charCodeAt(5) === 32 ? 6 : 5);

/** The value of a data line, after "data:" and one optional space. */
export function dataValue(line: string): string {
  return line.slice(valueStart(line));
}

/** `dataValue(line).startsWith(prefix)`, without cutting the line (line hooks run for every line). */
export function dataStartsWith(line: string, prefix: string): boolean {
  return line.startsWith(prefix, valueStart(line));
}

/** `dataValue(line) === value`, without cutting the line. */
export function dataIs(line: string, value: string): boolean {
  const from = valueStart(line);
  return line.length - from === value.length && line.startsWith(value, from);
}

/** Evidence for an SSE event, with its payload as the excerpt. */
export function eventEvidence(ev: SseEventEvent): Evidence {
  return at(ev, { excerpt: excerpt(ev.data) });
}

/** "chat-stream event #3 (chunk 2, at 41 ms)". */
export function eventWhere(ev: SseEventEvent): string {
  return `${ev.label} event #${ev.index} (chunk ${ev.chunk}, at ${Math.round(ev.t)} ms)`;
}

export const is2xx = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** Evidence for a raw line, with the line and its terminator as the excerpt. */
export function lineEvidence(ev: SseLineEvent): Evidence {
  return at(ev, { excerpt: excerpt(ev.line + ev.eol) });
}

/** "chat-stream line 4 (chunk 2, at 41 ms)". */
export function lineWhere(ev: SseLineEvent): string {
  const chunks = ev.chunkStart === ev.chunkEnd ? `chunk ${ev.chunkStart}` : `chunks ${ev.chunkStart}-${ev.chunkEnd}`;
  return `${ev.label} line ${ev.lineNo} (${chunks}, at ${Math.round(ev.t)} ms)`;
}

/** Media type without parameters, lower-case. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

export type LineKind = "blank" | "comment" | "data" | "field";

/** A raw line as WHATWG SSE reads it: blank (dispatch), comment, a `data` field, or another field. */
export function lineKind(line: string): LineKind {
  if (line === "") return "blank";
  if (line.startsWith(":")) return "comment";
  if (line === "data" || line.startsWith("data:")) return "data";
  return "field";
}

/**
 * Where a stream's first sentinel event (`[DONE]`, `[ERROR]`) stands among its raw lines: not yet
 * seen, its data line seen, or closed by its empty line.
 */
export interface SentinelLines {
  inEvent: boolean;
  state: "before" | "sentinel" | "closed";
  sentinel?: SseLineEvent;
}

export const sentinelLines = (): SentinelLines => ({ inEvent: false, state: "before" });

/**
 * Advances the line state by one raw line (of `kind`, when the stream view classified it already);
 * `isSentinel` says whether a data line that begins an event opens the sentinel. Returns the line's kind.
 */
export function advanceSentinel(st: SentinelLines, ev: SseLineEvent, isSentinel: (line: string) => boolean, kind = lineKind(ev.line)): LineKind {
  if (kind === "blank") {
    if (st.state === "sentinel") st.state = "closed";
    st.inEvent = false;
  } else if (kind === "data") {
    if (!st.inEvent && st.state === "before" && isSentinel(ev.line)) {
      st.state = "sentinel";
      st.sentinel = ev;
    }
    st.inEvent = true;
  }
  return kind;
}

/** A stream's sentinel as the close rule reads it: when it came, and how to name it. */
export interface SentinelSeen {
  since: number;
  /** The sentinel as the expectation names it ("the sentinel", "[DONE]"). */
  sentinel: string;
  /** The sentinel as the target sent it. */
  seen: string;
  evidence: Evidence;
}

/**
 * The rule "the body ends within the limit after the stream's sentinel", as stream-view hooks (start,
 * end): a pass, a failure past the limit, or untestable when the kit stopped reading for another
 * reason. `sentinelOf` finds a stream's sentinel, or judges a stream without one and returns
 * undefined; `worst()` is the longest wait that passed.
 */
export function closeAfterSentinelRule<S extends { label: string }>(t: Tally, limitMs: number, sentinelOf: (ev: BodyEndEvent, s: S) => SentinelSeen | undefined) {
  let worst = 0;
  return {
    worst: () => worst,
    start: () => undefined,
    end(ev: BodyEndEvent, s: S): void {
      const o = sentinelOf(ev, s);
      if (!o) return;
      const elapsed = Math.round(ev.t - o.since);
      if (ev.reason === "close-timeout" || elapsed > limitMs) {
        t.fail(`the body ends within ${limitMs} ms of ${o.sentinel}`, `${s.label}: the body was still open ${elapsed} ms after ${o.seen} (${ev.reason === "close-timeout" ? "the kit stopped waiting" : `ended by ${ev.reason}`})`, o.evidence);
      } else if (ev.reason === "eof" || ev.reason === "error") {
        worst = Math.max(worst, elapsed);
        t.ok();
      } else {
        t.untestable(`the kit stopped reading ${s.label} (${ev.reason}) ${elapsed} ms after ${o.sentinel}`);
      }
    },
  };
}

/** What differs between protocols in the UTF-8 body rule: the wording of an invalid byte, and one ending. */
export interface Utf8BodyWording {
  /** The finding and its evidence excerpt for an invalid byte: `start` is the chunk's body offset, `bad` the byte's. */
  invalid(label: string, ev: ChunkEvent, start: number, bad: number): [actual: string, excerpt: string];
  /** A body the kit stopped reading inside a character (not at EOF) still passes; otherwise it is left unjudged. */
  cutMidCharacterPasses: boolean;
}

/** A stream the kit reads decoded (its head names a gzip, deflate or br coding): the coding's name, or undefined. */
export function codedStreamOf(s: { head: { headers: Record<string, string> } }): string | undefined {
  return undoneCoding(s.head.headers["content-encoding"]);
}

/**
 * Why a rule about the bytes the server wrote cannot judge a coded stream: its body-chunk events are the coded bytes
 * as sent (their boundaries and bytes are the coding's), and the decoded text the other rules read keeps neither.
 */
export function codedStreamReason(label: string, coding: string, rule: string): string {
  return `${label} is ${coding}-coded (Content-Encoding: ${coding}): ${rule} is a rule about the bytes the server wrote, which the coding hides`;
}

/** The state of the UTF-8 rule on a coded stream: not judged. */
interface CodedBody {
  coded: string;
}

/**
 * A stream body's rule "valid UTF-8 without a BOM", as stream-view hooks (start, chunk, end) over any
 * stream that has a label; `bytes()` counts what was read, for the passing message. A coded stream is
 * left unjudged, with the reason (its chunks are coded bytes).
 */
export function utf8BodyRule(t: Tally, wording: Utf8BodyWording) {
  let bytes = 0;
  return {
    bytes: () => bytes,
    start: (s: { head: { headers: Record<string, string> } }): Utf8Body | CodedBody => {
      const coded = codedStreamOf(s);
      return coded === undefined ? new Utf8Body() : { coded };
    },
    chunk(ev: ChunkEvent, s: { label: string }, st: Utf8Body | CodedBody): void {
      if (!(st instanceof Utf8Body)) return;
      bytes += ev.bytes.length;
      if (st.startsWithBom(ev.bytes)) t.fail("no byte order mark", `${s.label}: the body starts with a UTF-8 BOM (EF BB BF)`, at(ev, { excerpt: "\\xEF\\xBB\\xBF" }));
      if (st.bad) return;
      const start = st.offset;
      const bad = st.push(ev.bytes);
      if (bad < 0) return;
      const [actual, hex] = wording.invalid(s.label, ev, start, bad);
      t.fail("valid UTF-8", actual, at(ev, { excerpt: hex }));
    },
    end(ev: BodyEndEvent, s: { label: string }, st: Utf8Body | CodedBody): void {
      if (!(st instanceof Utf8Body)) return t.untestable(codedStreamReason(s.label, st.coded, "valid UTF-8 without a BOM"));
      // A stream that sent no valid byte showed nothing to judge.
      if (st.bad || st.offset === 0) return;
      if (!st.truncated) t.ok();
      else if (ev.reason === "eof") t.fail("valid UTF-8", `${s.label}: the body ends inside a multi-byte character`, at(ev));
      else if (wording.cutMidCharacterPasses) t.ok();
    },
  };
}

/** The bytes around a chunk offset, in hex, as evidence. */
export const hexAround = (bytes: Uint8Array, from: number, to: number): string => [...bytes.subarray(Math.max(0, from), to)].map((b) => b.toString(16).padStart(2, "0")).join(" ");

/**
 * A table's own entry for a key the target chose (an event type, a role, a path): never an inherited member of a plain
 * object such as `constructor`, `toString` or `__proto__`.
 */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
