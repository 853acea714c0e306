/**
 * What the client does once a stream's `[DONE]` is written (core's watcher, under this protocol's
 * note): client/finishes-after-done reads these notes with the requests.
 */
import { watchAfterDone as watch } from "../../core/mock/after-done.js";
import type { TranscriptBus } from "../../core/transcript/transcript.js";

/** Note name; value `{exchange, event: "done"}` or `{exchange, event: "closed", by: "client" | "server"}`. */
export const AFTER_DONE_NOTE = "openai-chat/after-done";

/** The body passed through, with the notes emitted on the bus. */
export function watchAfterDone(body: ReadableStream<Uint8Array>, bus: TranscriptBus, exchange: string, signal: AbortSignal): ReadableStream<Uint8Array> {
  return watch(body, bus, AFTER_DONE_NOTE, exchange, signal);
}
