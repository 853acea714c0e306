/**
 * The compact JSON of a streamed partial message, built as the message grows instead of
 * stringified whole per update: the stream only ever appends to one open block, so the text is an
 * unchanged prefix, the appended text escaped, and an unchanged suffix. It is kept as UTF-8 pieces
 * (browser-safe: TextEncoder, no Buffer), so a frame is copied together rather than encoded again.
 * The encoder finds the pieces by the snapshot object; a snapshot never changes once emitted.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A snapshot's compact JSON as UTF-8, in order. */
export type JsonPieces = readonly Uint8Array[];

/**
 * The last snapshot the stream built and its pieces: an update is encoded in the same call that
 * emits it, so one slot is enough (an older snapshot a rewrite sends later is stringified).
 */
let last: { value: object; pieces: JsonPieces } | undefined;

/** The pieces the stream built for this snapshot, if it was the last one. */
export function knownJson(value: object): JsonPieces | undefined {
  return last?.value === value ? last.pieces : undefined;
}

export function rememberJson(value: object, pieces: JsonPieces): void {
  last = { value, pieces };
}

export const utf8 = (text: string): Uint8Array => encoder.encode(text);

export function piecesLength(pieces: JsonPieces): number {
  let n = 0;
  for (const p of pieces) n += p.length;
  return n;
}

/** Pieces joined into `out` at `at`; returns the offset after them. */
export function copyPieces(pieces: JsonPieces, out: Uint8Array, at: number): number {
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return at;
}

export function piecesText(pieces: JsonPieces): string {
  const out = new Uint8Array(piecesLength(pieces));
  copyPieces(pieces, out, 0);
  return decoder.decode(out);
}

/** The body (no quotes) of a JSON string: `JSON.stringify(s).slice(1, -1)`. */
const body = (s: string) => JSON.stringify(s).slice(1, -1);

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * The escaped body of a string that grows by appending, as UTF-8: always the bytes of
 * `JSON.stringify(whole).slice(1, -1)`. A trailing high surrogate waits for the next piece, since
 * JSON.stringify escapes it when lone but keeps it as it is before a low surrogate; so what is
 * encoded never holds a lone surrogate.
 */
export class EscapedText {
  private buf = new Uint8Array(256);
  private length = 0;
  private held = "";

  append(piece: string): void {
    let s = this.held + piece;
    this.held = "";
    if (s.length > 0 && isHigh(s.charCodeAt(s.length - 1))) {
      this.held = s.slice(-1);
      s = s.slice(0, -1);
    }
    const escaped = body(s);
    // At most three UTF-8 bytes per UTF-16 unit; the buffer doubles, so appends stay linear.
    const need = this.length + 3 * escaped.length;
    if (need > this.buf.length) {
      const bigger = new Uint8Array(Math.max(need, 2 * this.buf.length));
      bigger.set(this.buf.subarray(0, this.length));
      this.buf = bigger;
    }
    this.length += encoder.encodeInto(escaped, this.buf.subarray(this.length)).written;
  }

  /** The escaped text so far: views that later appends leave as they are. */
  get pieces(): Uint8Array[] {
    const done = this.buf.subarray(0, this.length);
    return this.held ? [done, utf8(body(this.held))] : [done];
  }

  get text(): string {
    return piecesText(this.pieces);
  }
}
