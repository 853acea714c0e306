/**
 * Incremental UTF-8 validation over body chunks (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF). Byte-level, so it names the offending byte and allocates nothing per chunk.
 */
export class Utf8Validator {
  /** Continuation bytes still expected, and the allowed range of the next one. */
  private need = 0;
  private lo = 0x80;
  private hi = 0xbf;
  /** Bytes seen so far. */
  offset = 0;

  /** Feeds a chunk; returns the absolute offset of the first invalid byte, or -1. */
  push(bytes: Uint8Array): number {
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      const at = this.offset + i;
      if (this.need > 0) {
        if (b < this.lo || b > this.hi) return this.fail(bytes.length, at);
        this.need--;
        this.lo = 0x80;
        this.hi = 0xbf;
        continue;
      }
      if (b < 0x80) continue;
      if (b >= 0xc2 && b <= 0xdf) this.need = 1;
      else if (b === 0xe0) [this.need, this.lo] = [2, 0xa0];
      else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) this.need = 2;
      else if (b === 0xed) [this.need, this.hi] = [2, 0x9f];
      else if (b === 0xf0) [this.need, this.lo] = [3, 0x90];
      else if (b >= 0xf1 && b <= 0xf3) this.need = 3;
      else if (b === 0xf4) [this.need, this.hi] = [3, 0x8f];
      else return this.fail(bytes.length, at);
    }
    this.offset += bytes.length;
    return -1;
  }

  /** True when the input ended inside a multi-byte character. */
  get truncated(): boolean {
    return this.need > 0;
  }

  private fail(chunkLength: number, at: number): number {
    this.offset += chunkLength;
    return at;
  }
}
