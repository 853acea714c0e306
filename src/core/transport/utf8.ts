/**
 * Incremental UTF-8 validation over body chunks (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF). Byte-level, so it names the offending byte and allocates nothing per chunk.
 */
import { isUtf8 } from "node:buffer";

/** Chunk size (bytes) from which the native check is worth its call. */
const NATIVE_FROM = 128;

export class Utf8Validator {
  /** Continuation bytes still expected, and the allowed range of the next one. */
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  /** Bytes seen so far. */
  offset = 0;

  /** Feeds a chunk; returns the absolute offset of the first invalid byte, or -1. */
  push(bytes: Uint8Array): number {
    // A large chunk between character boundaries is checked natively, many times faster than the
    // byte loop; a small one is not worth the native call, and a chunk that splits a character or
    // holds a bad byte goes through the loop, which names the byte.
    if (bytes.length >= NATIVE_FROM && this.need === 0 && isUtf8(bytes)) {
      this.offset += bytes.length;
      return -1;
    }
    // State in locals for the loop (it runs for every byte of every stream), stored back at the end.
    let need = this.need;
    let lo = this.lo;
    let hi = this.hi;
    const n = bytes.length;
    for (let i = 0; i < n; i++) {
      // Between characters, ASCII four bytes at a time: most of an SSE body is ASCII.
      if (need === 0) {
        while (i + 4 <= n && ((bytes[i]! | bytes[i + 1]! | bytes[i + 2]! | bytes[i + 3]!) & 0x80) === 0) i += 4;
        if (i === n) break;
      }
      const b = bytes[i]!;
      if (need > 0) {
        if (b < lo || b > hi) return this.fail(n, this.offset + i, need, lo, hi);
        need--;
        lo = 0x80;
        hi = 0xbf;
        continue;
      }
      if (b < 0x80) continue;
      if (b >= 0xc2 && b <= 0xdf) need = 1;
      else if (b === 0xe0) {
        need = 2;
        lo = 0xa0;
      } else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) need = 2;
      else if (b === 0xed) {
        need = 2;
        hi = 0x9f;
      } else if (b === 0xf0) {
        need = 3;
        lo = 0x90;
      } else if (b >= 0xf1 && b <= 0xf3) need = 3;
      else if (b === 0xf4) {
        need = 3;
        hi = 0x8f;
      } else return this.fail(n, this.offset + i, need, lo, hi);
    }
    this.need = need;
    this.lo = lo;
    this.hi = hi;
    this.offset += n;
    return -1;
  }

  /** True when the input ended inside a multi-byte character. */
  get truncated(): boolean {
    return this.need > 0;
  }

  private fail(chunkLength: number, at: number, need: number, lo: number, hi: number): number {
    this.need = need;
    this.lo = lo;
    this.hi = hi;
    this.offset += chunkLength;
    return at;
  }
}

/**
 * One stream body judged as UTF-8 without a byte order mark, chunk by chunk: the rule's state for
 * every protocol that streams bytes (how a finding is worded stays the protocol's).
 */
export class Utf8Body {
  private readonly v = new Utf8Validator();
  /** The body's first bytes, until there are three (a BOM is EF BB BF). */
  private readonly head: number[] = [];
  /** An invalid byte was found: the rest of the body is not read. */
  bad = false;

  /** Body bytes read so far. */
  get offset(): number {
    return this.v.offset;
  }

  /** True when the body ended inside a multi-byte character. */
  get truncated(): boolean {
    return this.v.truncated;
  }

  /** True once, for the chunk that completes a leading BOM. */
  startsWithBom(bytes: Uint8Array): boolean {
    const head = this.head;
    for (let i = 0; head.length < 3 && i < bytes.length; i++) {
      head.push(bytes[i]!);
      if (head.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return true;
    }
    return false;
  }

  /** Validates a chunk: the body offset of its first invalid byte (then `bad` is set), or -1. */
  push(bytes: Uint8Array): number {
    const bad = this.v.push(bytes);
    if (bad >= 0) this.bad = true;
    return bad;
  }
}
