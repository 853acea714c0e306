/**
 * A factor on the waits the robustness cases have by design: a case's own deadline, the late first
 * chunk of a slow scenario, a stream held open after its end, and every threshold a check derives
 * from them. 1 (the default) is the contract's timing; a test run shrinks all of them together, so
 * each case keeps its shape and every verdict stays what it is at full length. Browser-safe.
 */

/** Mock setting (and transcript meta field) carrying the factor. */
export const TIME_SCALE_KEY = "timeScale";

/** Whether `value` can scale time: a finite number above 0. */
export function isTimeScale(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && value > 0;
}

/** The factor from settings or meta; anything else is 1. */
export function timeScaleOf(value: unknown): number {
  return isTimeScale(value) ? value : 1;
}

/** `ms` scaled, in whole milliseconds; a wait that was there stays at least 1 ms. */
export function scaleMs(ms: number, scale: number): number {
  if (scale === 1 || ms === 0) return ms;
  return Math.max(1, Math.round(ms * scale));
}

/** A timing layer with its delay fields (`keys`) scaled; sizes and other fields kept. */
export function scaleTimes<T extends object>(layer: T | undefined, scale: number, keys: readonly string[]): T | undefined {
  if (!layer || scale === 1) return layer;
  const out = { ...layer } as Record<string, unknown>;
  for (const k of keys) if (typeof out[k] === "number") out[k] = scaleMs(out[k] as number, scale);
  return out as T;
}
