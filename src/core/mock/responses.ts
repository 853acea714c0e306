/** The reply shapes every HTTP mock answers with; the mock adds its own CORS headers. Browser-safe. */
import type { MockReply, PacedReplyBody } from "./exchange.js";

export const SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8";

export function jsonResponse(status: number, body: unknown, headers: Record<string, string>, contentType = "application/json"): MockReply {
  return { status, headers: { "content-type": contentType, ...headers }, body: JSON.stringify(body) };
}

/** A 200 stream that no proxy buffers or caches. */
export function sseResponse(body: PacedReplyBody | ReadableStream<Uint8Array>, contentType: string | undefined, headers: Record<string, string>): MockReply {
  return {
    status: 200,
    headers: {
      "content-type": contentType ?? SSE_CONTENT_TYPE,
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
      ...headers,
    },
    body,
  };
}
