/** A validator of `--reporter ndjson` lines against schemas/report-line.schema.json (which refers to report.schema.json). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { ROOT } from "./cli.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function lineValidator() {
  const ajv = new Ajv2020({ strict: false });
  addFormats(ajv);
  ajv.addSchema(JSON.parse(readFileSync(join(ROOT, "schemas/report.schema.json"), "utf8")));
  return ajv.compile(JSON.parse(readFileSync(join(ROOT, "schemas/report-line.schema.json"), "utf8")));
}
