/**
 * The unit the mcp-chat mock streams: a step is one SSE event (a JSON object, a sentinel or raw
 * data) plus how long to wait before it. Scenarios yield steps lazily; faults and framings rewrite
 * the step sequence with the small generator helpers below.
 */

export type ChatEvent = Record<string, unknown> & { type: string };

/** A JSON event, a sentinel / raw text payload, or raw bytes (for invalid UTF-8). */
export type StepData = ChatEvent | string | Uint8Array;

/** "event" = eventDelay, "tool" = toolDuration (a tool running), a number = that many ms. */
export type Wait = "event" | "tool" | number;

export interface Step {
  data: StepData;
  wait?: Wait;
  /** The tool's result, for `POST /chat` only: the seed's stream never shows it. */
  result?: string;
}

export const DONE = "[DONE]";
export const errorSentinel = (message: string): string => `[ERROR] ${message}`;

export const toolStart = (id: string, name: string, args: unknown, result?: string): Step => ({
  data: { type: "tool_start", id, name, args },
  ...(result !== undefined ? { result } : {}),
});
export const toolEnd = (id: string, name: string, wait: Wait = "tool"): Step => ({
  data: { type: "tool_end", id, name },
  wait,
});
export const text = (content: string): Step => ({ data: { type: "text", content } });
export const done = (): Step => ({ data: DONE });
export const failure = (message: string, wait?: Wait): Step => ({
  data: errorSentinel(message),
  ...(wait !== undefined ? { wait } : {}),
});

export function isEvent(data: StepData, type?: string): data is ChatEvent {
  return typeof data === "object" && !(data instanceof Uint8Array) && (type === undefined || data.type === type);
}

/** A terminal payload as the canonical mock sends it (`[DONE]` or `[ERROR] …`). */
export function isSentinel(data: StepData): data is string {
  return typeof data === "string" && (data === DONE || data.startsWith("[ERROR]"));
}

export type StepTransform = (steps: Iterable<Step>) => Iterable<Step>;

/** Rewrites each step; returning an array replaces it by zero or more steps. */
export function mapSteps(fn: (step: Step) => Step | Step[]): StepTransform {
  return function* (steps) {
    for (const s of steps) {
      const r = fn(s);
      if (Array.isArray(r)) yield* r;
      else yield r;
    }
  };
}

export function mapEvents(type: string, fn: (event: ChatEvent, step: Step) => ChatEvent): StepTransform {
  return mapSteps((s) => (isEvent(s.data, type) ? { ...s, data: fn(s.data, s) } : s));
}

export const dropSteps = (pred: (step: Step) => boolean): StepTransform =>
  mapSteps((s) => (pred(s) ? [] : s));

export const prependSteps = (...first: Step[]): StepTransform =>
  function* (steps) {
    yield* first;
    yield* steps;
  };

/** Rewrites the first sentinel into zero or more steps (the terminal faults). */
export const replaceSentinel = (fn: (sentinel: string, step: Step) => Step[]): StepTransform =>
  function* (steps) {
    let seen = false;
    for (const s of steps) {
      if (!seen && isSentinel(s.data)) {
        seen = true;
        yield* fn(s.data, s);
      } else yield s;
    }
  };

/** Adds steps after the first sentinel. */
export const afterSentinel = (...more: Step[]): StepTransform =>
  replaceSentinel((_, s) => [s, ...more]);
