/** The tests' build step is skipped only when dist/ is up to date with every source file. */
import { describe, expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { distIsFresh } from "./global-setup.js";

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), "agentwire-fresh-"));
  for (const f of ["tsconfig.json", "tsconfig.build.json", "src/core/a.ts", "dist/core/a.js", "dist/cli/bundle/main.js"]) {
    mkdirSync(join(root, f, ".."), { recursive: true });
    writeFileSync(join(root, f), "");
  }
  const old = new Date(Date.now() - 60_000);
  for (const f of ["tsconfig.json", "tsconfig.build.json", "src/core/a.ts"]) utimesSync(join(root, f), old, old);
  return root;
}

const touch = (root: string, f: string) => {
  mkdirSync(join(root, f, ".."), { recursive: true });
  writeFileSync(join(root, f), "");
};

describe("build freshness", () => {
  it("is fresh when each source has a newer output and the CLI bundle is newer still, stale otherwise", () => {
    const root = tree();
    try {
      expect(distIsFresh(root)).toBe(true);
      touch(root, "src/core/b.ts");
      expect(distIsFresh(root)).toBe(false);
      touch(root, "dist/core/b.js");
      // b.ts is newer than the bundle made before it.
      const past = new Date(Date.now() - 30_000);
      utimesSync(join(root, "dist/cli/bundle/main.js"), past, past);
      expect(distIsFresh(root)).toBe(false);
      touch(root, "dist/cli/bundle/main.js");
      expect(distIsFresh(root)).toBe(true);
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(root, "src/core/a.ts"), later, later);
      expect(distIsFresh(root)).toBe(false);
      utimesSync(join(root, "dist/core/a.js"), later, later);
      expect(distIsFresh(root)).toBe(false);
      utimesSync(join(root, "dist/cli/bundle/main.js"), later, later);
      expect(distIsFresh(root)).toBe(true);
      rmSync(join(root, "dist/cli/bundle/main.js"));
      expect(distIsFresh(root)).toBe(false);
      touch(root, "dist/cli/bundle/main.js");
      utimesSync(join(root, "dist/cli/bundle/main.js"), later, later);
      expect(distIsFresh(root)).toBe(true);
      utimesSync(join(root, "tsconfig.json"), new Date(Date.now() + 120_000), new Date(Date.now() + 120_000));
      expect(distIsFresh(root)).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
