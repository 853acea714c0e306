/**
 * The first difference between two JSON values, with a JSON pointer to it. Browser-safe (node:util's
 * isDeepStrictEqual is not) and, unlike a boolean deep-equal, it says where two states part.
 */

export interface JsonDifference {
  /** JSON pointer (RFC 6901) to the first differing value; `""` for the roots. */
  path: string;
  actual: unknown;
  expected: unknown;
}

/** Escapes one reference token of a JSON pointer. */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Compares as JSON would see the values: a key holding `undefined` counts as absent, key order is ignored, array
 * order is not. A missing array element or key is reported at its own path with `undefined` on the missing side.
 * Iterative (a pending pair is on a stack of its own, not the call stack): the values may nest to any depth.
 */
export function firstJsonDifference(actual: unknown, expected: unknown, path = ""): JsonDifference | undefined {
  // Pairs still to compare, and differences found once the pairs pushed before them compare equal (an array's
  // length, checked after its shared elements), in the order the recursive walk would meet them.
  const todo: ({ actual: unknown; expected: unknown; path: string } | { found: JsonDifference })[] = [{ actual, expected, path }];
  while (todo.length > 0) {
    const next = todo.pop()!;
    if ("found" in next) return next.found;
    const { actual: a, expected: e, path: p } = next;
    if (a === e) continue;
    if (Array.isArray(a) || Array.isArray(e)) {
      if (!Array.isArray(a) || !Array.isArray(e)) return { path: p, actual: a, expected: e };
      const shared = Math.min(a.length, e.length);
      if (a.length !== e.length) todo.push({ found: { path: `${p}/${shared}`, actual: a[shared], expected: e[shared] } });
      for (let i = shared - 1; i >= 0; i--) todo.push({ actual: a[i], expected: e[i], path: `${p}/${i}` });
      continue;
    }
    if (isObject(a) && isObject(e)) {
      const keys = [...Object.keys(e), ...Object.keys(a).filter((key) => !Object.hasOwn(e, key))];
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        todo.push({ actual: a[key], expected: e[key], path: `${p}/${pointerToken(key)}` });
      }
      continue;
    }
    if (typeof a === "number" && typeof e === "number" && Number.isNaN(a) && Number.isNaN(e)) continue;
    return { path: p, actual: a, expected: e };
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
