/**
 * Builds dist/ before the tests: the CLI and example-client tests run the built package. The
 * build (several seconds) is skipped when every source file's output is newer than the source
 * and the build's settings (tsconfig, the bundling and declaration scripts: JavaScript is emitted per file, so nothing
 * else can make it stale), and the CLI bundle (dist/cli/bundle, which the bin runs) is newer than every source.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    return d.isDirectory() ? sources(path) : d.name.endsWith(".ts") ? [path] : [];
  });
}

/** The CLI bundle's entry: bundled from dist/ after each build. */
const BUNDLE_MAIN = join("dist", "cli", "bundle", "main.js");

/** Whether dist/ holds an output newer than each source file and than the compiler settings, and a newer CLI bundle. */
export function distIsFresh(root = ROOT): boolean {
  const settings = Math.max(...["tsconfig.json", "tsconfig.build.json", "scripts/bundle-cli.mjs", "scripts/msw-cjs-types.mjs"].filter((f) => existsSync(join(root, f))).map((f) => statSync(join(root, f)).mtimeMs));
  const src = join(root, "src");
  const bundle = join(root, BUNDLE_MAIN);
  const bundled = existsSync(bundle) ? statSync(bundle).mtimeMs : -1;
  return sources(src).every((file) => {
    const out = join(root, "dist", file.slice(src.length).replace(/\.ts$/, ".js"));
    if (!existsSync(out)) return false;
    const built = statSync(out).mtimeMs;
    const changed = statSync(file).mtimeMs;
    return built >= changed && built >= settings && bundled >= changed;
  });
}

export default function setup(): void {
  if (distIsFresh()) return;
  execFileSync(process.execPath, [fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  execFileSync(process.execPath, [join(ROOT, "scripts", "bundle-cli.mjs")], { cwd: ROOT, stdio: "inherit" });
  execFileSync(process.execPath, [join(ROOT, "scripts", "msw-cjs-types.mjs")], { cwd: ROOT, stdio: "inherit" });
}
