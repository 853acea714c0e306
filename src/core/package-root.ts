/**
 * The package's own folder (where its package.json is), for the files it ships beside its code (schemas/, checks/,
 * package.json). Found by walking up from this module, so it is the same from src/, from dist/ and from the bundled
 * CLI (dist/cli/bundle/), whose modules sit at another depth.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`agentwire: no package.json above ${from}`);
  }
}

export const PACKAGE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the package folder. */
export const packagePath = (...parts: string[]): string => join(PACKAGE_ROOT, ...parts);
