/**
 * A tRPC subscription body fed by pushes: `start` runs synchronously when the toolbar's subscription begins, so the
 * values it returns (a snapshot) and its registration for later pushes happen at one instant (r6).
 */
export function pushStream<T>(
  start: (push: (value: T) => void) => { initial: readonly T[]; stop: () => void },
): (opts: { signal?: AbortSignal | undefined }) => AsyncGenerator<T, void, unknown> {
  return async function* ({ signal }) {
    let buffer: T[] = [];
    let wake: (() => void) | null = null;
    const rouse = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    const { initial, stop } = start((value) => {
      buffer.push(value);
      rouse();
    });
    signal?.addEventListener("abort", rouse);
    try {
      for (const value of initial) yield value;
      while (!signal?.aborted) {
        if (buffer.length === 0) {
          await new Promise<void>((resolve) => (wake = resolve));
          continue;
        }
        const batch = buffer;
        buffer = [];
        for (const value of batch) yield value;
      }
    } finally {
      stop();
      signal?.removeEventListener("abort", rouse);
    }
  };
}
