/**
 * Arguments for a call the mock makes: the catalogue's `exampleArgs` when they fit the parameters
 * the request offers, else values generated from those parameters (required properties only:
 * "example", false, 1, arrays of one generated item).
 */
import { lookupTool, type Catalogue } from "./catalogues.js";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export function propertiesOf(parameters: unknown): Json | undefined {
  return isObject(parameters) && isObject(parameters.properties) ? parameters.properties : undefined;
}

export function requiredOf(parameters: unknown): string[] {
  return isObject(parameters) && Array.isArray(parameters.required)
    ? parameters.required.filter((r): r is string => typeof r === "string")
    : [];
}

/** A tool without parameters: absent, `{type: "object"}` or empty `properties`. */
export function isParameterless(parameters: unknown): boolean {
  const props = propertiesOf(parameters);
  return props === undefined || Object.keys(props).length === 0;
}

/** Example arguments fit when every key is a declared property and every required one is there. */
function fits(example: Json, parameters: unknown): boolean {
  const props = propertiesOf(parameters) ?? {};
  return (
    Object.keys(example).every((k) => k in props) && requiredOf(parameters).every((r) => r in example)
  );
}

/** A value for one JSON Schema. */
export function generateValue(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 6) return "example";
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ("const" in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "boolean":
      return false;
    case "number":
    case "integer":
      return 1;
    case "array":
      return [generateValue(schema.items, depth + 1)];
    case "object":
      return generateObject(schema, depth + 1);
    case "null":
      return null;
    default:
      return "example";
  }
}

export function generateObject(parameters: unknown, depth = 0): Json {
  const props = propertiesOf(parameters) ?? {};
  const out: Json = {};
  for (const r of requiredOf(parameters)) out[r] = generateValue(props[r], depth);
  return out;
}

/** The arguments object for a call of `name`, given the parameters the request declares. */
export function argsFor(name: string, parameters: unknown, catalogue: Catalogue): Json {
  const example = lookupTool(catalogue, name)?.exampleArgs;
  if (example && fits(example, parameters)) return structuredClone(example);
  return generateObject(parameters);
}

/** True when the catalogue has example arguments for the tool. */
export function hasExample(name: string, catalogue: Catalogue): boolean {
  return lookupTool(catalogue, name) !== undefined;
}
