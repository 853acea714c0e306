/** Timing helpers shared by the mocks (browser-safe: no node imports). */

/**
 * The longest pause a timer keeps (2^31 − 1 ms, about 24.8 days): node and browsers fire a longer
 * one after 1 ms (node warning each time), so a mock refuses a delay knob above it.
 */
export const MAX_DELAY_MS = 2 ** 31 - 1;

/** `ms` as a timer may be given it: a longer pause (knobs multiplied, added up) waits as long as a timer can, not 1 ms. */
export function timerMs(ms: number): number {
  return ms > MAX_DELAY_MS ? MAX_DELAY_MS : ms;
}

/** Resolves after `ms`, or at once when `signal` aborts. Zero or less resolves immediately. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const t = setTimeout(done, timerMs(ms));
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Small seeded PRNG (mulberry32): reproducible splits and jitter for a given seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
