/** The Response shapes every HTTP mock answers with; the mock adds its own CORS headers. Browser-safe. */

export const SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8";

export function jsonResponse(status: number, body: unknown, headers: Record<string, string>, contentType = "application/json"): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": contentType, ...headers } });
}

/** A 200 stream that no proxy buffers or caches. */
export function sseResponse(body: ReadableStream<Uint8Array>, contentType: string | undefined, headers: Record<string, string>): Response {
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": contentType ?? SSE_CONTENT_TYPE,
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
      ...headers,
    },
  });
}
