/**
 * Real-browser helpers: headless Chromium through playwright-core (the system Chromium, no
 * downloaded browsers) and a tiny same-origin static server for test pages.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build, formatMessages, type Message, type Metafile } from "esbuild";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";

/** The Debian package's binary; AGENTWIRE_CHROMIUM points elsewhere. */
export const CHROMIUM_PATH = process.env.AGENTWIRE_CHROMIUM || "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  // The test page (127.0.0.1:<port>) fetches http://localhost:8000, which the worker answers.
  "--disable-features=LocalNetworkAccessChecks",
];

/** Launches headless Chromium; a missing binary is a failure with the fix, never a silent skip. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: the browser tests need a real Chromium. ` +
        "Install it with `apt-get install -y chromium` (CI does), or set AGENTWIRE_CHROMIUM to a Chromium binary.",
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
}

export interface StaticFile {
  type: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves fixed files by path (query ignored) on 127.0.0.1:<free port>; anything else is a 404. */
export async function serveStatic(files: Record<string, StaticFile>): Promise<StaticServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const file = Object.hasOwn(files, path) ? files[path] : undefined;
    if (!file || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": file.type, "cache-control": "no-store", ...file.headers });
    res.end(req.method === "HEAD" ? undefined : file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WORKER_SCRIPT = fileURLToPath(new URL("../../node_modules/msw/lib/mockServiceWorker.js", import.meta.url));

/**
 * A test page's script as the browser gets it (esbuild, browser platform); errors name the module
 * that failed, which is how a node built-in pulled into agentwire/msw shows up.
 */
export async function bundlePage(entry: string): Promise<{ code: string; metafile: Metafile }> {
  try {
    const out = await build({
      entryPoints: [entry],
      absWorkingDir: ROOT,
      bundle: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    return { code: out.outputFiles[0]!.text, metafile: out.metafile };
  } catch (err) {
    const errors = (err as { errors?: Message[] }).errors;
    if (!errors) throw err;
    const text = (await formatMessages(errors, { kind: "error", color: false })).join("\n");
    throw new Error(`esbuild could not bundle agentwire/msw for the browser (a node built-in pulled in?):\n${text}`);
  }
}

/**
 * What the test pages allow: scripts from their own origin, and no eval or `new Function` (no 'unsafe-eval'), as
 * many apps' Content-Security-Policy says; the handlers must work under it.
 */
export const PAGE_CSP = "script-src 'self'";

/**
 * A page running `entry` under msw's service worker: the HTML (with PAGE_CSP), the bundled script and
 * mockServiceWorker.js served from one loopback origin.
 */
export async function serveMswPage(entry: string, title: string): Promise<{ site: StaticServer; metafile: Metafile }> {
  const bundle = await bundlePage(entry);
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${title}</title></head>
<body><script type="module" src="/app.js"></script></body></html>`;
  const site = await serveStatic({
    "/": { type: "text/html; charset=utf-8", body: html, headers: { "content-security-policy": PAGE_CSP } },
    "/app.js": { type: "text/javascript; charset=utf-8", body: bundle.code },
    "/mockServiceWorker.js": { type: "text/javascript; charset=utf-8", body: readFileSync(WORKER_SCRIPT) },
  });
  return { site, metafile: bundle.metafile };
}

/**
 * One msw page in headless Chromium for a describe block: the page bundled and served before the
 * tests, one browser shared by them, and `open(query)` that loads the page in a fresh context and
 * returns what it left in `window[resultKey]` — failing with the page's console when it left
 * nothing, failed, or was not controlled by msw's worker.
 */
export function mswPageHarness<R extends { ok: boolean; error?: string; controller?: string | null }>(entry: string, title: string, resultKey: string, timeoutMs = 30_000) {
  let browser: Promise<Browser> | undefined;
  let site: StaticServer | undefined;
  let metafile: Metafile | undefined;
  beforeAll(async () => {
    ({ site, metafile } = await serveMswPage(entry, title));
    browser = launchChromium();
    await browser.catch(() => {}); // rejection reported by the tests that need the browser
  }, 60_000);
  afterAll(async () => {
    await (await browser?.catch(() => undefined))?.close().catch(() => {});
    await site?.close();
  });
  return {
    metafile: (): Metafile => metafile!,
    async open(query = ""): Promise<Extract<R, { ok: true }>> {
      const context = await (await browser!).newContext();
      const logs: string[] = [];
      try {
        const page = await context.newPage();
        page.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`));
        page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
        await page.goto(`${site!.url}/${query}`, { timeout: 15_000 });
        let result: R;
        try {
          const handle = await page.waitForFunction((key) => (window as unknown as Record<string, unknown>)[key], resultKey, { timeout: timeoutMs });
          result = (await handle.jsonValue()) as R;
        } catch (err) {
          throw new Error(`no window.${resultKey} within ${timeoutMs} ms: ${(err as Error).message}\n${logs.join("\n")}`);
        }
        if (!result.ok) throw new Error(`the page failed: ${result.error}\n${logs.join("\n")}`);
        expect(result.controller, "the page is controlled by msw's worker").toBe(`${site!.url}/mockServiceWorker.js`);
        return result as Extract<R, { ok: true }>;
      } finally {
        await context.close().catch(() => {});
      }
    },
  };
}
