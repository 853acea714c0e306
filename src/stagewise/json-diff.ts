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
 */
export function firstJsonDifference(actual: unknown, expected: unknown, path = ""): JsonDifference | undefined {
  if (actual === expected) return undefined;
  if (Array.isArray(actual) || Array.isArray(expected)) {
    if (!Array.isArray(actual) || !Array.isArray(expected)) return { path, actual, expected };
    const shared = Math.min(actual.length, expected.length);
    for (let i = 0; i < shared; i++) {
      const diff = firstJsonDifference(actual[i], expected[i], `${path}/${i}`);
      if (diff) return diff;
    }
    if (actual.length === expected.length) return undefined;
    return { path: `${path}/${shared}`, actual: actual[shared], expected: expected[shared] };
  }
  if (isObject(actual) && isObject(expected)) {
    const keys = [...Object.keys(expected), ...Object.keys(actual).filter((key) => !Object.hasOwn(expected, key))];
    for (const key of keys) {
      const diff = firstJsonDifference(actual[key], expected[key], `${path}/${pointerToken(key)}`);
      if (diff) return diff;
    }
    return undefined;
  }
  if (typeof actual === "number" && typeof expected === "number" && Number.isNaN(actual) && Number.isNaN(expected)) return undefined;
  return { path, actual, expected };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
