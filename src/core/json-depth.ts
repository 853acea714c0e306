/**
 * Walking a target's JSON without the call stack. JSON.parse takes any depth, but a recursive walk of what it built
 * (a comparison, a canonical text, JSON.stringify itself) overflows the stack a few thousand levels down: a payload
 * of 25 KB can nest that deep. These walkers keep their own stack, so any depth a parser returns is safe, and a
 * server's deep payload is judged like any other instead of crashing the check that reads it.
 *
 * No imports: the stagewise library (browser-safe) uses these too.
 */

/** How deep a walker that reports a path (and so recurses) follows a target's JSON before it stops. */
export const MAX_JSON_DEPTH = 1000;

/** What a bounded walker reports where a value goes deeper than it follows. */
export const tooDeep = (limit = MAX_JSON_DEPTH): string => `nested deeper than ${limit} levels`;

/** JSON.stringify, or undefined where it throws (a value nested deeper than the stack goes, a BigInt, a cycle). */
export function stringifyOrUndefined(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Whether a value nests arrays and objects deeper than `limit` levels (a scalar is level 0). */
export function nestedDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const todo: unknown[] = [value];
  const depths: number[] = [0];
  while (todo.length > 0) {
    const v = todo.pop();
    const d = depths.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d >= limit) return true;
    const items = Array.isArray(v) ? v : Object.values(v);
    for (const x of items) {
      if (typeof x !== "object" || x === null) continue;
      todo.push(x);
      depths.push(d + 1);
    }
  }
  return false;
}

/**
 * Deep equality of JSON values: key order ignored, a member holding undefined counts as absent, array order kept,
 * scalars equal where JSON writes them alike. Iterative: any depth.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const todo: unknown[] = [a, b];
  while (todo.length > 0) {
    const y = todo.pop();
    const x = todo.pop();
    if (x === y) continue;
    if (x === null || y === null || typeof x !== "object" || typeof y !== "object") {
      if ((typeof x === "object" && x !== null) || (typeof y === "object" && y !== null)) return false;
      // Scalars as JSON writes them (as canonicalText does): NaN is null.
      if (JSON.stringify(x) !== JSON.stringify(y)) return false;
      continue;
    }
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      // Equal members (most of them, comparing neighbouring snapshots) are not pushed.
      for (let i = 0; i < x.length; i++) if (x[i] !== ys[i]) todo.push(x[i], ys[i]);
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    let n = 0;
    for (const k in xo) {
      const v = xo[k];
      if (!Object.hasOwn(xo, k) || v === undefined) continue;
      if (!Object.hasOwn(yo, k)) return false;
      if (v !== yo[k]) todo.push(v, yo[k]);
      n++;
    }
    for (const k in yo) if (Object.hasOwn(yo, k) && yo[k] !== undefined) n--;
    if (n !== 0) return false;
  }
  return true;
}

/** Literal text in canonicalText's work list (never a value: values come from JSON). */
class Text {
  constructor(readonly text: string) {}
}
const OPEN_ARRAY = new Text("[");
const CLOSE_ARRAY = new Text("]");
const CLOSE_OBJECT = new Text("}");
const COMMA = new Text(",");

/**
 * A canonical JSON text (keys sorted, members holding undefined left out): two values are jsonEqual exactly when
 * their texts are equal. A bare undefined writes `undefined`. Iterative: any depth.
 */
export function canonicalText(value: unknown): string {
  const parts: string[] = [];
  const todo: unknown[] = [value];
  while (todo.length > 0) {
    const v = todo.pop();
    if (v instanceof Text) {
      parts.push(v.text);
      continue;
    }
    if (v === null || typeof v !== "object") {
      parts.push(JSON.stringify(v) ?? "undefined");
      continue;
    }
    if (Array.isArray(v)) {
      todo.push(CLOSE_ARRAY);
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push(v[i]);
        if (i > 0) todo.push(COMMA);
      }
      todo.push(OPEN_ARRAY);
      continue;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined);
    todo.push(CLOSE_OBJECT);
    for (let i = keys.length - 1; i >= 0; i--) {
      todo.push(o[keys[i]!]);
      todo.push(new Text(`${i > 0 ? "," : "{"}${JSON.stringify(keys[i])}:`));
    }
    if (keys.length === 0) todo.push(new Text("{"));
  }
  return parts.join("");
}

/**
 * A deep copy of a JSON value (arrays and plain objects copied, anything else — a Date — through structuredClone),
 * as structuredClone would make it but at any depth: structuredClone itself recurses, and overflows on a deep value.
 */
export function copyJson<T>(value: T): T {
  const copyOf = (v: unknown): unknown => {
    if (typeof v !== "object" || v === null) return v;
    if (Array.isArray(v)) return new Array<unknown>(v.length);
    const proto = Object.getPrototypeOf(v) as unknown;
    return proto === Object.prototype || proto === null ? {} : structuredClone(v);
  };
  const root = copyOf(value);
  // Pairs of (original, its fresh copy) whose members are still to copy.
  const todo: [unknown, unknown][] = [];
  if (root !== value && typeof value === "object" && value !== null && (Array.isArray(value) || isPlain(value))) todo.push([value, root]);
  while (todo.length > 0) {
    const [from, to] = todo.pop()!;
    const source = from as Record<string, unknown>;
    const target = to as Record<string, unknown>;
    for (const k of Object.keys(source)) {
      const v = source[k];
      const c = copyOf(v);
      // An own "__proto__" member (JSON.parse makes one) stays a member, as structuredClone keeps it.
      if (k === "__proto__") Object.defineProperty(target, k, { value: c, writable: true, enumerable: true, configurable: true });
      else target[k] = c;
      if (c !== v && (Array.isArray(v) || isPlain(v))) todo.push([v, c]);
    }
  }
  return root as T;
}

function isPlain(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}
