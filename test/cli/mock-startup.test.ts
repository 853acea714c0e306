/**
 * `agentwire mock <protocol>` answers its first request quickly because it loads only what that
 * answer needs: not commander or the other commands, not the checks, not another protocol, and
 * none of the heavy libraries a plain mock can do without (zod, ajv, and `ws`, tRPC and superjson
 * before a client connects). The bin runs with a module log (ESM through loader hooks, CommonJS
 * from require's cache) written when it stops.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN, ROOT } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "agentwire-startup-"));
const HOOKS = join(dir, "hooks.mjs");
const LOGGER = join(dir, "log.mjs");
writeFileSync(
  HOOKS,
  `import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  const r = await next(url, context);
  if (process.env.MODULE_LOG) appendFileSync(process.env.MODULE_LOG, url + "\\n");
  return r;
}
`,
);
writeFileSync(
  LOGGER,
  `import { register, createRequire } from "node:module";
import { appendFileSync } from "node:fs";
register(${JSON.stringify(pathToFileURL(HOOKS).href)});
const cache = createRequire(import.meta.url).cache;
process.on("exit", () => appendFileSync(process.env.MODULE_LOG, Object.keys(cache).join("\\n") + "\\n"));
`,
);

/** A plain request each mock answers without a scenario. */
const FIRST: Record<string, string> = { "mcp-chat": "/status", "openai-chat": "/v1/models", "pi-web": "/", "continue-remote": "/state", "stagewise-chat": "/stagewise/info" };
const PROTOCOLS = Object.keys(FIRST);

/** Modules loaded by `agentwire mock <id>` up to its first answer (and its stop). */
async function modulesOf(id: string): Promise<string[]> {
  const log = join(dir, `${id}.log`);
  writeFileSync(log, "");
  const child = spawn(process.execPath, ["--import", pathToFileURL(LOGGER).href, BIN, "mock", id, "--port", "0"], {
    cwd: ROOT,
    env: { ...process.env, MODULE_LOG: log },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      const timer = setTimeout(() => reject(new Error(`no URL from agentwire mock ${id}`)), 20_000);
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const line = out.match(/^(\S+)\n/);
        if (line) {
          clearTimeout(timer);
          resolve(line[1]!.replace(/^ws:/, "http:").replace(/\/ws$|\/v1$/, ""));
        }
      });
    });
    const res = await fetch(url + FIRST[id], { signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
  } finally {
    child.kill("SIGTERM");
    await exited;
  }
  return readFileSync(log, "utf8").split("\n").filter(Boolean).flatMap(unbundled);
}

/** Which built modules each file of the CLI bundle holds (written by the build). */
const BUNDLED = JSON.parse(readFileSync(join(ROOT, "dist", "cli", "bundle", "inputs.json"), "utf8")) as Record<string, string[]>;

/** A loaded module as the built modules it holds: a file of the CLI bundle stands for the modules bundled into it. */
function unbundled(url: string): string[] {
  const m = url.match(/\/dist\/cli\/bundle\/([^/]+\.js)$/);
  if (!m) return [url];
  const inputs = BUNDLED[m[1]!];
  if (!inputs) throw new Error(`${url} is not in the bundle's list of files`);
  return inputs.map((i) => `/${i}`);
}

describe.concurrent("agentwire mock loads only what its first answer needs", () => {
  it.each(PROTOCOLS)("%s", async (id) => {
    const loaded = await modulesOf(id);
    // The log works: the mock's own modules are in it.
    expect(loaded.some((m) => m.includes(`/dist/mocks/${id}/`))).toBe(true);
    const heavy = loaded.filter((m) => /node_modules\/(commander|zod|ajv|ajv-formats|ws|yaml|picocolors|eventsource-parser|@trpc\/server|superjson)\//.test(m));
    expect(heavy).toEqual([]);
    const others = loaded.filter((m) => PROTOCOLS.some((p) => p !== id && (m.includes(`/dist/mocks/${p}/`) || m.includes(`/dist/suites/${p}/`))));
    expect(others).toEqual([]);
    // Neither checks, runner nor reporters: the suite's mock.js and params.js are all of the suite.
    const kit = loaded.filter((m) => /\/dist\/(core\/(checks|verdicts|views|run\/runner|reporters\/index)|suites\/[^/]+\/(checks|client|probes))/.test(m));
    expect(kit).toEqual([]);
  });
});
