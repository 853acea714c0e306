/**
 * Turns a mock's stream steps into timed body writes: frame each event as it is generated
 * (core/sse-framing), attach the pause before each write, and optionally add `: ping` comments
 * while waiting. Nothing holds the whole answer; pacedBody then sleeps and writes. Browser-safe.
 */
import type { TimedChunk } from "./paced-body.js";
import { CANONICAL_SSE_FORMAT, concatBytes, createSseFramer, type SseFormat } from "../transport/sse-framing.js";
import { seededRandom } from "./timing.js";

export type ChunkTransform = (chunks: Iterable<TimedChunk>) => Iterable<TimedChunk>;

export interface SseWritePlan<S> {
  steps: Iterable<S>;
  format: SseFormat;
  seed: number;
  /** The event's data as the framer takes it. */
  payload: (step: S) => string | Uint8Array;
  /**
   * The same data as UTF-8 bytes in pieces, when the step has them: written by copying for a format
   * that writes each event whole (canonical), with no string per event.
   */
  payloadBytes?: (step: S) => PayloadBytes | undefined;
  /** The pause before a step (ms), before jitter; `index` counts the steps from 0. */
  wait: (step: S, index: number) => number;
  /** Up to this many ms added at random to each pause. */
  jitter: number;
  /** Between the writes of one event when a framing cuts it. */
  chunkGap: number;
  /** A `: ping` comment for every this many ms of a pause (0: none). */
  keepAlive?: number;
}

const encoder = new TextEncoder();

/** Node's Buffer encodes a short string faster than TextEncoder; browsers (msw) have none. */
const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: "utf8"): Uint8Array } }).Buffer;

export function encodeUtf8(text: string): Uint8Array {
  // A Buffer is a Uint8Array; node's writer takes it as it is.
  return NodeBuffer ? NodeBuffer.from(text, "utf8") : encoder.encode(text);
}

/**
 * A write given as text. Its UTF-8 bytes are made only when read (a fault, the Fetch body): the
 * node server writes the text into its socket buffer itself, with no buffer per event.
 */
export class TextChunk implements TimedChunk {
  private encoded: Uint8Array | undefined;

  constructor(
    readonly text: string,
    public delay: number,
  ) {}

  get bytes(): Uint8Array {
    return (this.encoded ??= encodeUtf8(this.text));
  }
}

/**
 * An event's data as UTF-8 bytes: a head and a tail a stream's events share (the envelope around
 * each delta) and the event's own bytes between them.
 */
export interface PayloadBytes {
  head: Uint8Array;
  body: Uint8Array;
  tail: Uint8Array;
}

/**
 * A write given as three byte pieces: the framing's prefix with the shared head, the event's own
 * bytes, the shared tail with the event's end. The node server copies the pieces into its socket
 * buffer; the whole bytes are made only when read (a fault, the Fetch body).
 */
export class PiecesChunk implements TimedChunk {
  private joined: Uint8Array | undefined;

  constructor(
    readonly first: Uint8Array,
    readonly body: Uint8Array,
    readonly last: Uint8Array,
    public delay: number,
  ) {}

  get byteLength(): number {
    return this.first.byteLength + this.body.byteLength + this.last.byteLength;
  }

  /** Copies the bytes into `out` at `at`; returns the offset after them. */
  copyInto(out: Uint8Array, at: number): number {
    out.set(this.first, at);
    at += this.first.byteLength;
    out.set(this.body, at);
    at += this.body.byteLength;
    out.set(this.last, at);
    return at + this.last.byteLength;
  }

  get bytes(): Uint8Array {
    if (!this.joined) {
      this.joined = new Uint8Array(this.byteLength);
      this.copyInto(this.joined, 0);
    }
    return this.joined;
  }
}

/**
 * The first and last pieces of whole-event writes from byte payloads: prefix + head and tail + end,
 * joined once per distinct head and tail (a stream's events share them).
 */
function piecesFramer(prefix: string, end: string): (p: PayloadBytes, delay: number) => PiecesChunk {
  const prefixBytes = encodeUtf8(prefix);
  const endBytes = encodeUtf8(end);
  let head: Uint8Array | undefined;
  let tail: Uint8Array | undefined;
  let first = prefixBytes;
  let last = endBytes;
  return (p, delay) => {
    if (p.head !== head) {
      head = p.head;
      first = concatBytes([prefixBytes, head]);
    }
    if (p.tail !== tail) {
      tail = p.tail;
      last = concatBytes([tail, endBytes]);
    }
    return new PiecesChunk(first, p.body, last, delay);
  };
}

/**
 * For a format that writes each event whole as `<prefix><payload><eol><eol>` (canonical and the
 * framings that change only the prefix or the line end), the event's text in one piece: what the
 * framer writes, without its per-part work. Undefined for any other format.
 */
function wholeEventFramer(format: SseFormat): { prefix: string; end: string } | undefined {
  if (format.chunking !== "event" || format.preamble || format.linesBefore || format.noFinalBlank) return undefined;
  if (typeof format.eol !== "string" || format.dataLines !== CANONICAL_SSE_FORMAT.dataLines) return undefined;
  return { prefix: format.dataPrefix, end: format.eol + format.eol };
}

/** The writes of one stream, each with the pause before it. */
export function* planSseWrites<S>(plan: SseWritePlan<S>): Generator<TimedChunk> {
  const { format } = plan;
  const keepAlive = plan.keepAlive ?? 0;
  const framer = createSseFramer(format, { seed: plan.seed });
  const whole = wholeEventFramer(format);
  const pieces = whole && plan.payloadBytes ? piecesFramer(whole.prefix, whole.end) : undefined;
  const jitter = seededRandom(plan.seed ^ 0x5bd1e995);
  const eol = typeof format.eol === "string" ? format.eol : (format.eol[0] ?? "\n");
  const ping = keepAlive > 0 ? encoder.encode(`: ping${eol}`) : undefined;
  const steps = plan.steps[Symbol.iterator]();
  let owed = 0;
  let index = 0;
  let current = steps.next();
  while (!current.done) {
    // One step of look-ahead: some framings treat the last event differently.
    const next = steps.next();
    const step = current.value;
    let wait = plan.wait(step, index);
    if (plan.jitter > 0) wait += Math.round(jitter() * plan.jitter);
    if (ping) {
      while (wait >= keepAlive) {
        // Bytes a framing holds back go out first, so a comment never lands inside an event.
        for (const bytes of framer.end()) {
          yield { bytes, delay: owed };
          owed = 0;
        }
        yield { bytes: ping, delay: owed + keepAlive };
        owed = 0;
        wait -= keepAlive;
      }
    }
    owed += wait;
    const bytes = pieces ? plan.payloadBytes?.(step) : undefined;
    if (pieces && bytes) {
      yield pieces(bytes, owed);
      owed = 0;
      current = next;
      index++;
      continue;
    }
    const payload = plan.payload(step);
    if (whole && typeof payload === "string") {
      yield new TextChunk(whole.prefix + payload + whole.end, owed);
      owed = 0;
      current = next;
      index++;
      continue;
    }
    const writes = framer.push(payload, { last: next.done === true });
    for (let i = 0; i < writes.length; i++) {
      yield { bytes: writes[i] as Uint8Array, delay: i === 0 ? owed : plan.chunkGap };
    }
    // A framing that holds bytes back (coalesced, split-random) owes the pause to its next write.
    if (writes.length) owed = 0;
    current = next;
    index++;
  }
  for (const bytes of framer.end()) {
    yield { bytes, delay: owed };
    owed = 0;
  }
}

/** Waits out every pause, then writes everything at once. */
export function* bufferAll(chunks: Iterable<TimedChunk>): Iterable<TimedChunk> {
  const held: Uint8Array[] = [];
  let delay = 0;
  for (const c of chunks) {
    held.push(c.bytes);
    delay += c.delay;
  }
  if (held.length) yield { bytes: concatBytes(held), delay };
}
