/**
 * Folding the hook records of several faults (and a framing or profile) into one. A mock's hooks are
 * optional transforms and flags; the fold is declared per key: flag groups merge, overrides keep the
 * last one set, transforms compose in order.
 */

/** Runs `a` then `b` on the same extra arguments; either may be absent. */
export function chain<T, A extends unknown[]>(
  a: ((x: T, ...rest: A) => T) | undefined,
  b: ((x: T, ...rest: A) => T) | undefined,
): ((x: T, ...rest: A) => T) | undefined {
  if (!a || !b) return a ?? b;
  return (x, ...rest) => b(a(x, ...rest), ...rest);
}

/** The first reason either check gives (`a` asked first); either may be absent. */
export function firstReason<A extends unknown[]>(
  a: ((...args: A) => string | null) | undefined,
  b: ((...args: A) => string | null) | undefined,
): ((...args: A) => string | null) | undefined {
  if (!a || !b) return a ?? b;
  return (...args) => a(...args) ?? b(...args);
}

export interface HookFold<H> {
  /** Objects whose fields merge, a later record's fields winning. */
  merge?: readonly (keyof H & string)[];
  /** With merge: array fields concatenate instead of being replaced. */
  concatArrays?: boolean;
  /** Values where the last record that sets one wins. */
  last?: readonly (keyof H & string)[];
  /** Transforms `(x, ...rest) => x`, run in the order of the records. */
  compose?: readonly (keyof H & string)[];
  /** Whatever folds in its own way, given the fold so far and the next record. */
  custom?: (out: H, next: H) => void;
}

type Fn = (x: unknown, ...rest: unknown[]) => unknown;

/** The fold of a list of records, as declared. */
export function hookFolder<H extends object>(fold: HookFold<H>): (list: readonly H[]) => H {
  const merge = (fold.merge ?? []) as readonly string[];
  const last = (fold.last ?? []) as readonly string[];
  const compose = (fold.compose ?? []) as readonly string[];
  return (list) => {
    const out: Record<string, unknown> = {};
    for (const h of list) {
      const next = h as Record<string, unknown>;
      for (const k of merge) {
        const add = next[k] as Record<string, unknown> | undefined;
        if (!add) continue;
        const merged: Record<string, unknown> = { ...(out[k] as Record<string, unknown> | undefined) };
        for (const [field, v] of Object.entries(add)) {
          const prev = merged[field];
          merged[field] = fold.concatArrays && Array.isArray(prev) && Array.isArray(v) ? [...prev, ...v] : v;
        }
        out[k] = merged;
      }
      for (const k of last) out[k] = next[k] ?? out[k];
      for (const k of compose) out[k] = chain(out[k] as Fn | undefined, next[k] as Fn | undefined);
      fold.custom?.(out as H, h);
    }
    return out as H;
  };
}
