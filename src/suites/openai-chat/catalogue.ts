/**
 * The tool catalogues as the server suite uses them: which tools the probes offer, which of them
 * a probe forces, and the argument rules a call is judged by (the args schema of a catalogue
 * tool, or the `parameters` the request sent for any other tool). Node only: args schemas are read
 * from schemas/openai-chat/tools/ and compiled once.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { SCHEMAS_DIR } from "../../core/schemas/schema-registry.js";
import { compileForeignSchema } from "../../core/schemas/foreign-schema.js";
import { findCatalogue, type Catalogue, type CatalogueTool } from "../../mocks/openai-chat/catalogues.js";

export type { Catalogue, CatalogueTool };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** The catalogue a run uses; undefined for `none` or an unknown name. */
export function activeCatalogue(name: string): Catalogue | undefined {
  return name === "none" ? undefined : findCatalogue(name);
}

/** Tools Continue sends in agent mode: every tool that is not disabled/excluded. */
export function offeredTools(catalogue: Catalogue | undefined): CatalogueTool[] {
  return (catalogue?.tools ?? []).filter((t) => t.policy !== "disabled" && t.policy !== "exclude");
}

/** `tools[]` entries of a request offering `tools`. */
export function toolDefinitions(tools: readonly CatalogueTool[]): object[] {
  return tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** An absent `parameters`, `{type: "object"}` and `{type: "object", properties: {}}` are all "no parameters". */
export function isParameterless(parameters: unknown): boolean {
  if (parameters === undefined || parameters === null) return true;
  if (typeof parameters !== "object" || Array.isArray(parameters)) return false;
  const props = (parameters as { properties?: unknown }).properties;
  if (props === undefined) return true;
  return typeof props === "object" && props !== null && Object.keys(props).length === 0;
}

let ajv: Ajv2020 | undefined;
function compiler(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
  }
  return ajv;
}

const argsValidators = new Map<string, ValidateFunction | null>();

/** The compiled args schema of a catalogue tool (tools/<args>.args.schema.json), or null. */
export function argsValidator(tool: CatalogueTool): ValidateFunction | null {
  let fn = argsValidators.get(tool.args);
  if (fn === undefined) {
    try {
      const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, "openai-chat", "tools", `${tool.args}.args.schema.json`), "utf8")) as { $id?: string };
      const a = compiler();
      fn = (schema.$id ? a.getSchema(schema.$id) : undefined) ?? a.compile(schema);
    } catch {
      fn = null;
    }
    argsValidators.set(tool.args, fn);
  }
  return fn;
}

/**
 * A request's `parameters` compiled as JSON Schema (each on its own, in the dialect its `$schema` names, cached by
 * text), or null when it does not compile.
 */
export function parametersValidator(parameters: unknown): ValidateFunction | null {
  const compiled = compileForeignSchema(parameters ?? { type: "object" });
  return compiled.ok ? compiled.validate : null;
}

export interface ArgsJudgement {
  /** What the schema found wrong, unknown keys excluded. */
  errors: string[];
  /** Property names the tool does not define (JSON pointers of their parents included). */
  unknownKeys: string[];
  /** Which rules judged: the catalogue's args schema or the request's parameters. */
  source: string;
}

/**
 * Judges parsed arguments against the tool's rules: the active catalogue's args schema when the
 * tool is in it, else the `parameters` the request sent. Undefined when there is nothing to judge by.
 */
export function judgeArgs(args: Record<string, unknown>, name: string, catalogue: Catalogue | undefined, requestParameters: unknown, requestHasTool: boolean): ArgsJudgement | undefined {
  const tool = catalogue?.tools.find((t) => t.name === name);
  if (tool) {
    const fn = argsValidator(tool);
    if (fn) return split(fn, args, `${catalogue!.name} args schema tools/${tool.args}.args.schema.json`);
  }
  if (!requestHasTool) return undefined;
  const fn = parametersValidator(requestParameters);
  if (!fn) return undefined;
  const out = split(fn, args, "the request's parameters");
  // A client schema rarely says additionalProperties: false; unknown keys are still unknown. A set keeps each once:
  // arguments may hold tens of thousands of keys.
  const props = (requestParameters as { properties?: unknown } | undefined)?.properties;
  const defined = props && typeof props === "object" && !Array.isArray(props) ? props : undefined;
  if (defined || isParameterless(requestParameters)) {
    const listed = new Set(out.unknownKeys);
    for (const k of Object.keys(args)) {
      if ((defined && k in defined) || listed.has(k)) continue;
      listed.add(k);
      out.unknownKeys.push(k);
    }
  }
  return out;
}

function split(fn: ValidateFunction, args: unknown, source: string): ArgsJudgement {
  const errors: string[] = [];
  const unknownKeys: string[] = [];
  if (!fn(args)) {
    for (const e of (fn.errors ?? []) as ErrorObject[]) {
      if (e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties") {
        const key = String((e.params as { additionalProperty?: unknown; unevaluatedProperty?: unknown }).additionalProperty ?? (e.params as { unevaluatedProperty?: unknown }).unevaluatedProperty);
        unknownKeys.push(e.instancePath ? `${e.instancePath.slice(1)}/${key}` : key);
      } else {
        const where = e.keyword === "required" ? `${e.instancePath}/${String((e.params as { missingProperty?: unknown }).missingProperty)}` : e.instancePath;
        errors.push(`${where || "/"}: ${e.message ?? e.keyword}`);
      }
    }
  }
  return { errors, unknownKeys, source };
}
