/**
 * agentwire/msw in a real browser: the BUILT entry (dist/msw.js, built by the global setup) is
 * bundled for the browser with esbuild — which also proves it pulls in no node built-ins — and run
 * under msw's `setupWorker` in headless Chromium. The page talks to http://localhost:8000, where
 * nothing needs to listen: the service worker answers before the network, so whether port 8000 is
 * free or busy does not matter. The events the page sees must equal the node mock's.
 *
 * Needs a system Chromium (/usr/bin/chromium, `apt-get install -y chromium`); without one the
 * test fails and says so.
 */
import { fileURLToPath } from "node:url";
import type { Metafile } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpChatMock } from "../../src/mocks/mcp-chat/index.js";
import { launchChromium, serveMswPage, type StaticServer } from "../helpers/browser.js";
import type { PageResult } from "./page/app.js";
import { readSse } from "./sse.js";

const RESULT_TIMEOUT = 20_000;

interface FlowResult {
  connectStatus: number;
  status: number;
  contentType: string | null;
  text: string;
  events: string[];
}

/** The same flow against the node mock, parsed by the same reader. */
async function nodeFlow(scenario?: string): Promise<FlowResult> {
  const mock = await startMcpChatMock({ host: "127.0.0.1", port: 0 });
  try {
    const connect = await fetch(`${mock.url}/connect/weather`, { method: "POST", signal: AbortSignal.timeout(10_000) });
    await connect.arrayBuffer();
    const query = scenario ? `?scenario=${encodeURIComponent(scenario)}` : "";
    const res = await fetch(`${mock.url}/chat/stream${query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "hi" }),
      signal: AbortSignal.timeout(15_000),
    });
    const { text, payloads } = await readSse(res.body);
    return { connectStatus: connect.status, status: res.status, contentType: res.headers.get("content-type"), text, events: payloads };
  } finally {
    await mock.close();
  }
}

const typesOf = (events: string[]) => events.map((e) => (e.startsWith("[") ? e : (JSON.parse(e) as { type?: unknown }).type));

describe("agentwire/msw under setupWorker in headless Chromium", () => {
  /** Settled in beforeAll; a missing Chromium fails each browser test with the install hint. */
  let browser: Promise<Browser> | undefined;
  let site: StaticServer | undefined;
  let metafile: Metafile;

  beforeAll(async () => {
    ({ site, metafile } = await serveMswPage(fileURLToPath(new URL("./page/app.ts", import.meta.url)), "agentwire msw worker"));
    browser = launchChromium();
    await browser.catch(() => {}); // rejection reported by the tests that need the browser
  });

  afterAll(async () => {
    await (await browser?.catch(() => undefined))?.close().catch(() => {});
    await site?.close();
  });

  /** Opens the page in a fresh context (own worker registration, own engine) and reads its result. */
  async function browserFlow(scenario?: string): Promise<{ result: FlowResult; fromWorker: boolean[] }> {
    const context = await (await browser!).newContext();
    const logs: string[] = [];
    const fromWorker: boolean[] = [];
    try {
      const page: Page = await context.newPage();
      page.on("console", (m) => logs.push(`console.${m.type()}: ${m.text()}`));
      page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
      page.on("response", (r) => {
        if (r.url().startsWith("http://localhost:8000/")) fromWorker.push(r.fromServiceWorker());
      });
      await page.goto(`${site!.url}/${scenario ? `?scenario=${encodeURIComponent(scenario)}` : ""}`, { timeout: 15_000 });
      let result: PageResult;
      try {
        const handle = await page.waitForFunction(() => window.__result, undefined, { timeout: RESULT_TIMEOUT });
        result = (await handle.jsonValue()) as PageResult;
      } catch (err) {
        throw new Error(`no window.__result within ${RESULT_TIMEOUT} ms: ${(err as Error).message}\n${logs.join("\n")}`);
      }
      if (!result.ok) throw new Error(`the page failed: ${result.error}\n${logs.join("\n")}`);
      expect(result.controller, "the page is controlled by msw's worker").toBe(`${site!.url}/mockServiceWorker.js`);
      expect(result.connectBody).toMatchObject({ success: true, server_id: "weather" });
      // Playwright's response events (connect, chat/stream) may trail the page's result a little.
      await expect.poll(() => fromWorker.length, { timeout: 5_000 }).toBe(2);
      return { result, fromWorker };
    } finally {
      await context.close().catch(() => {});
    }
  }

  it("bundles the built entry (dist/msw.js) for the browser without node built-ins", () => {
    const inputs = Object.keys(metafile.inputs);
    expect(inputs).toContain("dist/msw.js");
    expect(inputs.filter((i) => i.startsWith("node:") || i.startsWith("src/"))).toEqual([]);
  });

  for (const scenario of [undefined, "parallel-tools"]) {
    it(`shows the node mock's events (${scenario ?? "default scenario weather-tool"})`, async () => {
      const [{ result: browserResult, fromWorker }, nodeResult] = await Promise.all([browserFlow(scenario), nodeFlow(scenario)]);

      for (const r of [browserResult, nodeResult]) {
        expect(r.connectStatus).toBe(200);
        expect(r.status).toBe(200);
        expect(r.contentType).toMatch(/^text\/event-stream\b/);
        expect(r.events.at(-1)).toBe("[DONE]");
        expect(typesOf(r.events)).toContain("tool_start");
      }
      expect(browserResult.events).toEqual(nodeResult.events);
      // Same framing, same bytes.
      expect(browserResult.text).toBe(nodeResult.text);
      if (scenario === undefined) expect(browserResult.events).toHaveLength(7);
      else expect(typesOf(browserResult.events).filter((t) => t === "tool_start")).toHaveLength(2);
      // Both localhost:8000 responses Chromium saw (connect, chat/stream) came from the worker.
      expect(fromWorker).toEqual([true, true]);
    });
  }
});
