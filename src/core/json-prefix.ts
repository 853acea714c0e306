/**
 * The start of a value's JSON text, read only as far as it reaches. JSON.stringify writes a whole value before a
 * caller cuts it: a 50 MB answer costs 50 MB of text (and the time to make it) to show 160 characters. This walker
 * writes what JSON.stringify would (same key order, escaping, toJSON, wrapper objects, undefined members left out or
 * written null) and stops once it has more than `max` characters. It keeps its own stack: any depth is safe.
 */
import { MAX_JSON_DEPTH } from "./json-depth.js";

/**
 * What the walk found: the text (longer than `max` when cut, and then only its first `max + 1` characters are
 * JSON.stringify's), or why JSON cannot write the value: `deep` (a container nested MAX_JSON_DEPTH levels down, a
 * cycle among them), `unwritable` (a BigInt, a toJSON or getter that throws), `nothing` (undefined, a function).
 */
export type JsonPrefix = { text: string } | { none: "deep" | "unwritable" | "nothing" };

/**
 * Past the cut, the walk looks on through this many more members without writing them, so a value too deep to write
 * whose depth starts near its beginning (a few members a level) is still told from a long one, as JSON.stringify,
 * which throws there, tells it. A value whose depth starts further on shows its start.
 */
const LOOK_ON = 4 * MAX_JSON_DEPTH;

class TooDeep {}
const TOO_DEEP = new TooDeep();

/** A container being written: its members still to visit. */
interface Frame {
  value: Record<string, unknown>;
  /** Keys of an object; undefined for an array. */
  keys: string[] | undefined;
  length: number;
  next: number;
  /** Whether a member has been written (a comma goes before the next). */
  wrote: boolean;
}

export function jsonPrefix(value: unknown, max: number): JsonPrefix {
  const parts: string[] = [];
  let size = 0;
  let looked = 0;
  const full = () => size > max;
  const write = (s: string) => {
    if (size <= max) {
      parts.push(s);
      size += s.length;
    }
  };
  // A long string is escaped only as far as the text reaches: its first n characters escape to at least n, and how
  // the last of them escapes depends on the one after it (a surrogate pair), so n + 1 are kept.
  const writeString = (s: string) => {
    if (full()) return;
    const room = max - size + 1;
    write(JSON.stringify(s.length > room ? s.slice(0, room) : s));
  };
  const stack: Frame[] = [];
  // The containers being written: meeting one again is a cycle, which JSON cannot write and which nests without end.
  const open = new Set<object>();

  /** Writes one value (after toJSON); false when JSON leaves it out (undefined, a function, a symbol). */
  const put = (v: unknown): boolean => {
    if (v === null) write("null");
    else if (typeof v === "string") writeString(v);
    else if (typeof v === "number" || typeof v === "boolean") write(JSON.stringify(v));
    else if (typeof v === "bigint") throw new TypeError("BigInt");
    else if (typeof v !== "object") return false;
    else {
      if (stack.length >= MAX_JSON_DEPTH || open.has(v)) throw TOO_DEEP;
      open.add(v);
      const o = v as Record<string, unknown>;
      const keys = Array.isArray(o) ? undefined : Object.keys(o);
      write(keys ? "{" : "[");
      stack.push({ value: o, keys, length: keys ? keys.length : (o as unknown as unknown[]).length, next: 0, wrote: false });
    }
    return true;
  };

  try {
    if (!put(prepared(value, ""))) return { none: "nothing" };
    while (stack.length > 0) {
      if (full() && looked++ > LOOK_ON) break;
      const f = stack[stack.length - 1]!;
      if (f.next >= f.length) {
        stack.pop();
        open.delete(f.value);
        write(f.keys ? "}" : "]");
        continue;
      }
      const i = f.next++;
      if (f.keys) {
        const key = f.keys[i]!;
        const v = prepared(f.value[key], key);
        if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
        if (f.wrote) write(",");
        f.wrote = true;
        writeString(key);
        write(":");
        put(v);
      } else {
        if (i > 0) write(",");
        if (!put(prepared(f.value[i], String(i)))) write("null");
      }
    }
  } catch (e) {
    return { none: e === TOO_DEEP ? "deep" : "unwritable" };
  }
  return { text: parts.join("") };
}

/** A member as JSON writes it: through its toJSON, and a Number, String, Boolean or BigInt object as its value. */
function prepared(v: unknown, key: string): unknown {
  if ((typeof v === "object" && v !== null) || typeof v === "bigint") {
    const toJSON = (v as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") v = toJSON.call(v, key) as unknown;
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto === Object.prototype || proto === null) return v;
  if (has(Number.prototype.valueOf, v)) return Number(v);
  if (has(String.prototype.valueOf, v)) return String(v);
  if (has(Boolean.prototype.valueOf, v)) return Boolean.prototype.valueOf.call(v);
  if (has(BigInt.prototype.valueOf, v)) return BigInt.prototype.valueOf.call(v);
  return v;
}

/** Whether `v` is the wrapper object a primitive's valueOf accepts (which throws on anything else). */
function has(valueOf: (this: unknown) => unknown, v: unknown): boolean {
  try {
    valueOf.call(v);
    return true;
  } catch {
    return false;
  }
}
