/**
 * The msw entries' types as a TypeScript project sees them, whatever its module settings: the packed tarball (the
 * built dist/ from the global setup) is unpacked into a consumer's node_modules next to msw, its declared dependencies
 * and @types/node (links to this repository's copies, so only what the package declares is there), and the repo's
 * tsc compiles the same small file as CommonJS under module nodenext, as an ES module under nodenext (as a bundler
 * resolves: the import condition), and under module commonjs (node10 resolution, which reads typesVersions). msw has separate typings for import and
 * require; the handlers' declarations must name the msw classes the consumer's `msw/node` names in each setup. The
 * CommonJS build then runs: Node requires the ES module entry.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");

// Not under a folder whose ancestors hold a node_modules of this repository's (/tmp may link one): a package the
// tarball fails to declare must stay unresolved.
const BASE = process.platform !== "win32" && existsSync("/var/tmp") ? "/var/tmp" : tmpdir();
let dir = "";

const CONSUMER = `import { setupServer } from "msw/node";
import { mcpChatHandlers } from "agentwire/msw/mcp-chat";
import { openaiChatHandlers } from "agentwire/msw/openai-chat";
import { piWebHandlers } from "agentwire/msw/pi-web";
import { continueRemoteHandlers } from "agentwire/msw/continue-remote";
import { stagewiseChatHandlers } from "agentwire/msw/stagewise-chat";
import * as all from "agentwire/msw";

export const server = setupServer(
  ...mcpChatHandlers({ baseUrl: "http://localhost:8000" }),
  ...openaiChatHandlers(),
  ...piWebHandlers(),
  ...continueRemoteHandlers(),
  ...stagewiseChatHandlers(),
  ...all.mcpChatHandlers(),
);
// The handlers are typed, not any.
// @ts-expect-error baseUrl is a string
mcpChatHandlers({ baseUrl: 8000 });
`;

const RUN = `import { setupServer } from "msw/node";
import { mcpChatHandlers } from "agentwire/msw/mcp-chat";

async function main(): Promise<void> {
  const server = setupServer(...mcpChatHandlers({ baseUrl: "http://localhost:8000" }));
  server.listen({ onUnhandledRequest: "error" });
  const res = await fetch("http://localhost:8000/servers");
  const servers = (await res.json()) as { id: string }[];
  server.close();
  console.log(JSON.stringify({ status: res.status, ids: servers.map((s) => s.id) }));
}
void main();
`;

const SETUPS: Record<string, { files: Record<string, string>; compilerOptions: Record<string, unknown> }> = {
  "CommonJS, module nodenext": { files: { "cjs.cts": CONSUMER, "run.cts": RUN }, compilerOptions: { module: "nodenext", moduleResolution: "nodenext", outDir: "out" } },
  "ES module, module nodenext": { files: { "esm.mts": CONSUMER }, compilerOptions: { module: "nodenext", moduleResolution: "nodenext", noEmit: true } },
  "module commonjs (node10 resolution)": { files: { "node10.ts": CONSUMER }, compilerOptions: { module: "commonjs", moduleResolution: "node10", esModuleInterop: true, noEmit: true } },
};

function link(name: string): void {
  const from = join(ROOT, "node_modules", name);
  expect(existsSync(from), `${name} is installed in the repository`).toBe(true);
  const to = join(dir, "node_modules", name);
  mkdirSync(dirname(to), { recursive: true });
  if (!existsSync(to)) symlinkSync(from, to, "junction");
}

beforeAll(() => {
  dir = mkdtempSync(join(BASE, "agentwire-ts-consumer-"));
  const packed = execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], { cwd: ROOT, encoding: "utf8", timeout: 60_000, maxBuffer: 32 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(packed) as [{ filename: string }];
  const target = join(dir, "node_modules", "agentwire");
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["-xzf", join(dir, filename), "-C", target, "--strip-components=1"]);
  const pkg = JSON.parse(readFileSync(join(target, "package.json"), "utf8")) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
  for (const name of [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies), "@types/node"]) link(name);
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "commonjs" }));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a TypeScript project using the msw entries", () => {
  it.each(Object.keys(SETUPS))("compiles: %s", (name) => {
    const setup = SETUPS[name]!;
    for (const [file, text] of Object.entries(setup.files)) writeFileSync(join(dir, file), text);
    const config = `tsconfig.${name.replace(/\W+/g, "-")}.json`;
    // skipLibCheck as `tsc --init` sets it (checking every library's declarations takes a minute); what is under test
    // is the consumer's file, where a handler msw refuses or an entry that does not resolve is an error.
    const compilerOptions = { target: "es2022", strict: true, skipLibCheck: true, types: ["node"], ...setup.compilerOptions };
    writeFileSync(join(dir, config), JSON.stringify({ compilerOptions, files: Object.keys(setup.files) }));
    const tsc = spawnSync(process.execPath, [TSC, "-p", config], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    expect(tsc.stdout + tsc.stderr, `tsc -p ${config}`).toBe("");
    expect(tsc.status).toBe(0);
  }, 150_000);

  it("runs as CommonJS: require() of the entry gives working handlers", () => {
    expect(existsSync(join(dir, "out", "run.cjs")), "the CommonJS setup compiled first").toBe(true);
    const run = spawnSync(process.execPath, [join(dir, "out", "run.cjs")], { cwd: dir, encoding: "utf8", timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ status: 200, ids: ["weather", "server-id-1"] });
  }, 90_000);
});
