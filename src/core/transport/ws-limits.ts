/**
 * The kit's own cuts of a WebSocket connection, shared by its recording client (ws-exchange.ts) and the proxy's relay:
 * which `ws` errors are a cap the kit chose rather than a frame the peer was wrong to send, and how a close the kit
 * made at one of its limits is recorded (`by: "kit"`, a cause starting "limit") and told apart (`cutByKit`).
 */

/** The cause every cut at the kit's own limits starts with (`cutByKit`). */
export const LIMIT = "limit";

/**
 * Why the kit cut a connection at one of its own limits (a message over its size cap, too many bytes or messages, a
 * flood, pongs the server does not read), or undefined: a close the server made, or the kit's when it was done with the
 * connection. What the server sent after such a cut was never read: no rule can be judged on it, none broken.
 */
export function cutByKit(close: { by?: string; cause?: string } | undefined): string | undefined {
  return close?.by === "kit" && close.cause?.startsWith(LIMIT) ? close.cause : undefined;
}

/**
 * The errors `ws` raises at a cap the kit chose (or kept), not at a frame the WebSocket protocol forbids: what each
 * says of the message it refused. A longer message than maxPayload is refused from its header (the over-long length
 * too); `ws` also refuses a message in more than 16,384 fragments and a frame still arriving after 262,144 socket
 * reads (its maxFragments and maxBufferedChunks, which bound the parts it keeps of one message).
 */
const OWN_CAPS: ReadonlyMap<string, (maxPayload: number, message: string) => string> = new Map([
  ["WS_ERR_UNSUPPORTED_MESSAGE_LENGTH", (max: number) => `a message over ${max} bytes (the kit's cap)`],
  ["WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH", (max: number) => `a message over ${max} bytes (the kit's cap)`],
  ["WS_ERR_TOO_MANY_BUFFERED_PARTS", (_max: number, message: string) => `a message in too many parts (${message.toLowerCase()}: the WebSocket library's cap)`],
]);

/**
 * What the message `ws` refused with `err` was, when the refusal is at one of the kit's caps ("a message over N bytes
 * (the kit's cap)"); undefined for any other error, which is the peer's doing. `maxPayload`: the cap the socket had.
 */
export function refusedAtCap(err: { code?: string; message: string }, maxPayload: number): string | undefined {
  const cap = err.code !== undefined ? OWN_CAPS.get(err.code) : undefined;
  return cap?.(maxPayload, err.message);
}
