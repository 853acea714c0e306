/**
 * What a frontend pays for agentwire's msw entries: each entry of package.json's `exports` under
 * `./msw` (the BUILT file in dist/, built by the global setup) bundled for the browser as a
 * frontend build would (esbuild, minified, msw left to the app). Each stays under its size budget,
 * reaches no node built-in, and pulls in no full zod build with its locales.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, formatMessages, type Message, type Metafile } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

interface PackageJson {
  exports: Record<string, string | { types?: string; default: string }>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  devDependencies?: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(new URL("package.json", `file://${ROOT}`), "utf8")) as PackageJson;

/** Minified bytes: one protocol's engine, and every protocol's together. */
const PROTOCOL_BUDGET = 128 * 1024;
const ALL_BUDGET = 400 * 1024;
/**
 * stagewise-chat's engine is the agent adapter itself: it carries @trpc/server's core, superjson and the protocol's
 * validators (input validation in the page, compiled ahead of time: no ajv), which the other engines do not need.
 */
const STAGEWISE_EXTRA = 128 * 1024;
const BUDGET: Record<string, number> = { "./msw": ALL_BUDGET + STAGEWISE_EXTRA, "./msw/stagewise-chat": PROTOCOL_BUDGET + STAGEWISE_EXTRA };

const mswEntries = Object.entries(pkg.exports)
  .filter(([key]) => key === "./msw" || key.startsWith("./msw/"))
  .map(([key, target]) => ({ key, file: typeof target === "string" ? target : target.default }));

async function bundle(file: string): Promise<{ bytes: number; metafile: Metafile }> {
  try {
    const out = await build({
      entryPoints: [file],
      absWorkingDir: ROOT,
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      external: ["msw"],
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    return { bytes: out.outputFiles[0]!.contents.byteLength, metafile: out.metafile };
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (!errors) throw err;
    throw new Error(`esbuild could not bundle ${file} for the browser:\n${(await formatMessages(errors, { kind: "error", color: false })).join("\n")}`);
  }
}

describe("msw entries of the package", () => {
  it("one per protocol with msw handlers, next to agentwire/msw", () => {
    const withHandlers = readdirSync(`${ROOT}src/mocks`).filter((p) => existsSync(`${ROOT}src/mocks/${p}/msw.ts`));
    expect(mswEntries.map((e) => e.key).sort()).toEqual(["./msw", ...withHandlers.map((p) => `./msw/${p}`)].sort());
    for (const { key, file } of mswEntries) {
      const target = pkg.exports[key] as { types: string; default: string };
      expect(target.types, key).toBe(file.replace(/\.js$/, ".d.ts"));
      expect(existsSync(`${ROOT}${file}`), `${key} → ${file} is built`).toBe(true);
    }
  });

  it("declare msw an optional peer dependency, installed for the tests", () => {
    expect(pkg.peerDependencies?.msw).toMatch(/^\^2\./);
    expect(pkg.peerDependenciesMeta?.msw?.optional).toBe(true);
    expect(pkg.devDependencies?.msw).toBeDefined();
  });

  it.each(mswEntries)("$key bundles for the browser within its budget, with no node built-in and no full zod", async ({ key, file }) => {
    const { bytes, metafile } = await bundle(file);
    const budget = BUDGET[key] ?? PROTOCOL_BUDGET;
    expect(bytes, `${key} weighs ${bytes} bytes minified`).toBeLessThanOrEqual(budget);
    const output = Object.values(metafile.outputs)[0]!;
    const external = output.imports.filter((i) => i.external).map((i) => i.path);
    expect(external.filter((p) => p !== "msw" && !p.startsWith("msw/")), `${key} leaves these to the page`).toEqual([]);
    expect(Object.keys(metafile.inputs).filter((p) => p.startsWith("node:"))).toEqual([]);
    // What ends up in the bundle (modules reached but shaken away weigh nothing). zod/mini with the
    // English messages only: the full build carries every locale.
    const inputs = Object.entries(output.inputs).filter(([, i]) => i.bytesInOutput > 0).map(([p]) => p);
    expect(inputs.filter((p) => /node_modules\/zod\/v4\/(classic|locales\/(?!en\.js))/.test(p)), `${key} pulls in full zod`).toEqual([]);
  });
});
