/**
 * Real-browser helpers: headless Chromium through playwright-core (the system Chromium, no
 * downloaded browsers) and a tiny same-origin static server for test pages.
 */
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser } from "playwright-core";

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
    res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" });
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
