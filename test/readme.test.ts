import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { withChecks } from "../scripts/readme-checks-lib.js";
import { RESYNC_COMMANDS } from "../src/suites/pi-web/client/index.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

describe("README", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

  it("has a check table generated from the current catalogue (run npm run gen when this fails)", () => {
    expect(readme === withChecks(readme), "README check table is stale: run npm run gen").toBe(true);
  });

  it("names, for a pi-web client that reconnects, the commands client/reconnect-resync requires", () => {
    const sentence = /a reconnecting client resyncs with\s+([^.]*)/.exec(readme)?.[1] ?? "";
    expect(sentence).not.toBe("");
    for (const command of RESYNC_COMMANDS) expect(sentence, command).toContain(`\`${command}\``);
  });

  it("shows the two commands and the test command CI runs", () => {
    expect(readme).toContain("npm install && npx agentwire test");
    expect(readme).toContain("npm test");
  });
});

/** The README's TypeScript examples that use agentwire's msw handlers. */
function mswExamples(readme: string): string[] {
  return [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((code) => /from "agentwire\/msw/.test(code));
}

describe("README msw examples", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { exports: Record<string, unknown> };
  const examples = mswExamples(readme);
  const perProtocol = Object.keys(pkg.exports).filter((k) => k.startsWith("./msw/")).map((k) => `agentwire${k.slice(1)}`);

  it("import per-protocol entries the package exports, each of which the README lists", () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
    const imported = examples.flatMap((code) => [...code.matchAll(/from "(agentwire\/msw[^"]*)"/g)].map((m) => m[1]!));
    expect(imported.filter((i) => !perProtocol.includes(i))).toEqual([]);
    for (const entry of perProtocol) expect(readme).toContain(`\`${entry}\``);
  });

  it("say how to install the service worker, and start it in every browser example", () => {
    expect(readme).toMatch(/npx msw init public\/ --save/);
    const browser = examples.filter((code) => code.includes('"msw/browser"'));
    expect(browser.length).toBeGreaterThanOrEqual(3);
    for (const code of browser) expect(code).toMatch(/await setupWorker\(\.\.\.\w+\([^)]*\)\)\.start\(\);/);
  });

  // esbuild refuses an import of a name the module does not export, and every handler factory
  // called must be imported: copy-paste correct.
  it.each(examples.map((code, i) => [i + 1, code] as const))("example %i bundles against the built package", async (_, code) => {
    const browser = code.includes('"msw/browser"');
    const imported = [...code.matchAll(/^import \{([^}]*)\} from/gm)].flatMap((m) => m[1]!.split(",").map((n) => n.trim()).filter(Boolean));
    for (const [, name] of code.matchAll(/\b(\w+Handlers)\(/g)) expect(imported, `${name} is imported`).toContain(name);
    await build({
      // Every imported name used, so esbuild checks that each one is exported.
      stdin: { contents: `${code}\nconsole.log(${imported.join(", ")});\n`, resolveDir: ROOT, loader: "ts", sourcefile: "README example" },
      bundle: true,
      write: false,
      format: "esm",
      platform: browser ? "browser" : "node",
      target: "es2022",
      logLevel: "silent",
    });
  });
});
