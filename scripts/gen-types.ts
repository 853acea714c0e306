/** npm run gen: writes src/generated/<protocol>.ts for every protocol under schemas/. */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { GENERATED_DIR, generate, protocols } from "./gen-types-lib.js";

mkdirSync(GENERATED_DIR, { recursive: true });
for (const protocol of protocols()) {
  const file = join(GENERATED_DIR, `${protocol}.ts`);
  writeFileSync(file, await generate(protocol));
  console.log(`wrote ${file}`);
}
