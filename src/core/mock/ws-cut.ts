/**
 * A mock's own cut of a client's WebSocket: `ws` refused a message at the mock's cap (over its maxPayload, in more
 * parts than `ws` keeps) and the mock drops the socket. That close is the kit's (`by: "kit"`, a cause starting "limit",
 * read by `cutByKit`), not the client's: what the client would have done next was never seen, so no client rule is
 * judged on it. Any other `ws` error is a frame the client was wrong to send, and its close stays the client's.
 */
import { LIMIT, refusedAtCap } from "../transport/ws-limits.js";

/** What of a `ws` socket the watch needs. */
interface Socket {
  on(event: "error", listener: (err: Error & { code?: string }) => void): unknown;
  terminate(): void;
}

/** The cause a mock records for a cut at its cap, or undefined while it has made none. */
export interface OwnCut {
  readonly cause: string | undefined;
}

/**
 * Drops `ws` on any error (never leaving it to drain), noting a refusal at the mock's own cap: `maxPayload` is the cap
 * the socket has. Read `cause` when the socket closes (`ws` raises the error before its close).
 */
export function dropOnError(ws: Socket, maxPayload: number): OwnCut {
  const cut: { cause: string | undefined } = { cause: undefined };
  ws.on("error", (err) => {
    const cap = refusedAtCap(err, maxPayload);
    if (cap) cut.cause ??= `${LIMIT}: ${cap}, from the client, not read`;
    ws.terminate();
  });
  return cut;
}
