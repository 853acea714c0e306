/**
 * JSON Schemas from outside the kit (a client's tool `parameters`), compiled one at a time: each in a fresh ajv
 * instance of the dialect its `$schema` names, so that nothing one schema registers (its `$id`, a nested `$id`) can
 * clash with the next or pile up over a long run. Clients resend the same tools every turn, so results are kept by
 * the schema's text, in a bounded cache. Meta-schemas are checked by one shared instance per dialect, which
 * validates schemas as data and registers nothing. ajv loads with the first schema (see schema-registry).
 */
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";

const require = createRequire(import.meta.url);

/** The core API every dialect's class shares. */
type AjvInstance = Ajv2020;
type AjvClass = new (options: Record<string, unknown>) => AjvInstance;

/** The dialects a `$schema` may name. draft-04 and draft-06 are compiled with draft-07's keywords (see below). */
export type Dialect = "2020-12" | "2019-09" | "draft-07" | "draft-06" | "draft-04";

const DIALECTS: Record<string, Dialect> = {
  "json-schema.org/draft/2020-12/schema": "2020-12",
  "json-schema.org/draft/2019-09/schema": "2019-09",
  "json-schema.org/draft-07/schema": "draft-07",
  "json-schema.org/draft-06/schema": "draft-06",
  "json-schema.org/draft-04/schema": "draft-04",
};

/** The dialect a `$schema` URI names (scheme and a trailing `#` aside), or undefined for one the kit does not know. */
export function dialectOf(uri: string): Dialect | undefined {
  return DIALECTS[uri.trim().replace(/^https?:\/\//i, "").replace(/#$/, "").toLowerCase()];
}

const classes = {
  "2020-12": () => (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020 as unknown as AjvClass,
  "2019-09": () => (require("ajv/dist/2019.js") as typeof import("ajv/dist/2019.js")).Ajv2019 as unknown as AjvClass,
  "draft-07": () => (require("ajv") as typeof import("ajv")).default as unknown as AjvClass,
};
const addFormats = (ajv: AjvInstance) => (require("ajv-formats") as (a: AjvInstance) => AjvInstance)(ajv);

/** The meta-schema each dialect is checked against, and the ajv class whose keywords compile it. */
const METAS: Record<Dialect, { meta: string; compiler: keyof typeof classes }> = {
  "2020-12": { meta: "https://json-schema.org/draft/2020-12/schema", compiler: "2020-12" },
  "2019-09": { meta: "https://json-schema.org/draft/2019-09/schema", compiler: "2019-09" },
  "draft-07": { meta: "http://json-schema.org/draft-07/schema", compiler: "draft-07" },
  // ajv ships draft-06's meta-schema, and draft-07 only added keywords: checked against draft-06, compiled as draft-07.
  "draft-06": { meta: "http://json-schema.org/draft-06/schema", compiler: "draft-07" },
  // ajv ships no draft-04 meta-schema. The rule is that the schema compiles, so its `$schema` is set aside: it is
  // checked and compiled as draft-07, once its boolean exclusiveMinimum/exclusiveMaximum (the one draft-04 form
  // draft-07 reads differently) are rewritten in draft-07's numeric form.
  "draft-04": { meta: "http://json-schema.org/draft-07/schema", compiler: "draft-07" },
};

const metaCheckers = new Map<string, AjvInstance>();

function metaChecker(compiler: keyof typeof classes): AjvInstance {
  let ajv = metaCheckers.get(compiler);
  if (!ajv) {
    ajv = new (classes[compiler]())({ strict: false, logger: false });
    if (compiler === "draft-07") ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json") as object);
    metaCheckers.set(compiler, ajv);
  }
  return ajv;
}

/** draft-04's `exclusiveMaximum: true` beside `maximum: n` is draft-07's `exclusiveMaximum: n` (same for minimum). */
function fromDraft04(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromDraft04);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = fromDraft04(v);
  for (const [flag, bound] of [
    ["exclusiveMaximum", "maximum"],
    ["exclusiveMinimum", "minimum"],
  ] as const) {
    if (typeof out[flag] !== "boolean") continue;
    if (out[flag] === true && typeof out[bound] === "number") {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  return out;
}

export type Compiled = { ok: true; validate: ValidateFunction; dialect: Dialect } | { ok: false; error: string };

function compileAs(schema: Record<string, unknown>, dialect: Dialect): Compiled {
  const { meta, compiler } = METAS[dialect];
  const own = dialect === "draft-04" ? (fromDraft04(schema) as Record<string, unknown>) : schema;
  // The dialect is chosen here: `$schema` is not looked up again (a fresh instance holds no meta-schemas).
  const { $schema: _declared, ...body } = own;
  const checker = metaChecker(compiler);
  if (!checker.validate(meta, body)) return { ok: false, error: `schema is invalid: ${checker.errorsText(checker.errors)}` };
  try {
    const ajv = new (classes[compiler]())({ strict: false, meta: false, validateSchema: false, logger: false, allErrors: true });
    addFormats(ajv);
    return { ok: true, validate: ajv.compile(body), dialect };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/**
 * Compiles a schema that is not the kit's own. A `$schema` naming a known dialect is compiled in that dialect. With
 * none (or one the kit does not know), it is compiled as 2020-12, or failing that as draft-07, the dialect most
 * schema generators still emit: no contract names one, so either holds "compiles as JSON Schema".
 */
function compileOnce(schema: unknown): Compiled {
  if (typeof schema === "boolean") schema = schema ? {} : { not: {} };
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return { ok: false, error: "a schema must be an object or a boolean" };
  const s = schema as Record<string, unknown>;
  if (s.$schema !== undefined && typeof s.$schema !== "string") return { ok: false, error: "$schema must be a string (a meta-schema URI)" };
  const declared = typeof s.$schema === "string" ? dialectOf(s.$schema) : undefined;
  if (declared) return compileAs(s, declared);
  const latest = compileAs(s, "2020-12");
  if (latest.ok) return latest;
  const older = compileAs(s, "draft-07");
  if (older.ok) return older;
  const unknown = typeof s.$schema === "string" ? ` ($schema ${JSON.stringify(s.$schema)} names no dialect the kit knows; tried as 2020-12 and draft-07)` : "";
  return { ok: false, error: `${latest.error}${unknown}` };
}

const cache = new Map<string, Compiled>();
const CACHE_SIZE = 256;

/** `compileOnce`, remembered by the schema's JSON text (at most CACHE_SIZE schemas, least recently used dropped). */
export function compileForeignSchema(schema: unknown): Compiled {
  const key = JSON.stringify(schema) ?? "undefined";
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const out = compileOnce(schema);
  cache.set(key, out);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return out;
}
