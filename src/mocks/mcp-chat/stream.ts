/**
 * Turns an answer's steps into a paced SSE body (core/mock/sse-writes): the mcp-chat part is how a
 * step's data becomes JSON and how long each step waits.
 */
import { planSseWrites } from "../../core/mock/sse-writes.js";
import { scaleMs } from "../../core/client-cases/time-scale.js";
import type { SseFormat } from "../../core/transport/sse-framing.js";
import { eventJson, type EventJsonStyle } from "./event-json.js";
import type { Step, StepData, Wait } from "./events.js";
import type { Chunk, McpChatTiming } from "./hooks.js";

export interface StreamPlan {
  steps: Iterable<Step>;
  format: SseFormat;
  timing: McpChatTiming;
  seed: number;
  /** Factor on the waits a scenario sets itself (a slow tool); default 1. */
  timeScale?: number;
  json: EventJsonStyle;
}

/** JSON text of frozen event data (a scenario's steps made once), by style: written once, served to every stream. */
const written = new WeakMap<object, Record<string, string>>();

export function payloadOf(data: StepData, style: EventJsonStyle): string | Uint8Array {
  if (typeof data === "string" || data instanceof Uint8Array) return data;
  if (!Object.isFrozen(data)) return eventJson(data, style);
  let byStyle = written.get(data);
  if (!byStyle) written.set(data, (byStyle = {}));
  return (byStyle[`${style.compact === true ? "c" : "p"}${style.ascii === true ? "a" : "u"}`] ??= eventJson(data, style));
}

function waitMs(wait: Wait | undefined, timing: McpChatTiming, timeScale: number): number {
  if (typeof wait === "number") return scaleMs(wait, timeScale);
  return wait === "tool" ? timing.toolDuration : timing.eventDelay;
}

/** The writes of one stream, each with the pause before it. */
export function planChunks(plan: StreamPlan): Generator<Chunk> {
  const { timing } = plan;
  return planSseWrites<Step>({
    steps: plan.steps,
    format: plan.format,
    seed: plan.seed,
    payload: (step) => payloadOf(step.data, plan.json),
    wait: (step, index) => (index === 0 ? timing.firstEventDelay : waitMs(step.wait, timing, plan.timeScale ?? 1)),
    jitter: timing.jitter,
    chunkGap: timing.chunkGap,
  });
}

export { pacedBody } from "../../core/mock/paced-body.js";
