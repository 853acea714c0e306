/**
 * Comparing a client's tool `parameters` with a catalogue entry's (contract §2, matching rules):
 * property names, types (array items and nested objects included) and required sets count;
 * descriptions, defaults and other annotations do not. An absent `parameters`, `{type: "object"}`
 * and `{type: "object", properties: {}}` are equal.
 */
import { isObject } from "./history.js";

/** Differences between two parameter schemas, as "path: expected X, got Y" lines. */
export function diffParameters(expected: unknown, actual: unknown): string[] {
  const out: string[] = [];
  compare(normalise(expected), normalise(actual), "parameters", out);
  return out;
}

interface Shape {
  type?: string;
  properties?: Record<string, Shape>;
  required?: string[];
  items?: Shape;
}

function normalise(schema: unknown): Shape {
  if (schema === undefined || schema === null) return { type: "object", properties: {}, required: [] };
  return shapeOf(schema, true);
}

function shapeOf(schema: unknown, root = false): Shape {
  if (!isObject(schema)) return {};
  const out: Shape = {};
  const type = typeText(schema.type);
  if (type !== undefined) out.type = type;
  const isObj = type === "object" || (type === undefined && (isObject(schema.properties) || root));
  if (isObj) {
    out.type ??= "object";
    out.properties = {};
    if (isObject(schema.properties)) {
      for (const [k, v] of Object.entries(schema.properties)) out.properties[k] = shapeOf(v);
    }
    out.required = Array.isArray(schema.required) ? [...new Set(schema.required.filter((x): x is string => typeof x === "string"))].sort() : [];
  }
  if (schema.items !== undefined) out.items = shapeOf(schema.items);
  return out;
}

function typeText(t: unknown): string | undefined {
  if (typeof t === "string") return t;
  if (Array.isArray(t)) return t.filter((x) => typeof x === "string").sort().join("|");
  return undefined;
}

function compare(e: Shape, a: Shape, path: string, out: string[]): void {
  if ((e.type ?? "any") !== (a.type ?? "any")) {
    out.push(`${path}: type ${JSON.stringify(e.type ?? "any")} expected, got ${JSON.stringify(a.type ?? "any")}`);
    return;
  }
  if (e.properties || a.properties) {
    const ep = e.properties ?? {};
    const ap = a.properties ?? {};
    const missing = Object.keys(ep).filter((k) => !(k in ap));
    const extra = Object.keys(ap).filter((k) => !(k in ep));
    if (missing.length) out.push(`${path}: missing propert${missing.length > 1 ? "ies" : "y"} ${missing.map((k) => JSON.stringify(k)).join(", ")}`);
    if (extra.length) out.push(`${path}: unknown propert${extra.length > 1 ? "ies" : "y"} ${extra.map((k) => JSON.stringify(k)).join(", ")}`);
    for (const k of Object.keys(ep)) if (k in ap) compare(ep[k]!, ap[k]!, `${path}.${k}`, out);
    const er = (e.required ?? []).join(",");
    const ar = (a.required ?? []).join(",");
    if (er !== ar) out.push(`${path}: required [${e.required?.join(", ") ?? ""}] expected, got [${a.required?.join(", ") ?? ""}]`);
  }
  if (e.items || a.items) compare(e.items ?? {}, a.items ?? {}, `${path}[]`, out);
}

/** A name folded the way near-misses fold: case, `-`/`_`, and a `builtin_` prefix ignored. */
export function foldName(name: string): string {
  return name.toLowerCase().replace(/-/g, "_").replace(/^builtin_/, "");
}
