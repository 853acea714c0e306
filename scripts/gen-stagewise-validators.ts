/**
 * Writes src/generated/stagewise-chat-validators.ts: the stagewise-chat validators the msw handlers use, compiled
 * ahead of time, so a page validates input without compiling code. test/mocks/stagewise-chat/msw-validator.test.ts
 * fails when it is stale.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { GENERATED_DIR } from "./gen-types-lib.js";
import { validatorsSource } from "./stagewise-validators-lib.js";

const file = join(GENERATED_DIR, "stagewise-chat-validators.ts");
writeFileSync(file, validatorsSource());
console.log(`wrote ${file}`);
