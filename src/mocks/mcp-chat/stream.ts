/**
 * Turns an answer's steps into a paced SSE body (core/mock/sse-writes): the mcp-chat part is how a
 * step's data becomes JSON and how long each step waits.
 */
import { planSseWrites } from "../../core/mock/sse-writes.js";
import { scaleMs } from "../../core/client-cases/time-scale.js";
import type { SseFormat } from "../../core/transport/sse-framing.js";
import { eventJson, type EventJsonStyle } from "./event-json.js";
import { LONG_ANSWER_TEXTS } from "./scenarios.js";
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

/**
 * JSON text of the long answer's text events, by text and style: written once per process, served to every stream. Only
 * for an event that is exactly `{type: "text", content}` (in that order), whatever a hook made of the others.
 */
const written = new Map<string, Record<string, string>>();

export function payloadOf(data: StepData, style: EventJsonStyle): string | Uint8Array {
  if (typeof data === "string" || data instanceof Uint8Array) return data;
  const content = data.content;
  if (data.type !== "text" || typeof content !== "string" || !LONG_ANSWER_TEXTS.has(content) || !typeThenContent(data)) return eventJson(data, style);
  let byStyle = written.get(content);
  if (!byStyle) written.set(content, (byStyle = {}));
  return (byStyle[`${style.compact === true ? "c" : "p"}${style.ascii === true ? "a" : "u"}`] ??= eventJson(data, style));
}

/** The event's own keys are `type` then `content`, and nothing else (its JSON is then its text's). */
function typeThenContent(data: object): boolean {
  const keys = Object.keys(data);
  return keys.length === 2 && keys[0] === "type" && keys[1] === "content";
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
