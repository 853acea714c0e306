/**
 * Checks of a mock's options: a bad number or value fails loudly, naming the option, before the
 * mock serves anything. Browser-safe.
 */
import { MockOptionError } from "../run/protocol.js";
import { MAX_DELAY_MS } from "./timing.js";

/** Throws option errors prefixed with the mock's name, the form every mock uses. */
export function optionFailure(protocolId: string): (message: string) => never {
  return (message) => {
    throw new MockOptionError(`${protocolId} mock: ${message}`);
  };
}

/** Why a knob is not a number (of `unit`) >= 0 that a timer can wait; null when it is one. */
export function nonNegativeProblem(unit?: string): (key: string, v: unknown) => string | null {
  const what = unit ? `a number of ${unit}` : "a number";
  return (key, v) =>
    typeof v !== "number" || !Number.isFinite(v) || v < 0 ? `${key} must be ${what} >= 0, got ${String(v)}` : tooLongProblem(key, v);
}

/** Why a number is above what a timer can wait (see MAX_DELAY_MS); null when it is not. */
export function tooLongProblem(key: string, v: number): string | null {
  return v > MAX_DELAY_MS ? `${key} must be at most ${MAX_DELAY_MS} (the longest a timer waits, about 24.8 days), got ${v}` : null;
}

/** The numeric knobs given explicitly, each checked; the first bad one fails. */
export function givenNumbers<K extends string>(
  keys: readonly K[],
  options: Partial<Record<K, unknown>>,
  problem: (key: K, v: unknown) => string | null,
  fail: (message: string) => never,
): Partial<Record<K, number>> {
  const out: Partial<Record<K, number>> = {};
  for (const key of keys) {
    const v = options[key];
    if (v === undefined) continue;
    const p = problem(key, v);
    if (p) fail(p);
    out[key] = v as number;
  }
  return out;
}

/** The entries that are set: an option given as undefined must not hide a default or a setting. */
export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
