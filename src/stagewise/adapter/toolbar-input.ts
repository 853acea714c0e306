/**
 * A request's `params.input` as tRPC reads it (§1: superjson's `{json, meta?}`). A malformed envelope is tRPC's
 * PARSE_ERROR with a message that says what is wrong, never superjson's internals or the engine's: a string where an
 * annotation's children go sent superjson into endless recursion ("Maximum call stack size exceeded"), no input at
 * all into a failed destructuring. A value nested deeper than the code that walks it (superjson's copy, the Date
 * conversion, the schemas) can go is not read: the procedure's parser refuses it with the request's id.
 */
import superjson from "superjson";

/** Levels of arrays and objects an input may nest: reading it recurses once per level. */
export const MAX_INPUT_DEPTH = 256;

/** What deserialization gives for input nested past MAX_INPUT_DEPTH; the parsers refuse it (BAD_REQUEST). */
export class TooDeepInput {}

/** superjson's annotations without a name, and the names of its typed arrays (nothing else is registered here). */
const PLAIN_TYPES: ReadonlySet<unknown> = new Set(["undefined", "bigint", "Date", "regexp", "set", "map", "Error", "number", "URL"]);
const TYPED_ARRAYS: ReadonlySet<unknown> = new Set([
  "Int8Array",
  "Uint8Array",
  "Int16Array",
  "Uint16Array",
  "Int32Array",
  "Uint32Array",
  "Float32Array",
  "Float64Array",
  "Uint8ClampedArray",
]);

const knownType = (type: unknown): boolean =>
  PLAIN_TYPES.has(type) || (Array.isArray(type) && type.length === 2 && type[0] === "typed-array" && TYPED_ARRAYS.has(type[1]));

const isContainer = (v: unknown): v is object => typeof v === "object" && v !== null;

/** Whether `value` nests arrays and objects deeper than `max` levels (counted without recursion). */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (!isContainer(v)) continue;
    if (depth >= max) return true;
    for (const inner of Object.values(v)) if (isContainer(inner)) stack.push([inner, depth + 1]);
  }
  return false;
}

/**
 * Why `meta.values` is not a tree superjson can apply: each node an object of subtrees by path, or
 * `[type, children?]` with a known type; null when it is one.
 */
function valuesProblem(values: unknown): string | null {
  if (deeperThan(values, MAX_INPUT_DEPTH)) return `meta.values nested deeper than ${MAX_INPUT_DEPTH} levels`;
  const stack: [unknown, string][] = [[values, ""]];
  while (stack.length > 0) {
    const [tree, at] = stack.pop() as [unknown, string];
    // superjson skips an empty node.
    if (!tree) continue;
    const where = at === "" ? "meta.values" : `meta.values at "${at}"`;
    if (!isContainer(tree)) return `${where}: ${JSON.stringify(tree)} is not an annotation`;
    const [type, children] = Array.isArray(tree) ? tree : [undefined, tree];
    if (Array.isArray(tree) && !knownType(type)) return `${where}: unknown superjson type ${JSON.stringify(type)}`;
    if (children === undefined || children === null) continue;
    if (!isContainer(children)) return `${where}: ${JSON.stringify(children)} is not an annotation`;
    for (const [key, sub] of Object.entries(children)) stack.push([sub, at === "" ? key : `${at}.${key}`]);
  }
  return null;
}

/** Why `payload` is not a superjson envelope tRPC can read; null when it is one. */
function envelopeProblem(payload: unknown): string | null {
  if (payload === undefined || payload === null) return "params.input is missing (superjson's {json, meta?})";
  if (!isContainer(payload) || Array.isArray(payload)) return `params.input must be superjson's {json, meta?}, got ${JSON.stringify(payload)}`;
  const meta = (payload as { meta?: unknown }).meta;
  if (!isContainer(meta)) return null;
  const { values, referentialEqualities } = meta as { values?: unknown; referentialEqualities?: unknown };
  if (deeperThan(referentialEqualities, MAX_INPUT_DEPTH)) return `meta.referentialEqualities nested deeper than ${MAX_INPUT_DEPTH} levels`;
  return valuesProblem(values);
}

/**
 * superjson's own refusals (a `__proto__` path, an unknown class) are Errors worded for people; anything else thrown
 * while applying the annotations (TypeError, SyntaxError: a "bigint" that is not a number) is the engine's.
 */
const wording = (error: unknown): string =>
  error instanceof Error && error.constructor === Error ? error.message : "its meta does not fit its json";

/** Deserializes a toolbar's input, or throws an error whose message tRPC sends as the PARSE_ERROR's. */
export function deserializeInput(payload: unknown): unknown {
  const problem = envelopeProblem(payload);
  if (problem) throw new Error(problem);
  if (deeperThan((payload as { json?: unknown }).json, MAX_INPUT_DEPTH)) return new TooDeepInput();
  try {
    return superjson.deserialize(payload as Parameters<typeof superjson.deserialize>[0]);
  } catch (error) {
    throw new Error(`params.input: ${wording(error)}`);
  }
}

/** superjson, with inputs read by deserializeInput. */
export const toolbarTransformer = {
  input: { serialize: (value: unknown) => superjson.serialize(value), deserialize: deserializeInput },
  output: superjson,
};
