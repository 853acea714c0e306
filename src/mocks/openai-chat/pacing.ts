/**
 * The streaming physics of the mock (protocol doc §6 "Timing knobs"): delays in milliseconds and
 * fragment sizes in characters (code points). Start options set them, scenarios may suggest or
 * impose them, and a request may override them with query parameters (`?argFragment=0`).
 */
import { tooLongProblem } from "../../core/mock/option-checks.js";

export interface OpenaiChatPacing {
  /** Before the response head. */
  headersDelayMs: number;
  /** Before the first chunk (and before a non-streamed body). */
  ttftMs: number;
  /** Between chunks. */
  chunkDelayMs: number;
  /** Characters per content / reasoning delta (≥ 1). */
  textFragment: number;
  /** Characters per arguments delta; 0 = the whole arguments in the call's first delta. */
  argFragment: number;
  /** 0 = off; else a `: ping` comment every keepAliveMs while waiting. */
  keepAliveMs: number;
  /** After `[DONE]` before the body ends. */
  closeDelayMs: number;
  /** Up to this much extra (seeded) delay before each chunk. */
  jitterMs: number;
  /** Between the writes of one event when a framing cuts it (split-*). */
  chunkGapMs: number;
}

export const DEFAULT_PACING: Readonly<OpenaiChatPacing> = {
  headersDelayMs: 0,
  ttftMs: 100,
  chunkDelayMs: 20,
  textFragment: 8,
  argFragment: 8,
  keepAliveMs: 0,
  closeDelayMs: 0,
  jitterMs: 0,
  chunkGapMs: 0,
};

export const PACING_KEYS = Object.keys(DEFAULT_PACING) as (keyof OpenaiChatPacing)[];

/** Null when the value is acceptable for the knob, else why not. */
export function pacingProblem(key: keyof OpenaiChatPacing, value: unknown): string | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || !Number.isInteger(value)) {
    return `${key} must be an integer >= 0, got ${JSON.stringify(value)}`;
  }
  if (key === "textFragment" && value < 1) return "textFragment must be >= 1";
  return tooLongProblem(key, value);
}

/** Merges layers, later ones winning; undefined fields are skipped. */
export function mergePacing(...layers: (Partial<OpenaiChatPacing> | undefined)[]): OpenaiChatPacing {
  const out: OpenaiChatPacing = { ...DEFAULT_PACING };
  for (const layer of layers) {
    if (!layer) continue;
    for (const k of PACING_KEYS) {
      const v = layer[k];
      if (v !== undefined) out[k] = v;
    }
  }
  return out;
}
