/** Copies of the adapter's values (updates, messages) at a fraction of structuredClone's cost. Browser-safe. */

/**
 * A copy of `value` as structuredClone makes it, without its cost for what updates almost always are: trees of plain
 * objects, arrays and primitives. Anything else (a Date, an object met twice, a hole, nesting deeper than a value
 * of the protocol goes) is left to structuredClone.
 */
export function copyOf<T>(value: T): T {
  const copy = plainCopy(value, new Set(), 0);
  return copy === NOT_PLAIN ? structuredClone(value) : (copy as T);
}

const NOT_PLAIN = Symbol("not plain");
const MAX_DEPTH = 256;

function plainCopy(value: unknown, seen: Set<object>, depth: number): unknown {
  if (typeof value !== "object" || value === null) return typeof value === "function" || typeof value === "symbol" ? NOT_PLAIN : value;
  if (seen.has(value) || depth > MAX_DEPTH) return NOT_PLAIN;
  seen.add(value);
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return NOT_PLAIN;
      const item = plainCopy(value[i], seen, depth + 1);
      if (item === NOT_PLAIN) return NOT_PLAIN;
      out[i] = item;
    }
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    if (key === "__proto__") return NOT_PLAIN;
    const item = plainCopy((value as Record<string, unknown>)[key], seen, depth + 1);
    if (item === NOT_PLAIN) return NOT_PLAIN;
    out[key] = item;
  }
  return out;
}
