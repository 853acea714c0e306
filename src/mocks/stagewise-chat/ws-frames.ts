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
