/**
 * What a node server of the kit answers a request node's HTTP parser refuses (a Content-Length that is not a
 * number, a control byte in the target, a bad chunk size): node's own answer is a bare `400 Bad Request` with no
 * body; a client gets the protocol's error body instead, with the status node would have given.
 */
import type { Duplex } from "node:stream";

/** The JSON body of an error the server answers itself, in the protocol's own error shape. */
export type ErrorBody = (status: number, message: string) => unknown;

interface Refusal {
  status: number;
  statusText: string;
  message: string;
}

/** Node's refusals that are not a plain 400, by error code (as node answers them). */
const REFUSALS: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: { status: 431, statusText: "Request Header Fields Too Large", message: "request headers too large" },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, statusText: "Request Timeout", message: "the request did not arrive in time" },
};
const MALFORMED: Refusal = { status: 400, statusText: "Bad Request", message: "malformed HTTP request" };

type ParserError = Error & { code?: string; reason?: unknown };

/** The server's `clientError` listener: the refusal in `errorBody`'s shape, then the connection closes. */
export function clientErrorListener(errorBody: ErrorBody): (error: ParserError, socket: Duplex) => void {
  return (error, socket) => {
    // As node does: no answer on a socket gone, or after the head of an answer already on its way.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const refusal = REFUSALS[error.code ?? ""] ?? MALFORMED;
    // llhttp's reason says what it met ("Invalid character in Content-Length").
    const message = typeof error.reason === "string" && error.reason !== "" ? `${refusal.message}: ${error.reason}` : refusal.message;
    const body = JSON.stringify(errorBody(refusal.status, message));
    socket.end(
      `HTTP/1.1 ${refusal.status} ${refusal.statusText}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  };
}
