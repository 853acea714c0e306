/**
 * Turns steps into a paced SSE body: frame each event as it is generated (core/sse-framing), attach
 * the pause before each write, add `: ping` comments while waiting when keep-alive is on, then let a
 * pull-driven ReadableStream sleep and write. Nothing holds the whole answer, and a client that goes
 * away stops the generator and clears the pending timer.
 */
import { concatBytes, createSseFramer, type SseFormat } from "../../core/sse-framing.js";
import { seededRandom } from "../../core/timing.js";
import type { OpenaiChatPacing } from "./pacing.js";
import type { Step } from "./steps.js";

/** One body write and the pause before it. */
export interface Chunk {
  bytes: Uint8Array;
  delay: number;
}

export type ChunkTransform = (chunks: Iterable<Chunk>) => Iterable<Chunk>;

export interface WritePlan {
  steps: Iterable<Step>;
  format: SseFormat;
  pacing: OpenaiChatPacing;
  seed: number;
}

const encoder = new TextEncoder();

export function payloadOf(data: Step["data"]): string | Uint8Array {
  return typeof data === "string" || data instanceof Uint8Array ? data : JSON.stringify(data);
}

/** The writes of one stream, each with the pause before it. */
export function* planWrites(plan: WritePlan): Generator<Chunk> {
  const { pacing, format } = plan;
  const framer = createSseFramer(format, { seed: plan.seed });
  const jitter = seededRandom(plan.seed ^ 0x5bd1e995);
  const eol = typeof format.eol === "string" ? format.eol : (format.eol[0] ?? "\n");
  const ping = encoder.encode(`: ping${eol}`);
  const steps = plan.steps[Symbol.iterator]();
  let owed = 0;
  let index = 0;
  let current = steps.next();
  while (!current.done) {
    // One step of look-ahead: some framings treat the last event differently.
    const next = steps.next();
    const step = current.value;
    let wait = step.wait ?? (index === 0 ? pacing.ttftMs : pacing.chunkDelayMs);
    if (pacing.jitterMs > 0) wait += Math.round(jitter() * pacing.jitterMs);
    if (pacing.keepAliveMs > 0) {
      while (wait >= pacing.keepAliveMs) {
        // Bytes a framing holds back go out first, so a comment never lands inside an event.
        for (const bytes of framer.end()) {
          yield { bytes, delay: owed };
          owed = 0;
        }
        yield { bytes: ping, delay: owed + pacing.keepAliveMs };
        owed = 0;
        wait -= pacing.keepAliveMs;
      }
    }
    owed += wait;
    const pieces = framer.push(payloadOf(step.data), { last: next.done === true });
    for (let i = 0; i < pieces.length; i++) {
      yield { bytes: pieces[i] as Uint8Array, delay: i === 0 ? owed : pacing.chunkGapMs };
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

export { pacedBody } from "../../core/paced-body.js";

/** Waits out every pause, then writes everything at once. */
export function* bufferAll(chunks: Iterable<Chunk>): Iterable<Chunk> {
  const held: Uint8Array[] = [];
  let delay = 0;
  for (const c of chunks) {
    held.push(c.bytes);
    delay += c.delay;
  }
  if (held.length) yield { bytes: concatBytes(held), delay };
}
