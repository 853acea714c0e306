/**
 * Violations reported the moment a check sees them: through the runner (what `--reporter ndjson` prints before the
 * verdicts), through the proxy (before it is stopped), valid against schemas/report-line.schema.json, and harmless
 * when the listener itself breaks.
 */
import { describe, expect, it } from "vitest";
import { ndjsonViolation } from "../../src/core/reporters/ndjson.js";
import type { LiveViolation } from "../../src/core/verdicts/result.js";
import { runSuite } from "../../src/core/run/runner.js";
import { mcpChat } from "../../src/suites/mcp-chat/index.js";
import { lineValidator } from "../helpers/report-lines.js";
import { quickMock } from "../helpers/quick-pacing.js";
import { mockBehindProxy } from "../proxy/harness.js";

const QUICK = { params: { ...(mcpChat.selfTest?.params ?? {}) } };

describe.concurrent("live violations", () => {
  it("the runner tells each violation while the probes still run, before any verdict, with the offending event", async () => {
    const order: string[] = [];
    const violations: LiveViolation[] = [];
    const result = await runSuite(mcpChat, {
      only: ["mcp-chat/sse"],
      mock: { ...quickMock("mcp-chat"), faults: ["sse-crlf"] },
      ...QUICK,
      onViolation: (v) => {
        order.push(`violation ${v.check}`);
        violations.push(v);
      },
      onVerdict: (c) => order.push(`verdict ${c.id}`),
    });
    const failedIds = result.checks.filter((c) => c.outcome === "fail").map((c) => c.id);
    expect(failedIds).toContain("mcp-chat/sse/lf-only");
    const first = order.findIndex((l) => l.startsWith("verdict"));
    expect(order.indexOf("violation mcp-chat/sse/lf-only")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("violation mcp-chat/sse/lf-only")).toBeLessThan(first);
    // Every violation told belongs to a check that ends failed: an early line never contradicts the verdict.
    for (const v of violations) expect(failedIds).toContain(v.check);
    const lf = violations.find((v) => v.check === "mcp-chat/sse/lf-only")!;
    expect(lf).toMatchObject({ level: "MUST", side: "server" });
    expect(lf.evidence.exchange).toBeTruthy();
    expect(typeof lf.evidence.seq).toBe("number");
    const validate = lineValidator();
    const line = JSON.parse(ndjsonViolation(lf, { protocol: "mcp-chat", side: "server" }));
    expect(validate(line), JSON.stringify(validate.errors)).toBe(true);
    expect(line).toMatchObject({ type: "violation", protocol: "mcp-chat", check: "mcp-chat/sse/lf-only" });
  });

  it("a listener that throws changes no verdict", async () => {
    const result = await runSuite(mcpChat, {
      only: ["mcp-chat/sse/lf-only"],
      mock: { ...quickMock("mcp-chat"), faults: ["sse-crlf"] },
      ...QUICK,
      onViolation: () => {
        throw new Error("listener broke");
      },
    });
    const lf = result.checks.find((c) => c.id === "mcp-chat/sse/lf-only")!;
    expect([lf.verdict, lf.message]).toEqual(["fail", expect.not.stringContaining("internal error")]);
  });

  it("the proxy tells a violation on relayed traffic before it is stopped", async () => {
    const seen: LiveViolation[] = [];
    const run = await mockBehindProxy(mcpChat, { ...quickMock("mcp-chat"), faults: ["sse-crlf"] }, { ...QUICK, onViolation: (v) => void seen.push(v) });
    const base = run.proxy.url;
    const servers = (await (await fetch(`${base}/servers`)).json()) as { id: string }[];
    await (await fetch(`${base}/connect/${encodeURIComponent(servers[0]!.id)}`, { method: "POST" })).text();
    await (await fetch(`${base}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"hi"}' })).text();
    const beforeClose = seen.map((v) => v.check);
    const result = await run.close();
    expect(beforeClose).toContain("mcp-chat/sse/lf-only");
    expect(result.server!.checks.find((c) => c.id === "mcp-chat/sse/lf-only")!.verdict).toBe("fail");
  });
});
