/**
 * Turns steps into a paced SSE body (core/mock/sse-writes): the openai-chat part is how a step's
 * data becomes JSON and how the pacing knobs time each step, with `: ping` comments while waiting
 * when keep-alive is on.
 */
import type { ChunkTransform as CoreChunkTransform } from "../../core/mock/sse-writes.js";
import { planSseWrites } from "../../core/mock/sse-writes.js";
import type { TimedChunk } from "../../core/mock/paced-body.js";
import type { SseFormat } from "../../core/transport/sse-framing.js";
import type { OpenaiChatPacing } from "./pacing.js";
import type { Step } from "./steps.js";

/** One body write and the pause before it. */
export type Chunk = TimedChunk;

export type ChunkTransform = CoreChunkTransform;

export interface WritePlan {
  steps: Iterable<Step>;
  format: SseFormat;
  pacing: OpenaiChatPacing;
  seed: number;
}

export function payloadOf(data: Step["data"]): string | Uint8Array {
  return typeof data === "string" || data instanceof Uint8Array ? data : JSON.stringify(data);
}

/** The writes of one stream, each with the pause before it. */
export function planWrites(plan: WritePlan): Generator<Chunk> {
  const { pacing } = plan;
  return planSseWrites<Step>({
    steps: plan.steps,
    format: plan.format,
    seed: plan.seed,
    payload: (step) => step.json ?? payloadOf(step.data),
    payloadBytes: (step) => step.jsonBytes,
    wait: (step, index) => step.wait ?? (index === 0 ? pacing.ttftMs : pacing.chunkDelayMs),
    jitter: pacing.jitterMs,
    chunkGap: pacing.chunkGapMs,
    keepAlive: pacing.keepAliveMs,
  });
}

export { pacedBody } from "../../core/mock/paced-body.js";
export { bufferAll } from "../../core/mock/sse-writes.js";
