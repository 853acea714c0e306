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

/** The writes of a paced body, for a server that writes them itself (see {@link takeOverPacedBody}). */
export interface PacedSource {
  next(): IteratorResult<TimedChunk>;
  closeDelay: number;
  /** Stops the source (the reader went away); safe to call twice. */
  stop(): void;
}

const PACED = Symbol("agentwire.pacedBody");

/**
 * The writes behind a paced body that nobody has read yet, taken over whole: the node server then
 * writes each chunk to the socket itself, without a web stream between (the same bytes, the same
 * pauses, one write each). The stream itself then ends empty. Undefined for any other body.
 */
export function takeOverPacedBody(body: ReadableStream<Uint8Array> | null): PacedSource | undefined {
  const take = (body as unknown as { [PACED]?: () => PacedSource | undefined } | null)?.[PACED];
  return take?.();
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
  let started = false;
  let takenOver = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        started = true;
        if (takenOver || stop.signal.aborted) return close(controller);
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
  Object.defineProperty(stream, PACED, {
    value: (): PacedSource | undefined => {
      if (started || takenOver) return undefined;
      takenOver = true;
      // Nothing waits on `stop` once the body is taken over: a flag ends it without building an
      // AbortError per answer.
      let halted = false;
      return {
        next: () => (halted || stop.signal.aborted ? { done: true, value: undefined } : it.next()),
        closeDelay,
        stop: () => {
          halted = true;
          finish();
        },
      };
    },
  });
  return stream;
}
