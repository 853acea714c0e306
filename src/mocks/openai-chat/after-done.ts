/**
 * What the client does once a stream's `[DONE]` is written: the mock notes when `[DONE]` went out
 * and when the body ended, and whether the client went away (closed the connection) or the mock
 * closed it after its hold. client/finishes-after-done reads these notes with the requests.
 */
import type { TranscriptBus } from "../../core/transcript/transcript.js";

/** Note name; value `{exchange, event: "done"}` or `{exchange, event: "closed", by: "client" | "server"}`. */
export const AFTER_DONE_NOTE = "openai-chat/after-done";

const DONE = "data: [DONE]";

/** The body passed through, with the notes emitted on the bus. */
export function watchAfterDone(body: ReadableStream<Uint8Array>, bus: TranscriptBus, exchange: string, signal: AbortSignal): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // Only the tail is kept: enough to find [DONE] cut across writes.
  let tail = "";
  let sawDone = false;
  let ended = false;
  const note = (value: Record<string, unknown>) => bus.emit({ kind: "note", probe: "client", name: AFTER_DONE_NOTE, value: { exchange, ...value } });
  const closed = (by: "client" | "server") => {
    if (ended) return;
    ended = true;
    if (sawDone) note({ event: "closed", by });
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch (e) {
          closed(signal.aborted ? "client" : "server");
          throw e;
        }
        if (r.done) {
          // The paced body ends early when the connection went away (the request's signal).
          closed(signal.aborted ? "client" : "server");
          return controller.close();
        }
        if (!sawDone) {
          tail = (tail + decoder.decode(r.value, { stream: true })).slice(-64);
          if (tail.includes(DONE)) {
            sawDone = true;
            note({ event: "done" });
          }
        }
        controller.enqueue(r.value);
      },
      async cancel(reason) {
        closed("client");
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
