/**
 * Hostile targets end in verdicts within the waits: a /state that answers garbage, one that
 * hangs, and one that flips between two histories.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { runSuite } from "../../../src/core/run/runner.js";
import { continueRemote } from "../../../src/suites/continue-remote/index.js";
import { byId } from "../../helpers/run-results.js";

async function against(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
  let n = 0;
  const server = createServer((req, res) => handler(req, res, ++n));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const started = performance.now();
  try {
    const r = await runSuite(continueRemote, {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      timeout: 1000,
      params: { pollIntervalMs: 10, turnTimeoutMs: 1000, getExitWaitMs: 10 },
    });
    return { r, ms: performance.now() - started };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

const json = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body);
};

describe("continue-remote suite against hostile targets", () => {
  it("a /state that answers garbage fails wire/state-json and stops early", async () => {
    const { r, ms } = await against((_req, res) => json(res, 200, "{not json"));
    expect(ms).toBeLessThan(10_000);
    expect(byId(r.checks, "continue-remote/wire/state-json").verdict).toBe("fail");
    expect(byId(r.checks, "continue-remote/processing/true-while-handling").message).toMatch(/the probes stopped early/);
    expect(r.exitCode).toBe(1);
  });

  it("a /state that hangs ends at the request timeout, every check incomplete", async () => {
    const { r, ms } = await against((req, res) => {
      if (!req.url?.startsWith("/state")) json(res, 404, '{"error":"no"}');
    });
    expect(ms).toBeLessThan(10_000);
    expect(r.checks.filter((c) => c.side === "server").every((c) => c.verdict === "incomplete")).toBe(true);
  });

  it("a history that flips between two versions fails poll/append-only", async () => {
    const { r, ms } = await against((_req, res, n) =>
      json(res, 200, JSON.stringify({ chatHistory: n % 2 ? [{ role: "user", content: "a" }] : [{ role: "user", content: "b" }, { role: "assistant", content: "c" }], isProcessing: false })),
    );
    expect(ms).toBeLessThan(20_000);
    expect(byId(r.checks, "continue-remote/poll/append-only")).toMatchObject({ verdict: "fail", message: expect.stringMatching(/shrank from 2 to 1|entry 0/) });
  });
});
