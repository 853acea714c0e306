/**
 * Schema registry: every protocol's JSON Schemas (draft 2020-12) in ajv, each compiled once, on
 * first use.
 *
 * Layout on disk: schemas/<protocol>/<message>.schema.json, and profile overlays in
 * schemas/<protocol>/profiles/<profile>/<message>.schema.json. An overlay carries the same $id as
 * the schema it replaces, so references from other schemas pick it up too: each (protocol,
 * profile) pair gets its own ajv instance.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { packagePath } from "../package-root.js";
import type { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import { SchemaExplainer } from "./schema-explain.js";
import { closestName } from "./closest-name.js";
import { appendErrorsInPlace } from "./append-errors.js";
import { listFirst } from "../list-text.js";

// ajv and its formats (CommonJS, and large) load with the first schema: a process that never
// validates, such as a plain `agentwire mock`, does not wait for them.
const require = createRequire(import.meta.url);
const loadAjv = () => ({
  Ajv: (require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js")).Ajv2020,
  addFormats: require("ajv-formats") as (ajv: Ajv2020) => Ajv2020,
});

export interface SchemaError {
  /** JSON pointer into the validated value, "" for the root. */
  pointer: string;
  message: string;
  keyword: string;
}

export type ValidationResult = { ok: true } | { ok: false; errors: SchemaError[] };

/** The schemas folder shipped with the package (same depth from src/core and dist/core). */
export const SCHEMAS_DIR = packagePath("schemas");

export class UnknownMessageError extends Error {
  constructor(
    readonly protocol: string,
    readonly messageName: string,
    readonly known: string[],
  ) {
    const near = closestName(messageName, known);
    super(`unknown message "${messageName}" for ${protocol}${near ? `; did you mean "${near}"?` : ""} (known: ${known.join(", ")})`);
  }
}

/**
 * One (protocol, profile) pair: its schemas are added to ajv up front and compiled on first use.
 * Two ajv instances: `quick` stops at the first error and answers whether a value is valid (most
 * values are, and collecting every error of every branch of a union allocated kilobytes per
 * value); `full` collects all errors, made and compiled only when a value is invalid, so the
 * errors reported are the ones a single allErrors validator gives. Validity does not depend on
 * allErrors.
 */
interface Loaded {
  schemas: Map<string, object>;
  quick: Ajv2020;
  full?: Ajv2020;
  fns: Map<string, ValidateFunction>;
  fullFns: Map<string, ValidateFunction>;
  explainer?: SchemaExplainer;
}

/** The result of every successful validation (shared: it carries nothing of the value). */
const VALID: ValidationResult = Object.freeze({ ok: true });

export class SchemaRegistry {
  private readonly loaded = new Map<string, Loaded>();
  /** The validator asked for last: a stream validates one message over and over. */
  private last: { protocol: string; message: string; profile: string; fn: ValidateFunction } | undefined;

  constructor(private readonly dir = SCHEMAS_DIR) {}

  /** Message names of a protocol, sorted. */
  messages(protocol: string): string[] {
    return [...this.load(protocol, "default").schemas.keys()].sort();
  }

  /** The raw schema object of a message (default profile). */
  schema(protocol: string, message: string): object {
    const file = join(this.dir, protocol, `${message}.schema.json`);
    if (!existsSync(file)) throw new UnknownMessageError(protocol, message, this.messages(protocol));
    return JSON.parse(readFileSync(file, "utf8")) as object;
  }

  validate(protocol: string, message: string, value: unknown, profile = "default"): ValidationResult {
    const last = this.last;
    let fn: ValidateFunction;
    if (last !== undefined && last.message === message && last.protocol === protocol && last.profile === profile) fn = last.fn;
    else {
      fn = this.compiled(protocol, message, profile);
      this.last = { protocol, message, profile, fn };
    }
    if (fn(value)) return VALID;
    const full = this.compiled(protocol, message, profile, true);
    if (full(value)) return VALID;
    return { ok: false, errors: (full.errors ?? []).map(toSchemaError) };
  }

  /**
   * The problems of an invalid value as a person reads them (see schema-explain.ts): each once, at
   * its JSON pointer, unions explained by the branch the value meant. [] for a valid value. Slower
   * than validate(): for reports on one value (`agentwire validate`), not for checks on a stream.
   */
  explain(protocol: string, message: string, value: unknown, profile = "default"): SchemaError[] {
    if (this.validate(protocol, message, value, profile).ok) return [];
    const l = this.load(protocol, profile);
    const schema = l.schemas.get(message) as { $id?: string } | undefined;
    if (!schema?.$id) throw new UnknownMessageError(protocol, message, [...l.schemas.keys()].sort());
    l.explainer ??= new SchemaExplainer(
      (l.full ??= newAjv(l.schemas, true)),
      new Map([...l.schemas.values()].map((s) => [(s as { $id: string }).$id, s as Record<string, unknown>])),
    );
    return l.explainer.explain(schema.$id, value);
  }

  /**
   * A message's validator, compiled the first time it is asked for (a run uses only some). A name
   * may point into its message's schema (`assistant-message-event#/$defs/textDelta`): a check that
   * knows which branch of a union a value takes can validate it against that branch alone.
   */
  private compiled(protocol: string, message: string, profile: string, allErrors = false): ValidateFunction {
    const l = this.load(protocol, profile);
    const fns = allErrors ? l.fullFns : l.fns;
    const cached = fns.get(message);
    if (cached) return cached;
    const hash = message.indexOf("#");
    const base = hash < 0 ? message : message.slice(0, hash);
    const schema = l.schemas.get(base);
    if (!schema) throw new UnknownMessageError(protocol, base, [...l.schemas.keys()].sort());
    const ajv = allErrors ? (l.full ??= newAjv(l.schemas, true)) : l.quick;
    const id = (schema as { $id?: string }).$id;
    const fn = hash >= 0 ? (id ? ajv.getSchema(id + message.slice(hash)) : undefined) : id ? ajv.getSchema(id) : ajv.compile(schema);
    if (!fn) throw new Error(`schema ${protocol}/${message} could not be compiled`);
    fns.set(message, fn as ValidateFunction);
    return fn as ValidateFunction;
  }

  private load(protocol: string, profile: string): Loaded {
    const key = `${protocol}\u0000${profile}`;
    const cached = this.loaded.get(key);
    if (cached) return cached;

    const base = readSchemaFiles(join(this.dir, protocol));
    const overlay =
      profile === "default" ? new Map() : readSchemaFiles(join(this.dir, protocol, "profiles", profile));
    const merged = new Map(base);
    for (const [name, schema] of overlay) merged.set(name, schema);
    const loaded: Loaded = { schemas: merged, quick: newAjv(merged, false), fns: new Map(), fullFns: new Map() };
    this.loaded.set(key, loaded);
    return loaded;
  }
}

function newAjv(schemas: Map<string, object>, allErrors: boolean): Ajv2020 {
  const { Ajv, addFormats } = loadAjv();
  // Only the validator that gathers every error (run once a value failed) needs errors appended in place: the
  // first-pass one stops at the first error, and its code stays as ajv writes it.
  const ajv = new Ajv({ allErrors, strict: false, ...(allErrors ? { code: { process: appendErrorsInPlace } } : {}) });
  addFormats(ajv);
  // Every schema is known to ajv up front, so references resolve; compiling waits for first use.
  for (const schema of schemas.values()) ajv.addSchema(schema);
  return ajv;
}

/**
 * Schemas of a folder by message name. Subfolders count (tool arguments live in `tools/`, so
 * `tools/read-file.args` is a message name), except a top-level `profiles/`, which holds overlays.
 */
function readSchemaFiles(dir: string, sub = ""): Map<string, object> {
  const out = new Map<string, object>();
  if (!existsSync(join(dir, sub))) return out;
  for (const d of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const rel = sub ? `${sub}/${d.name}` : d.name;
    if (d.isDirectory()) {
      if (sub === "" && d.name === "profiles") continue;
      for (const [k, v] of readSchemaFiles(dir, rel)) out.set(k, v);
    } else if (d.name.endsWith(".schema.json")) {
      out.set(rel.slice(0, -".schema.json".length), JSON.parse(readFileSync(join(dir, rel), "utf8")) as object);
    }
  }
  return out;
}

function toSchemaError(e: ErrorObject): SchemaError {
  let pointer = e.instancePath;
  // For a missing property ajv points at the parent; point at the property itself.
  if (e.keyword === "required" && typeof e.params.missingProperty === "string") {
    pointer = `${pointer}/${e.params.missingProperty.replace(/~/g, "~0").replace(/\//g, "~1")}`;
  }
  return { pointer, keyword: e.keyword, message: e.message ?? e.keyword };
}

/** One shared registry for the process. */
export const registry = new SchemaRegistry();

/**
 * Schema errors as a message lists them. A large invalid value (a history of ten thousand bad entries) gives an error
 * per entry: the first ten are shown, then how many more.
 */
export function formatSchemaErrors(errors: SchemaError[]): string {
  return listFirst(errors, (e) => `${e.pointer || "/"}: ${e.message}`, SCHEMA_ERRORS_LISTED, "; ");
}

const SCHEMA_ERRORS_LISTED = 10;
