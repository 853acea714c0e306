/**
 * Schema problems as a person reads them. ajv with allErrors reports every failed keyword of every
 * branch of every union, so one wrong `role` gives a dozen lines ("must be equal to constant" per
 * branch, then "must match exactly one schema in oneOf"). This walks the schema next to the value
 * instead: a union is explained by the branch the value meant (the one its discriminating property
 * names, else the one of its JSON type, else the one with the fewest problems), or by one line
 * listing the allowed values when it meant none; each problem is said once, at its JSON pointer,
 * with the allowed values where the schema lists them.
 */
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { SchemaError } from "./schema-registry.js";

type Schema = boolean | Record<string, any>;

/** A place in a schema document: the document's $id and a JSON pointer inside it. */
interface Loc {
  doc: string;
  ptr: string;
}

/** Keywords judged on the value itself, without descending into it or following references. */
const LEAF_KEYWORDS = [
  "type", "enum", "const", "required", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
  "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties",
  "maxProperties", "not", "dependentRequired",
];

const escape = (key: string | number) => String(key).replace(/~/g, "~0").replace(/\//g, "~1");
const unescape = (part: string) => part.replace(/~1/g, "/").replace(/~0/g, "~");
const child = (loc: Loc, ...keys: (string | number)[]): Loc => ({ doc: loc.doc, ptr: `${loc.ptr}/${keys.map(escape).join("/")}` });

function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (values: unknown[]) => values.map((v) => JSON.stringify(v)).join(", ");

export class SchemaExplainer {
  private readonly leafFns = new WeakMap<object, ValidateFunction | null>();

  constructor(
    private readonly ajv: Ajv2020,
    /** Every schema document by its $id. */
    private readonly docs: Map<string, Schema>,
  ) {}

  /** The problems of `value` against the document `id`; [] when it is valid. */
  explain(id: string, value: unknown): SchemaError[] {
    const seen = new Set<string>();
    return this.at({ doc: id, ptr: "" }, value, "").filter((e) => {
      const key = `${e.pointer}\u0000${e.message}`;
      return seen.has(key) ? false : (seen.add(key), true);
    });
  }

  private schemaAt(loc: Loc): Schema {
    let s: any = this.docs.get(loc.doc);
    if (s === undefined) throw new Error(`schema ${loc.doc} is not loaded`);
    for (const part of loc.ptr.split("/").slice(1)) s = s?.[unescape(part)];
    if (s === undefined) throw new Error(`no schema at ${loc.doc}#${loc.ptr}`);
    return s as Schema;
  }

  private valid(loc: Loc, value: unknown): boolean {
    const fn = this.ajv.getSchema(loc.ptr ? `${loc.doc}#${loc.ptr}` : loc.doc);
    if (!fn) throw new Error(`schema ${loc.doc}#${loc.ptr} could not be compiled`);
    return fn(value) as boolean;
  }

  private resolveRef(ref: string, loc: Loc): Loc {
    const url = new URL(ref, loc.doc);
    const ptr = decodeURIComponent(url.hash.slice(1));
    url.hash = "";
    return { doc: url.href, ptr };
  }

  /** A union branch with its leading $refs followed: where its properties and type are said. */
  private effective(loc: Loc): { loc: Loc; schema: Schema } {
    let schema = this.schemaAt(loc);
    for (let hops = 0; typeof schema === "object" && typeof schema.$ref === "string" && hops < 10; hops++) {
      loc = this.resolveRef(schema.$ref as string, loc);
      schema = this.schemaAt(loc);
    }
    return { loc, schema };
  }

  private at(loc: Loc, value: unknown, pointer: string): SchemaError[] {
    const s = this.schemaAt(loc);
    if (s === true || this.valid(loc, value)) return [];
    if (s === false) return [{ pointer, keyword: "false", message: "is not allowed here" }];
    const out: SchemaError[] = [];
    if (typeof s.$ref === "string") out.push(...this.at(this.resolveRef(s.$ref, loc), value, pointer));
    if (Array.isArray(s.allOf)) s.allOf.forEach((_: unknown, i: number) => out.push(...this.at(child(loc, "allOf", i), value, pointer)));
    for (const kind of ["anyOf", "oneOf"] as const) if (Array.isArray(s[kind])) out.push(...this.union(loc, kind, value, pointer));
    if (s.if !== undefined) {
      const branch = this.valid(child(loc, "if"), value) ? "then" : "else";
      if (s[branch] !== undefined) out.push(...this.at(child(loc, branch), value, pointer));
    }
    if (isObject(value)) out.push(...this.members(loc, s, value, pointer));
    if (Array.isArray(value)) out.push(...this.items(loc, s, value, pointer));
    out.push(...this.leaf(s, value, pointer));
    // A keyword this walk does not know: fall back to what ajv says at this place.
    return out.length > 0 ? out : this.ajvErrors(loc, value, pointer);
  }

  private members(loc: Loc, s: Record<string, any>, value: Record<string, unknown>, pointer: string): SchemaError[] {
    const out: SchemaError[] = [];
    const props = isObject(s.properties) ? s.properties : {};
    const patterns = isObject(s.patternProperties) ? Object.keys(s.patternProperties) : [];
    for (const [k, v] of Object.entries(value)) {
      const where = `${pointer}/${escape(k)}`;
      let known = false;
      if (Object.hasOwn(props, k)) {
        known = true;
        out.push(...this.at(child(loc, "properties", k), v, where));
      }
      for (const p of patterns) {
        if (!new RegExp(p, "u").test(k)) continue;
        known = true;
        out.push(...this.at(child(loc, "patternProperties", p), v, where));
      }
      if (!known && isObject(s.additionalProperties)) out.push(...this.at(child(loc, "additionalProperties"), v, where));
    }
    return out;
  }

  private items(loc: Loc, s: Record<string, any>, value: unknown[], pointer: string): SchemaError[] {
    const out: SchemaError[] = [];
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems.length : 0;
    value.forEach((v, i) => {
      if (i < prefix) out.push(...this.at(child(loc, "prefixItems", i), v, `${pointer}/${i}`));
      else if (s.items !== undefined && typeof s.items === "object") out.push(...this.at(child(loc, "items"), v, `${pointer}/${i}`));
    });
    if (s.items === false && value.length > prefix) out.push({ pointer: `${pointer}/${prefix}`, keyword: "items", message: `is one item too many (at most ${prefix})` });
    return out;
  }

  /**
   * A failed anyOf/oneOf, explained by the branch the value meant: the one its discriminating
   * property (a property every branch fixes with const or enum) names, else the only one of its
   * JSON type, else the one with the fewest problems. No branch meant: one line of what is allowed.
   */
  private union(loc: Loc, kind: "anyOf" | "oneOf", value: unknown, pointer: string): SchemaError[] {
    const branches = (this.schemaAt(loc) as Record<string, any>)[kind] as unknown[];
    const locs = branches.map((_, i) => child(loc, kind, i));
    const passing = locs.filter((l) => this.valid(l, value)).length;
    if (kind === "anyOf" ? passing > 0 : passing === 1) return [];
    if (passing > 1) return [{ pointer, keyword: "oneOf", message: `matches ${passing} of the ${branches.length} alternatives; exactly one must match` }];
    const eff = locs.map((l) => this.effective(l));

    const disc = isObject(value) ? this.discriminator(locs, value) : undefined;
    if (disc) {
      const { key, allowed } = disc;
      const where = `${pointer}/${escape(key)}`;
      if (!Object.hasOwn(value as object, key)) return [{ pointer: where, keyword: "required", message: `is required, one of ${list(allowed.flat())}` }];
      const meant = eff.filter((_, i) => allowed[i]!.some((a) => deepEqual(a, (value as Record<string, unknown>)[key])));
      if (meant.length === 0) return [{ pointer: where, keyword: "enum", message: `must be one of ${list(allowed.flat())}` }];
      return this.closest(meant.map((m) => m.loc), value, pointer);
    }

    const type = jsonType(value);
    const accepts = (schema: Schema) => {
      const types = typesOf(schema);
      return types === undefined || types.includes(type) || (type === "integer" && types.includes("number"));
    };
    const meant = eff.filter((e) => accepts(e.schema));
    if (meant.length === 0) {
      return [{ pointer, keyword: kind, message: `must be ${alternatives(eff.map((e) => e.schema))}, not ${jsonTypeName(value)}` }];
    }
    return this.closest(meant.map((m) => m.loc), value, pointer);
  }

  /**
   * The property every branch fixes with const or enum (one the value has, else one every branch
   * requires), and each branch's values for it. A branch that is itself a union fixes the values
   * its own branches all fix.
   */
  private discriminator(locs: Loc[], value: Record<string, unknown>): { key: string; allowed: unknown[][] } | undefined {
    const first = this.effective(locs[0]!).schema;
    const candidates = [...Object.keys(value), ...(typeof first === "object" && isObject(first.properties) ? Object.keys(first.properties) : [])];
    for (const key of new Set(candidates)) {
      const allowed = locs.map((l) => this.fixed(l, key, 0));
      if (allowed.some((a) => a === undefined)) continue;
      if (Object.hasOwn(value, key) || locs.every((l) => this.requires(l, key, 0))) return { key, allowed: allowed as unknown[][] };
    }
    return undefined;
  }

  private fixed(loc: Loc, key: string, depth: number): unknown[] | undefined {
    const { loc: at, schema: s } = this.effective(loc);
    if (typeof s !== "object" || depth > 5) return undefined;
    const p = s.properties?.[key];
    if (isObject(p) && p.const !== undefined) return [p.const];
    if (isObject(p) && Array.isArray(p.enum)) return p.enum as unknown[];
    for (const kind of ["oneOf", "anyOf"] as const) {
      if (!Array.isArray(s[kind])) continue;
      const each = (s[kind] as unknown[]).map((_, i) => this.fixed(child(at, kind, i), key, depth + 1));
      return each.every((e) => e !== undefined) ? [...new Set((each as unknown[][]).flat())] : undefined;
    }
    return undefined;
  }

  private requires(loc: Loc, key: string, depth: number): boolean {
    const { loc: at, schema: s } = this.effective(loc);
    if (typeof s !== "object" || depth > 5) return false;
    if (Array.isArray(s.required) && s.required.includes(key)) return true;
    for (const kind of ["oneOf", "anyOf"] as const) {
      if (Array.isArray(s[kind])) return (s[kind] as unknown[]).every((_, i) => this.requires(child(at, kind, i), key, depth + 1));
    }
    return false;
  }

  /**
   * The problems of the branch the value is nearest to. Branches that each lack just one property
   * (as "exactly one of value, confirmed, cancelled" does) are said together.
   */
  private closest(locs: Loc[], value: unknown, pointer: string): SchemaError[] {
    const all = locs.map((l) => this.at(l, value, pointer));
    const fewest = Math.min(...all.map((p) => p.length));
    const tied = all.filter((p) => p.length === fewest);
    const missing = tied.map((p) => (p.length === 1 && p[0]!.keyword === "required" ? p[0]!.pointer : undefined));
    if (tied.length > 1 && missing.every((m) => m !== undefined && m.slice(0, m.lastIndexOf("/")) === pointer)) {
      const names = [...new Set(missing.map((m) => unescape(m!.slice(pointer.length + 1))))];
      if (names.length > 1) return [{ pointer, keyword: "required", message: `needs one of the properties ${list(names)}` }];
    }
    return tied[0] ?? [];
  }

  /** The value's problems with this schema's own keywords (type, enum, required, ...). */
  private leaf(s: Record<string, any>, value: unknown, pointer: string): SchemaError[] {
    let fn = this.leafFns.get(s);
    if (fn === undefined) {
      const own: Record<string, unknown> = {};
      for (const k of LEAF_KEYWORDS) if (s[k] !== undefined && !(k === "not" && JSON.stringify(s.not).includes('"$ref"'))) own[k] = s[k];
      if (s.additionalProperties === false) {
        own.additionalProperties = false;
        own.properties = Object.fromEntries(Object.keys(s.properties ?? {}).map((k) => [k, true]));
        own.patternProperties = Object.fromEntries(Object.keys(s.patternProperties ?? {}).map((k) => [k, true]));
      }
      fn = Object.keys(own).length > 0 ? this.ajv.compile(own) : null;
      this.leafFns.set(s, fn);
    }
    if (fn === null || fn(value)) return [];
    return (fn.errors ?? []).map((e) => readable(e, pointer, s, value));
  }

  private ajvErrors(loc: Loc, value: unknown, pointer: string): SchemaError[] {
    const fn = this.ajv.getSchema(loc.ptr ? `${loc.doc}#${loc.ptr}` : loc.doc)!;
    fn(value);
    return (fn.errors ?? []).filter((e) => !["anyOf", "oneOf", "if"].includes(e.keyword)).map((e) => readable(e, pointer + e.instancePath, {}));
  }
}

/** The JSON types a schema admits, when it says (type, or the types of its const/enum values). */
function typesOf(s: Schema): string[] | undefined {
  if (typeof s !== "object") return undefined;
  if (typeof s.type === "string") return [s.type];
  if (Array.isArray(s.type)) return s.type as string[];
  if (s.const !== undefined) return [jsonType(s.const)];
  if (Array.isArray(s.enum)) return [...new Set(s.enum.map(jsonType))];
  return undefined;
}

/** "one of "none", "auto", "required", or object": what the branches of a union allow. */
function alternatives(branches: Schema[]): string {
  const values: unknown[] = [];
  const types: string[] = [];
  for (const b of branches) {
    if (typeof b === "object" && b.const !== undefined) values.push(b.const);
    else if (typeof b === "object" && Array.isArray(b.enum)) values.push(...b.enum);
    else for (const t of typesOf(b) ?? []) if (!types.includes(t)) types.push(t);
  }
  const parts = [...(values.length ? [`one of ${list(values)}`] : []), ...types];
  return parts.length ? parts.join(" or ") : "one of the allowed alternatives";
}

/** An ajv error at `pointer` (about `value`, when known), worded with what is allowed. */
function readable(e: ErrorObject, pointer: string, s: Record<string, any>, value?: unknown): SchemaError {
  const p = e.params as Record<string, any>;
  switch (e.keyword) {
    case "type": {
      const not = e.instancePath === "" && value !== undefined ? `, not ${jsonTypeName(value)}` : "";
      return { pointer: pointer + e.instancePath, keyword: e.keyword, message: `must be ${String(p.type).split(",").join(" or ")}${not}` };
    }
    case "enum":
      return { pointer, keyword: e.keyword, message: `must be one of ${list(p.allowedValues as unknown[])}` };
    case "const":
      return { pointer, keyword: e.keyword, message: `must be ${JSON.stringify(p.allowedValue)}` };
    case "required":
      return { pointer: `${pointer}/${escape(p.missingProperty as string)}`, keyword: e.keyword, message: "is required" };
    case "additionalProperties": {
      const allowed = Object.keys(s.properties ?? {});
      return {
        pointer: `${pointer}/${escape(p.additionalProperty as string)}`,
        keyword: e.keyword,
        message: `is not allowed${allowed.length ? ` (allowed: ${allowed.join(", ")})` : ""}`,
      };
    }
    default:
      return { pointer: pointer + (e.instancePath ?? ""), keyword: e.keyword, message: e.message ?? e.keyword };
  }
}

function jsonTypeName(v: unknown): string {
  return jsonType(v) === "integer" ? "number" : jsonType(v);
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
