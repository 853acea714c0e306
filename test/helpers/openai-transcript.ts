/** openai-chat conveniences on the shared builder: a streamed chat exchange and a chunk's SSE text. */
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { Transcript, type SseSpec } from "./synthetic-transcript.js";

/** One streamed chat completion; `body` is the request (a ChatCompletionRequest with stream: true). */
export function chatStreamExchange(spec: Omit<SseSpec, "path" | "body" | "chunks"> & { body: object; writes: SseSpec["chunks"] }): TranscriptEvent[] {
  const { body, writes, ...rest } = spec;
  return new Transcript()
    .sse({ exchange: "xo1", ...rest, path: "/v1/chat/completions", requestHeaders: { "content-type": "application/json" }, body: JSON.stringify(body), chunks: writes })
    .events;
}

/** A chunk's SSE event text. */
export function chunkEvent(delta: object, finish: string | null = null, extra: object = {}): string {
  return `data: ${JSON.stringify({ id: "chatcmpl-t1", object: "chat.completion.chunk", created: 1700000000, model: "m", choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
}
