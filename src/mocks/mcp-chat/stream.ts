/**
 * Turns an answer's steps into a paced SSE body: frame each event as it is generated, attach the
 * pause before each write, then let a pull-driven ReadableStream sleep and write. Nothing holds the
 * whole answer, and a client that goes away stops the generator and clears the pending timer.
 */
import { createSseFramer, type SseFormat } from "../../core/sse-framing.js";
import { seededRandom } from "../../core/timing.js";
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

export { pacedBody } from "../../core/paced-body.js";
