/**
 * The published tarball as `npm pack --dry-run --json` lists it (the built dist/ from the global
 * setup; scripts skipped so nothing rebuilds): every entry point it declares is in it, and it
 * carries no source map, nor a pointer to one, naming sources it does not ship.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

interface PackEntry {
  path: string;
}

/** An exports target: a path, or conditions (possibly nested) leading to paths. */
type Conditions = string | { [condition: string]: Conditions };
const paths = (t: Conditions): string[] => (typeof t === "string" ? [t] : Object.values(t).flatMap(paths));

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let packed: Set<string>;

beforeAll(async () => {
  const { stdout } = await promisify(execFile)(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    timeout: 60_000,
    maxBuffer: 32 * 1024 * 1024,
  });
  const [info] = JSON.parse(stdout) as [{ files: PackEntry[] }];
  packed = new Set(info.files.map((f) => f.path));
});

describe("the npm package", () => {
  it("ships every file its exports and bin point at", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      bin: Record<string, string>;
      exports: Record<string, Conditions>;
      types: string;
      typesVersions: Record<string, Record<string, string[]>>;
    };
    const targets = [
      ...Object.values(pkg.bin),
      ...Object.values(pkg.exports).flatMap(paths),
      pkg.types,
      ...Object.values(pkg.typesVersions).flatMap((map) => Object.values(map).flat()),
    ]
      .filter((t) => !t.includes("*"))
      .map((t) => t.replace(/^\.\//, ""));
    expect(targets.length).toBeGreaterThan(10);
    expect(targets.filter((t) => !packed.has(t))).toEqual([]);
    expect(packed.has("dist/mocks/openai-chat/msw.js")).toBe(true);
    expect(packed.has("dist/mocks/openai-chat/msw.d.cts")).toBe(true);
  });

  it("ships the whole CLI bundle the bin runs, without the build's list of what each file holds", () => {
    const bundled = Object.keys(JSON.parse(readFileSync(join(ROOT, "dist", "cli", "bundle", "inputs.json"), "utf8")) as Record<string, string[]>);
    expect(bundled).toContain("main.js");
    expect(bundled.filter((f) => !packed.has(`dist/cli/bundle/${f}`))).toEqual([]);
    expect(packed.has("dist/cli/bundle/inputs.json")).toBe(false);
    expect(readFileSync(join(ROOT, "bin", "agentwire.js"), "utf8")).toContain('"../dist/cli/bundle/main.js"');
  });

  it("ships the examples the README and --help run, and the licence", () => {
    for (const f of ["mcp-chat-client.mjs", "openai-chat-client.mjs", "pi-web-client.mjs", "continue-remote-client.mjs", "stagewise-agent.mjs", "stagewise-toolbar.mjs"]) {
      expect(packed.has(`examples/${f}`), f).toBe(true);
    }
    expect(packed.has("LICENSE")).toBe(true);
  });

  it("carries no source maps and no sourceMappingURL to a file it lacks", () => {
    expect([...packed].filter((p) => p.endsWith(".map"))).toEqual([]);
    expect([...packed].some((p) => p.startsWith("src/"))).toBe(false);
    const dangling: string[] = [];
    for (const path of packed) {
      if (!/\.(c|m)?js$|\.d\.ts$/.test(path)) continue;
      const url = /[#@] sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(ROOT, path), "utf8"))?.[1];
      if (url !== undefined && !url.startsWith("data:") && !packed.has(join(path, "..", url))) dangling.push(`${path} → ${url}`);
    }
    expect(dangling).toEqual([]);
  });
});
