/**
 * --reporter html: one offline file, opened in headless Chromium. The page loads nothing but
 * itself; it shows the summary, the checks grouped by id prefix, and for a failure the rule, the
 * contract sentence, expected vs actual, the evidence and its exchange with the offending event.
 * A screenshot of each page is kept under test-artifacts/ (git-ignored).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { launchChromium } from "../helpers/browser.js";
import { runCliInProcess, ROOT } from "../helpers/cli.js";

const ARTEFACTS = join(ROOT, "test-artifacts", "html-report");

let browser: Browser;
beforeAll(async () => {
  mkdirSync(ARTEFACTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens a report file; returns the page and every URL it asked for. */
async function open(file: string) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  const requested: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  const url = pathToFileURL(file).href;
  await page.goto(url);
  return { page, requested, url };
}

describe("html reporter", () => {
  it("an HTTP failure: summary, groups, the failure explained with its request, response head and offending line", async () => {
    const file = join(ARTEFACTS, "mcp-chat.html");
    const r = await runCliInProcess(["test", "mcp-chat", "--quiet", "--fault", "sse-crlf", "--only", "mcp-chat/sse", "--only", "mcp-chat/servers", "--reporter", "html", "--output", file]);
    expect(r.code, r.stderr).toBe(1);
    const html = readFileSync(file, "utf8");
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i);
    const { page, requested, url } = await open(file);
    try {
      expect(requested).toEqual([url]);
      expect(await page.textContent("#overall")).toMatch(/^failed — \d+ passed, 1 failed, .* — exit 1$/);
      expect(await page.locator("section.group").evaluateAll((els) => els.map((e) => e.getAttribute("data-prefix")))).toEqual(["mcp-chat/servers", "mcp-chat/sse"]);
      const failure = page.locator("details.check.v-fail");
      expect(await failure.count()).toBe(1);
      expect(await failure.getAttribute("open")).not.toBeNull();
      expect(await failure.locator("summary code").textContent()).toBe("mcp-chat/sse/lf-only");
      expect(await failure.locator(".rule").textContent()).toContain("The body contains no CR.");
      expect(await failure.locator(".contract blockquote").textContent()).toContain("data: {json_payload}");
      expect(await failure.locator(".expected").textContent()).toBe("lines ended by LF only");
      expect(await failure.locator(".actual").textContent()).toMatch(/ends with CRLF/);
      expect(await failure.locator("ul.evidence li").count()).toBeGreaterThan(0);
      const request = await failure.locator("pre.request").first().textContent();
      expect(request).toMatch(/^POST http:\/\/127\.0\.0\.1:\d+\/chat\/stream\n/);
      expect(request).toContain('{"message":');
      expect(await failure.locator("pre.response").first().textContent()).toMatch(/^HTTP 200\n(.*\n)*content-type: text\/event-stream/);
      const offending = await failure.locator("ol.events li.offending").first().textContent();
      expect(offending).toMatch(/sse-line .*\\r\\n/);
      expect(await failure.locator("pre.curl").first().textContent()).toMatch(/^curl .* -X POST/);
      expect(await failure.locator("pre.cmd").last().textContent()).toContain("--only mcp-chat/sse/lf-only");
      // Passing checks are there, folded.
      const passing = page.locator("details.check.v-pass");
      expect(await passing.count()).toBeGreaterThan(5);
      expect(await passing.first().getAttribute("open")).toBeNull();
      await page.screenshot({ path: join(ARTEFACTS, "mcp-chat.png"), fullPage: true });
    } finally {
      await page.close();
    }
  });

  it("a WebSocket failure shows the frames around the offending one, from a replayed transcript", async () => {
    const dir = join(ARTEFACTS, "pi-web-transcript");
    const live = await runCliInProcess(["test", "pi-web", "--quiet", "--fault", "snake-case-fields", "--save-transcript", dir, "--reporter", "json", "--output", join(ARTEFACTS, "pi-web.json")]);
    expect(live.code).toBe(1);
    const transcript = JSON.parse(readFileSync(join(ARTEFACTS, "pi-web.json"), "utf8")).transcript as string;
    const file = join(ARTEFACTS, "pi-web.html");
    const r = await runCliInProcess(["replay", transcript, "--quiet", "--reporter", "html", "--output", file]);
    expect(r.code).toBe(1);
    const { page, requested, url } = await open(file);
    try {
      expect(requested).toEqual([url]);
      const failure = page.locator("details.check.v-fail", { hasText: "pi-web/framing/server-schema" });
      expect(await failure.count()).toBe(1);
      const exchange = failure.locator(".exchange").first();
      expect(await exchange.locator("h4").textContent()).toMatch(/^connection w\d+/);
      expect(await exchange.locator("pre.request").textContent()).toMatch(/^GET ws:\/\/127\.0\.0\.1:\d+/);
      const frames = await exchange.locator("ol.events li").allTextContents();
      expect(frames.length).toBeGreaterThan(1);
      expect(frames.some((f) => f.includes("ws-frame"))).toBe(true);
      expect(await exchange.locator("li.offending").first().textContent()).toMatch(/ws-frame ← \{/);
      // A WebSocket exchange has no curl.
      expect(await exchange.locator("pre.curl").count()).toBe(0);
      await page.screenshot({ path: join(ARTEFACTS, "pi-web.png"), fullPage: true });
    } finally {
      await page.close();
    }
  });
});
