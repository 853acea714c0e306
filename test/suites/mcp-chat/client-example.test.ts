/**
 * The example client (examples/mcp-chat-client.mjs) as a real child process under test-client:
 * it imports the built package ("agentwire/adapters" → dist/, built by the global setup), so this
 * also proves the published entry works in plain Node.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runClientTest } from "../../../src/core/run/runner.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { quickMock } from "../../helpers/quick-pacing.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../examples/mcp-chat-client.mjs", import.meta.url));

// `quick` false: the mock as `agentwire test-client mcp-chat -- node examples/mcp-chat-client.mjs`
// starts it (default timing), so the verdicts are the ones a user of the CLI gets. Quick: the
// self-test pace and the designed waits scaled down, for the same verdicts sooner.
const run = (args: string[], quick: boolean) =>
  runClientTest(mcpChat, { command: process.execPath, args: [EXAMPLE, ...args], stdio: "ignore", timeout: 50_000, ...(quick ? { mock: quickMock("mcp-chat") } : {}) });

describe.concurrent("examples/mcp-chat-client.mjs under test-client", () => {
  it("with the spec adapter passes every client check, at the CLI's default timing", async () => {
    const result = await run([], false);
    const notPassed = result.checks.filter((c) => c.verdict !== "pass").map((c) => [c.id, c.message]);
    expect(notPassed).toEqual([]);
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(0);
  });

  it("with --adapter naive-line-splitter fails exactly the checks of contract §5", async () => {
    const result = await run(["--adapter", "naive-line-splitter"], true);
    const failed = result.checks.filter((c) => c.outcome === "fail").map((c) => c.id.replace("mcp-chat/client-parse/", ""));
    expect(failed.sort()).toEqual(
      ["split-chunks", "utf8-split", "sse-variants", "truncation-detected", "http-error-detail", "unexpected-payloads"].sort(),
    );
    expect(result.checks.filter((c) => c.outcome !== "fail" && c.outcome !== "pass")).toEqual([]);
    // The client itself ran to the end: failures are verdicts, not a crash.
    expect(result.error).toBeUndefined();
  });
});

describe("examples/mcp-chat-client.mjs arguments", () => {
  const node = (args: string[], env: Record<string, string> = {}) => {
    try {
      return { code: 0, out: execFileSync(process.execPath, [EXAMPLE, ...args], { cwd: ROOT, env: { ...process.env, AGENTWIRE_URL: "", MCP_CHAT_URL: "", ...env }, stdio: "pipe" }).toString() };
    } catch (e) {
      const err = e as { status: number; stderr: Buffer };
      return { code: err.status, out: err.stderr.toString() };
    }
  };

  it("--help lists the adapters and exits 0", () => {
    const { code, out } = node(["--help"]);
    expect(code).toBe(0);
    expect(out).toContain("naive-line-splitter");
  });

  it("refuses an unknown adapter and a missing URL with exit 2", () => {
    expect(node(["--adapter", "nope"], { AGENTWIRE_URL: "http://127.0.0.1:1" }).code).toBe(2);
    expect(node([]).code).toBe(2);
  });
});
