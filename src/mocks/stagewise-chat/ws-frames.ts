/**
 * WebSocket text frames built by the mock itself (RFC 6455 §5.2): final, unmasked, uncompressed — the bytes `ws`
 * writes for `send(text)` on a connection without extensions, at a fraction of the cost, so a burst of small frames
 * can go straight into the socket. Node only.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text, "utf8");
  const head = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(head + length);
  frame[0] = 0x81;
  if (head === 2) frame[1] = length;
  else if (head === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2);
    frame.writeUInt32BE(length >>> 0, 6);
  }
  frame.write(text, head, "utf8");
  return frame;
}

/** How much a block takes at a time; a frame that may not fit in one goes out on its own. */
const BLOCK_BYTES = 64 * 1024;

/**
 * The frames of a burst written into shared blocks rather than a buffer each: the same bytes as `textFrame` back to
 * back, handed to the socket as one chunk per block (`take`), where a buffer and a socket write per frame would cost
 * more than framing the delta did.
 */
export class FrameBlock {
  private block: Buffer | null = null;
  private used = 0;

  /** Frames `text` into the block; false (nothing written) when it may not fit, so the caller sends it another way. */
  add(text: string): boolean {
    // UTF-8 takes at most 3 bytes per UTF-16 unit; a frame must fit a block, so its length fits the 16-bit form.
    const most = text.length * 3;
    if (4 + most > BLOCK_BYTES) return false;
    if (this.block === null || this.used + 4 + most > this.block.length) {
      if (this.used > 0) return false;
      this.block = Buffer.allocUnsafe(BLOCK_BYTES);
    }
    const block = this.block;
    const at = this.used;
    const length = block.write(text, at + 4, "utf8");
    block[at] = 0x81;
    if (length < 126) {
      block.copyWithin(at + 2, at + 4, at + 4 + length);
      block[at + 1] = length;
      this.used = at + 2 + length;
    } else {
      block[at + 1] = 126;
      block[at + 2] = length >>> 8;
      block[at + 3] = length & 0xff;
      this.used = at + 4 + length;
    }
    return true;
  }

  /** The frames written since the last take, as one buffer (the rest of the block is used for the next ones). */
  take(): Buffer | undefined {
    if (this.used === 0 || this.block === null) return undefined;
    const frames = this.block.subarray(0, this.used);
    const rest = this.block.subarray(this.used);
    // A rest too small for a usual delta is dropped; the next frame starts a new block.
    this.block = rest.length >= 4096 ? rest : null;
    this.used = 0;
    return frames;
  }
}
