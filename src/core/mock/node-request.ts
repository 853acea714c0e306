/** Reading a node:http request the way the WebSocket mocks' servers need it (node only). */
import type { IncomingMessage } from "node:http";

/** The request's headers as one string each (repeated ones joined with ", "). */
export function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/** Whether the Host header and the request target make a URL the engine can route. */
export function validTarget(req: IncomingMessage, scheme: "http" | "ws"): boolean {
  const target = req.url ?? "/";
  if (!target.startsWith("/") || target.startsWith("//")) return false;
  try {
    new URL(`${scheme}://${req.headers.host ?? "localhost"}${target}`);
    return true;
  } catch {
    return false;
  }
}
