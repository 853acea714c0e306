/**
 * Writes the CommonJS flavour of the msw entries' declarations: for each `exports` entry with a `require` condition,
 * its `.d.cts` from the entry's `.d.ts` (a copy whose imports of the other msw entries point at their `.d.cts`).
 * msw ships separate typings for import and require; a CommonJS TypeScript project (module nodenext in a CommonJS
 * package) gets msw's require typings for `msw/node`, and the handlers' declarations must name the same msw classes,
 * which they do when TypeScript reads them as CommonJS. The JavaScript is the same ES module either way (Node >= 20.19
 * requires it). Run after tsc (`npm run build` does).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

/** [.d.ts, .d.cts] of each entry that has a `require` condition. */
const pairs = Object.values(pkg.exports)
  .filter((t) => typeof t === "object" && typeof t.require === "object" && typeof t.types === "string")
  .map((t) => [join(root, t.types), join(root, t.require.types)]);
const converted = new Set(pairs.map(([dts]) => dts));

for (const [dts, dcts] of pairs) {
  if (!dcts.endsWith(".d.cts") || dcts.slice(0, -".d.cts".length) !== dts.slice(0, -".d.ts".length)) {
    throw new Error(`${relative(root, dcts)} should sit next to ${relative(root, dts)}`);
  }
  if (!existsSync(dts)) throw new Error(`${relative(root, dts)} is missing: run tsc first`);
  const source = readFileSync(dts, "utf8");
  const out = source.replace(/(\bfrom\s+|\bimport\s*\(\s*)(["'])(\.\.?\/[^"']+)\.js\2/g, (whole, lead, quote, spec) => {
    const target = resolve(dirname(dts), `${spec}.d.ts`);
    return converted.has(target) ? `${lead}${quote}${spec}.cjs${quote}` : whole;
  });
  writeFileSync(dcts, out);
}
