/**
 * Writes src/generated/stagewise-chat-schemas.ts: the stagewise-chat schemas as a module, so the msw handlers can
 * validate input in a browser without reading files. test/mocks/stagewise-chat/msw-validator.test.ts fails when it
 * is stale.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { GENERATED_DIR } from "./gen-types-lib.js";
import { schemaBundleSource } from "./stagewise-schema-bundle-lib.js";

const file = join(GENERATED_DIR, "stagewise-chat-schemas.ts");
writeFileSync(file, schemaBundleSource());
console.log(`wrote ${file}`);
