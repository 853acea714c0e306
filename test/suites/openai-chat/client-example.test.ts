/**
 * The example client (examples/openai-chat-client.mjs) as a real child process under test-client:
 * it imports the built package ("agentwire/adapters" → dist/, built by the global setup), so this
 * also proves the published entry works in plain Node.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runClientTest } from "../../../src/core/run/runner.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { quickMock } from "../../helpers/quick-pacing.js";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../examples/openai-chat-client.mjs", import.meta.url));

// `quick` false: the mock as `agentwire test-client openai-chat -- node examples/openai-chat-client.mjs`
// starts it (default timing), so the verdicts are the ones a user of the CLI gets. Quick: the
// self-test pace and the designed waits scaled down, for the same verdicts sooner.
const run = (args: string[], quick: boolean) =>
  runClientTest(openaiChat, { command: process.execPath, args: [EXAMPLE, ...args], stdio: "ignore", timeout: 110_000, ...(quick ? { mock: quickMock("openai-chat") } : {}) });

describe.concurrent("examples/openai-chat-client.mjs under test-client", () => {
  it("with the spec adapter passes every client check (the two reports give info), at the CLI's default timing", async () => {
    const result = await run([], false);
    const notPassed = result.checks.filter((c) => c.verdict !== "pass" && c.verdict !== "info").map((c) => [c.id, c.message]);
    expect(notPassed).toEqual([]);
    expect(result.checks.filter((c) => c.verdict === "info").map((c) => c.id).sort()).toEqual([
      "openai-chat/client-parse/quirk-tolerance",
      "openai-chat/client/catalogue-coverage",
    ]);
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(0);
  }, 120_000);

  it("with --adapter naive fails exactly the checks of contract §7", async () => {
    const result = await run(["--adapter", "naive"], true);
    const failed = result.checks.filter((c) => c.outcome === "fail").map((c) => c.id.replace("openai-chat/client-parse/", ""));
    // The naive reader reads to the end of the body, so the mock also sees it wait out held streams.
    expect(failed.sort()).toEqual(["split-chunks", "sse-variants", "termination", "tool-call-assembly", "usage-chunk", "openai-chat/client/finishes-after-done"].sort());
    expect(result.checks.filter((c) => !["fail", "pass", "info"].includes(c.outcome))).toEqual([]);
    // The client itself ran to the end: failures are verdicts, not a crash.
    expect(result.error).toBeUndefined();
    expect(result.exitCode).toBe(1);
  }, 120_000);
});

describe("examples/openai-chat-client.mjs arguments", () => {
  const node = (args: string[], env: Record<string, string> = {}) => {
    try {
      const out = execFileSync(process.execPath, [EXAMPLE, ...args], {
        cwd: ROOT,
        env: { ...process.env, AGENTWIRE_URL: "", OPENAI_BASE_URL: "", ...env },
        stdio: "pipe",
      }).toString();
      return { code: 0, out };
    } catch (e) {
      const err = e as { status: number; stderr: Buffer };
      return { code: err.status, out: err.stderr.toString() };
    }
  };

  it("--help lists the adapters and exits 0", () => {
    const { code, out } = node(["--help"]);
    expect(code).toBe(0);
    for (const name of ["spec", "naive", "error-as-text", "wait-for-eof", "merge-tool-deltas", "first-choice"]) expect(out).toContain(name);
  });

  it("refuses an unknown adapter and a missing URL with exit 2", () => {
    expect(node(["--adapter", "nope"], { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" }).code).toBe(2);
    expect(node(["--adapter", "constructor"], { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" }).code).toBe(2);
    expect(node([]).code).toBe(2);
  });

  it("exits 1 with a message when the mock is unreachable", () => {
    const { code, out } = node(["--only", "canonical-text"], { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" });
    expect(code).toBe(1);
    expect(out).toContain("[spec]");
  });
});
