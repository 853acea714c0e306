/**
 * The unit the mock streams: a step is one SSE event (a chunk object, the `[DONE]` sentinel, or raw
 * data) tagged with what it is, so faults and framings can rewrite the step sequence precisely with
 * the small generator helpers below. Steps are generated lazily, one at a time.
 */

import type { PayloadBytes } from "../../core/mock/sse-writes.js";

export type Json = Record<string, unknown>;

export type StepKind =
  /** The first chunk when it carries no tool call: `{role: "assistant", content: ""}`. */
  | "role"
  | "reasoning"
  | "text"
  /** A tool-call delta; `call` says which call and whether it is the call's first delta. */
  | "tool"
  /** `delta: {}` with the finish reason. */
  | "finish"
  /** `choices: []` with `usage`. */
  | "usage"
  /** An in-stream error payload. */
  | "error"
  | "done"
  /** Anything a fault or framing adds. */
  | "extra";

export interface CallRef {
  /** Position of the call in the response (its stream index). */
  index: number;
  id: string;
  name: string;
  /** The call's whole arguments string. */
  arguments: string;
  /** The call's first delta (id, type, name). */
  first: boolean;
}

export interface Step {
  kind: StepKind;
  /** A chunk object, a sentinel / raw string, or raw bytes (invalid UTF-8 faults). */
  data: Json | string | Uint8Array;
  /** Pause before the step in ms (default: ttftMs for the first step, chunkDelayMs after). */
  wait?: number;
  call?: CallRef;
  /** The data's JSON text, rendered with it (a stream no hook rewrites; see answerSteps). */
  json?: string;
  /** The same JSON as UTF-8 bytes in pieces, for a format that writes events whole. */
  jsonBytes?: PayloadBytes;
}

export const DONE = "[DONE]";

export const isChunk = (data: Step["data"]): data is Json => typeof data === "object" && !(data instanceof Uint8Array);

/** The first choice's delta of a chunk step (undefined for other steps). */
export function deltaOf(step: Step): Json | undefined {
  if (!isChunk(step.data)) return undefined;
  const choices = step.data.choices;
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  return (choices[0] as Json).delta as Json | undefined;
}

/** Tool-call entries of a step's delta. */
export function toolEntries(step: Step): Json[] {
  const calls = deltaOf(step)?.tool_calls;
  return Array.isArray(calls) ? (calls as Json[]) : [];
}

/** A deep copy of a step's chunk, changed by `fn` (the original is left alone). */
export function editChunk(step: Step, fn: (chunk: Json, delta: Json, choice: Json) => void): Step {
  if (!isChunk(step.data)) return step;
  const chunk = structuredClone(step.data);
  const choice = (Array.isArray(chunk.choices) ? chunk.choices[0] : undefined) as Json | undefined;
  fn(chunk, (choice?.delta ?? {}) as Json, choice ?? {});
  return { ...step, data: chunk };
}

/** A new chunk in the step's envelope carrying `delta` (finish reason null, no call reference). */
export function withDelta(step: Step, delta: Json, kind: StepKind = "extra"): Step {
  const out = editChunk(step, (_c, _d, choice) => {
    choice.delta = delta;
    choice.finish_reason = null;
  });
  const { call: _call, ...rest } = out;
  return { ...rest, kind };
}

export type StepTransform<C> = (steps: Iterable<Step>, ctx: C) => Iterable<Step>;

/** Rewrites each step; an array replaces it by zero or more steps. */
export function mapSteps<C = unknown>(fn: (step: Step, ctx: C) => Step | Step[]): StepTransform<C> {
  return function* (steps, ctx) {
    for (const s of steps) {
      const r = fn(s, ctx);
      if (Array.isArray(r)) yield* r;
      else yield r;
    }
  };
}

export function mapKind<C = unknown>(
  kinds: StepKind | StepKind[],
  fn: (step: Step, ctx: C) => Step | Step[],
): StepTransform<C> {
  const set = new Set(Array.isArray(kinds) ? kinds : [kinds]);
  return mapSteps<C>((s, ctx) => (set.has(s.kind) ? fn(s, ctx) : s));
}

/** Rewrites the tool-call entries of every tool step. */
export function mapToolEntries<C = unknown>(fn: (entry: Json, step: Step) => void): StepTransform<C> {
  return mapKind<C>("tool", (s) =>
    editChunk(s, (_c, delta) => {
      for (const e of (delta.tool_calls as Json[] | undefined) ?? []) fn(e, s);
    }),
  );
}

export const dropKind = <C = unknown>(kind: StepKind): StepTransform<C> => mapSteps<C>((s) => (s.kind === kind ? [] : s));

export const prependSteps =
  <C = unknown>(...first: Step[]): StepTransform<C> =>
  function* (steps) {
    yield* first;
    yield* steps;
  };
