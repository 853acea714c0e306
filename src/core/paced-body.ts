/**
 * A paced response body, shared by the mocks (browser-safe): each write waits its own pause, pulled
 * only when the reader asks, so a pause starts when the previous write was taken. A reader that
 * goes away (or the request's signal) stops the generator and the pending timer at once.
 */
import { sleep } from "./timing.js";

/** One write of a body and the pause before it (ms). */
export interface TimedChunk {
  bytes: Uint8Array;
  delay: number;
}

/** A body that sleeps before each write and waits `closeDelay` after the last one. */
export function pacedBody(
  chunks: Iterable<TimedChunk>,
  closeDelay: number,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  const it = chunks[Symbol.iterator]();
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    signal?.removeEventListener("abort", onAbort);
    it.return?.();
  };
  const close = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    finish();
    try {
      controller.close();
    } catch {
      // Already cancelled by the reader.
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (stop.signal.aborted) return close(controller);
        const next = it.next();
        if (next.done) {
          await sleep(closeDelay, stop.signal);
          return close(controller);
        }
        await sleep(next.value.delay, stop.signal);
        if (stop.signal.aborted) return close(controller);
        controller.enqueue(next.value.bytes);
      },
      cancel() {
        stop.abort();
        finish();
      },
    },
    // Pull only when the reader asks, so pauses start when the previous write was taken.
    { highWaterMark: 0 },
  );
}
