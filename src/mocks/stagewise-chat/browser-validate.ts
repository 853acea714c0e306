/**
 * A stagewise-chat validator that reads no files: the schemas come bundled (src/generated/stagewise-chat-schemas.ts)
 * and compile in ajv on first use, as the node registry does. For the msw handlers. Browser-safe.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { STAGEWISE_CHAT_SCHEMAS } from "../../generated/stagewise-chat-schemas.js";
import type { Validate } from "../../stagewise/adapter/chat-agent.js";

// ajv-formats is CommonJS; under nodenext its default import is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

export const bundledValidate: Validate = (schema, value) => {
  if (!ajv) {
    ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(ajv);
    for (const s of Object.values(STAGEWISE_CHAT_SCHEMAS)) ajv.addSchema(s);
  }
  let fn = compiled.get(schema);
  if (!fn) {
    const source = STAGEWISE_CHAT_SCHEMAS[schema];
    if (!source) throw new Error(`no stagewise-chat schema "${schema}"`);
    const id = (source as { $id?: string }).$id;
    fn = (id ? ajv.getSchema(id) : ajv.compile(source)) as ValidateFunction;
    compiled.set(schema, fn);
  }
  if (fn(value)) return null;
  return (fn.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message ?? e.keyword}`).join("; ");
};
