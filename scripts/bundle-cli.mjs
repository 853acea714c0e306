/**
 * Bundles the built CLI (dist/cli/main.js and every module it imports) into dist/cli/bundle/: a command then loads a
 * handful of files instead of dozens, and a mock answers sooner after it is started. Commands stay split apart
 * (each dynamic import is a chunk of its own), so `agentwire mock` still loads only the mock it runs. Packages stay
 * imports of node_modules. Run after tsc (`npm run build` does).
 */
import { build } from "esbuild";
import { rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = `${root}dist/cli/bundle`;
rmSync(outdir, { recursive: true, force: true });
const { metafile } = await build({
  metafile: true,
  entryPoints: [`${root}dist/cli/main.js`],
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});

// Which built modules each bundle file holds (for the test that a mock loads only what its first answer needs).
const inputs = Object.fromEntries(
  Object.entries(metafile.outputs).map(([out, o]) => [out.slice(out.lastIndexOf("/") + 1), Object.keys(o.inputs)]),
);
writeFileSync(`${outdir}/inputs.json`, `${JSON.stringify(inputs, null, 1)}\n`);
