/**
 * Turns an answer's steps into a paced SSE body: frame each event as it is generated, attach the
 * pause before each write, then let a pull-driven ReadableStream sleep and write. Nothing holds the
 * whole answer, and a client that goes away stops the generator and clears the pending timer.
 */
import { createSseFramer, type SseFormat } from "../../core/sse-framing.js";
import { seededRandom, sleep } from "../../core/timing.js";
import { eventJson, type EventJsonStyle } from "./event-json.js";
import type { Step, StepData, Wait } from "./events.js";
import type { Chunk, McpChatTiming } from "./hooks.js";

export interface StreamPlan {
  steps: Iterable<Step>;
  format: SseFormat;
  timing: McpChatTiming;
  seed: number;
  json: EventJsonStyle;
}

export function payloadOf(data: StepData, style: EventJsonStyle): string | Uint8Array {
  return typeof data === "string" || data instanceof Uint8Array ? data : eventJson(data, style);
}

function waitMs(wait: Wait | undefined, timing: McpChatTiming): number {
  if (typeof wait === "number") return wait;
  return wait === "tool" ? timing.toolDuration : timing.eventDelay;
}

/** The writes of one stream, each with the pause before it. */
export function* planChunks(plan: StreamPlan): Generator<Chunk> {
  const { timing } = plan;
  const framer = createSseFramer(plan.format, { seed: plan.seed });
  const jitter = seededRandom(plan.seed ^ 0x5bd1e995);
  const steps = plan.steps[Symbol.iterator]();
  let owed = 0;
  let index = 0;
  let current = steps.next();
  while (!current.done) {
    // One step of look-ahead: some framings treat the last event differently.
    const next = steps.next();
    const step = current.value;
    owed += index === 0 ? timing.firstEventDelay : waitMs(step.wait, timing);
    if (timing.jitter > 0) owed += Math.round(jitter() * timing.jitter);
    const pieces = framer.push(payloadOf(step.data, plan.json), { last: next.done === true });
    for (let i = 0; i < pieces.length; i++) {
      yield { bytes: pieces[i] as Uint8Array, delay: i === 0 ? owed : timing.chunkGap };
    }
    // A framing that holds bytes back (coalesced, split-random) owes the pause to its next write.
    if (pieces.length) owed = 0;
    current = next;
    index++;
  }
  for (const bytes of framer.end()) {
    yield { bytes, delay: owed };
    owed = 0;
  }
}

/** A body that sleeps before each write and waits `closeDelay` after the last one. */
export function pacedBody(
  chunks: Iterable<Chunk>,
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
