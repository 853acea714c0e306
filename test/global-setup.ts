/**
 * Builds dist/ before the tests: the CLI and example-client tests run the built package. The
 * build (several seconds) is skipped when every source file's output is newer than the source
 * and the compiler settings: JavaScript is emitted per file, so nothing else can make it stale.
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

/** Whether dist/ holds an output newer than each source file and than the compiler settings. */
export function distIsFresh(root = ROOT): boolean {
  const settings = Math.max(...["tsconfig.json", "tsconfig.build.json"].map((f) => statSync(join(root, f)).mtimeMs));
  const src = join(root, "src");
  return sources(src).every((file) => {
    const out = join(root, "dist", file.slice(src.length).replace(/\.ts$/, ".js"));
    if (!existsSync(out)) return false;
    const built = statSync(out).mtimeMs;
    return built >= statSync(file).mtimeMs && built >= settings;
  });
}

export default function setup(): void {
  if (distIsFresh()) return;
  execFileSync(process.execPath, [fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url)), "-p", "tsconfig.build.json"], {
    cwd: ROOT,
    stdio: "inherit",
  });
}
