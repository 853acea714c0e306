/**
 * Markdown (CI summaries), JUnit with per-check times, and the console: a failures recap at the
 * end, one overall line for several runs, colour only when NO_COLOR/FORCE_COLOR/the TTY say so.
 */
import { describe, expect, it, beforeAll } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { formatReport } from "../../src/core/reporters/index.js";
import { colourWanted } from "../../src/core/reporters/colour.js";
import type { RunResult } from "../../src/core/verdicts/result.js";
import { runSuite } from "../../src/core/run/runner.js";
import { loadProtocol } from "../../src/protocol-loader.js";
import { runCli, ROOT } from "../helpers/cli.js";

let failing: RunResult;
beforeAll(async () => {
  failing = await runSuite(await loadProtocol("mcp-chat"), { mock: { faults: ["sse-crlf"] }, only: ["mcp-chat/sse", "mcp-chat/servers"] });
});

describe("markdown reporter", () => {
  it("has a counts table, and each failure with rule, contract, expected/actual, evidence and its replay command", () => {
    const md = formatReport("markdown", [failing]);
    expect(md).toMatch(/^## agentwire ❌ failed/);
    expect(md).toMatch(/\| mcp-chat \| server \| built-in mock .* \| \d+ \| 1 \| 0 \| \d+ \| 0 \| 0 \| 1 \|/);
    expect(md).toContain("#### ❌ `mcp-chat/sse/lf-only` [MUST]");
    expect(md).toContain("- **rule:** The body contains no CR.");
    expect(md).toMatch(/- \*\*contract:\*\* “.*” \(mcp-chat contract, /);
    expect(md).toContain("- **expected:** lines ended by LF only");
    expect(md).toMatch(/- \*\*evidence:\*\* chat-stream, exchange x\d+/);
    expect(md).toContain("agentwire test mcp-chat --only mcp-chat/sse/lf-only --save-transcript transcripts");
    // Passing checks are counted, not listed.
    expect(md).not.toContain("mcp-chat/sse/utf8");
  });

  it("tells a proxied run's failure to go through the proxy again, not to pass the report's target as a URL", () => {
    const proxied = { ...failing, target: "http://127.0.0.1:8000 (through agentwire proxy)", proxied: "http://127.0.0.1:8000" };
    const md = formatReport("markdown", [proxied]);
    expect(md).toContain("agentwire proxy mcp-chat --target http://127.0.0.1:8000 --only mcp-chat/sse/lf-only --save-transcript transcripts");
    expect(md).not.toContain("--url");
  });

  it("says passed for a clean run", async () => {
    const clean = { ...failing, checks: failing.checks.filter((c) => c.verdict === "pass"), summary: { ...failing.summary, fail: 0 }, exitCode: 0 as const };
    expect(formatReport("markdown", [clean])).toMatch(/^## agentwire ✅ passed\n/);
  });
});

describe("junit reporter", () => {
  it("replaces what XML 1.0 forbids (U+FFFE, U+FFFF, lone surrogates, controls) but keeps a whole astral character", () => {
    const odd = "oops \uFFFF \uFFFE \uD800 x \uDC00 \u0001 🙂";
    const run = { ...failing, checks: failing.checks.map((c) => (c.verdict === "fail" ? { ...c, message: odd } : c)) };
    const xml = formatReport("junit", [run]);
    expect(xml).toContain("oops \uFFFD \uFFFD \uFFFD x \uFFFD \uFFFD 🙂");
    expect(xml).not.toMatch(/[\uFFFE\uFFFF\u0001]/);
  });

  it("gives each testcase the wire time of its check", () => {
    const xml = formatReport("junit", [failing]);
    const times = [...xml.matchAll(/<testcase name="([^"]+)"[^>]* time="([\d.]+)"/g)].map((m) => [m[1]!, Number(m[2])] as const);
    expect(times).toHaveLength(failing.checks.length);
    for (const [id, t] of times) expect(t).toBeCloseTo(Math.round(failing.checks.find((c) => c.id === id)!.durationMs!) / 1000, 3);
    // Real times: the stream checks took the chat stream's time, the servers check its own short probe.
    const stream = times.find(([id]) => id === "mcp-chat/sse/lf-only")![1];
    expect(stream).toBeGreaterThan(0);
    expect(new Set(times.map(([, t]) => t)).size).toBeGreaterThan(1);
  });
});

/** The element names of an XML text, checked to nest: every start tag closed, in order (text and attributes are not parsed). */
function elementsNest(xml: string): string[] {
  const open: string[] = [];
  const seen: string[] = [];
  for (const m of xml.matchAll(/<(\/?)([A-Za-z][\w-]*)[^>]*?(\/?)>/g)) {
    const [, close, name, empty] = m;
    if (close) expect(open.pop(), `</${name}> closes the element last opened`).toBe(name);
    else {
      seen.push(name!);
      if (!empty) open.push(name!);
    }
  }
  expect(open, "elements left open").toEqual([]);
  return seen;
}

describe("console reporter, both sides of one protocol", () => {
  it("names each run's side in the overall line", () => {
    const client = { ...failing, side: "client" as const };
    const out = formatReport("console", [failing, client]);
    expect(out).toMatch(/all 2 runs \(mcp-chat server, mcp-chat client\): /);
  });
});

describe("junit reporter, several runs", () => {
  it("is one well-formed document: a testsuite per run, whole failures, totals at the root", () => {
    const second = { ...failing, protocol: "openai-chat" };
    const xml = formatReport("junit", [failing, second]);
    const names = elementsNest(xml);
    expect(names.filter((n) => n === "testsuites")).toHaveLength(1);
    expect(names.filter((n) => n === "testsuite")).toHaveLength(2);
    // A failure's body spans lines: every line of it is kept.
    expect(xml.match(/<failure /g)).toHaveLength(2);
    expect(xml.match(/<\/failure>/g)).toHaveLength(2);
    const root = /<testsuites name="agentwire" tests="(\d+)" failures="(\d+)" skipped="(\d+)"/.exec(xml)!;
    expect(Number(root[1])).toBe(2 * failing.checks.length);
    expect(Number(root[2])).toBe(2 * failing.summary.fail);
    elementsNest(formatReport("junit", [failing]));
  });
});

describe.concurrent("console reporter", () => {
  it("ends with a failures recap, one line per failure with its replay command", () => {
    const out = formatReport("console", [failing]);
    const recap = out.slice(out.indexOf("⎯⎯⎯⎯ 1 failure ⎯⎯⎯⎯"));
    expect(recap).toMatch(/^⎯⎯⎯⎯ 1 failure ⎯⎯⎯⎯\nFAIL mcp-chat\/sse\/lf-only — .*CRLF.*\n {5}agentwire test mcp-chat --only mcp-chat\/sse\/lf-only/);
    expect(out).not.toContain("all 1 runs");
  });

  it("prints one overall line when several protocols run", async () => {
    const r = await runCli(["test", "--quiet", "--only", "mcp-chat/sse", "--only", "openai-chat/models"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split("\n").at(-1)).toMatch(/^all 2 runs \(mcp-chat, openai-chat\): \d+ passed, 0 failed, 0 warnings, 0 info, 0 skipped, 0 incomplete — exit 0$/);
    expect(r.stdout).not.toContain("⎯⎯⎯⎯");
  });

  it("colours only when asked: FORCE_COLOR yes, NO_COLOR no, a pipe no", async () => {
    const args = ["test", "mcp-chat", "--quiet", "--only", "mcp-chat/sse/lf-only"];
    const forced = await runCli(args, { env: { FORCE_COLOR: "1", NO_COLOR: "" } });
    expect(forced.stdout).toContain("\x1b[32mPASS");
    const none = await runCli(args, { env: { FORCE_COLOR: "1", NO_COLOR: "1" } });
    expect(none.stdout).not.toContain("\x1b[");
    const piped = await runCli(args, { env: { FORCE_COLOR: "", NO_COLOR: "" } });
    expect(piped.stdout).not.toContain("\x1b[");
    expect(colourWanted({ isTTY: true }, {})).toBe(true);
    expect(colourWanted({ isTTY: true }, { TERM: "dumb" })).toBe(false);
    expect(colourWanted({ isTTY: false }, { FORCE_COLOR: "0" })).toBe(false);
    expect(colourWanted({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
  });

  it("writes no colour escape by hand: picocolors does it", () => {
    const dir = join(ROOT, "src/core/reporters");
    for (const f of readdirSync(dir)) expect(readFileSync(join(dir, f), "utf8"), f).not.toMatch(/\\x1b\[|\\u001b\[|\\033\[/);
  });
});
