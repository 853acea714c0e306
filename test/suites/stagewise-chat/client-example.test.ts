/**
 * The example toolbar (examples/stagewise-toolbar.mjs) as a real child process under test-client against a quickly
 * paced mock (which, with a toolbar under test, pings after 1 s of silence): it exits 0 and passes every client check it exercises.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runClientTest } from "../../../src/core/run/runner.js";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { runCli } from "../../helpers/cli.js";

const EXAMPLE = fileURLToPath(new URL("../../../examples/stagewise-toolbar.mjs", import.meta.url));

describe("examples/stagewise-toolbar.mjs under test-client", () => {
  it("runs a tool turn and passes the client checks; messaging and resume skip (not used, no drop)", async () => {
    const r = await runClientTest(stagewiseChat, {
      command: process.execPath,
      args: [EXAMPLE],
      stdio: "ignore",
      timeout: 30_000,
      // The mock's own keep-alive under test-client (1 s) is what the example's idle second and a half meets.
      mock: { settings: { firstDelayMs: 10, chunkDelayMs: 10 } },
    });
    const notPassed = r.checks.filter((c) => c.verdict !== "pass").map((c) => [c.id, c.verdict, c.message]);
    expect(notPassed).toEqual([
      ["stagewise-chat/messaging/client-user-message", "skip", expect.stringMatching(/not applicable/)],
      ["stagewise-chat/trpc/date-annotations", "skip", expect.stringMatching(/no Date/)],
      ["stagewise-chat/chat/client-last-event-id", "skip", expect.stringMatching(/never dropped/)],
    ]);
    expect(r.checks).toHaveLength(14);
    expect(r.exitCode).toBe(0);
  }, 40_000);

  it("exits 2 with a usage message on a bad argument", () => {
    let status = 0;
    let stderr = "";
    try {
      execFileSync(process.execPath, [EXAMPLE, "--nope"], { stdio: "pipe", env: { ...process.env, STAGEWISE_URL: "http://127.0.0.1:1" } });
    } catch (e) {
      status = (e as { status: number }).status;
      stderr = String((e as { stderr: Buffer }).stderr);
    }
    expect(status).toBe(2);
    expect(stderr).toMatch(/unknown argument: --nope/);
  });
});

describe("agentwire test-client stagewise-chat (built CLI)", () => {
  it("the example toolbar exits 0, the report listing the client checks", async () => {
    const r = await runCli(["test-client", "stagewise-chat", "--set", "firstDelayMs=10", "--set", "chunkDelayMs=10", "--", process.execPath, "examples/stagewise-toolbar.mjs"], { timeoutMs: 60_000 });
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toContain("stagewise-chat/trpc/keepalive-pong");
    expect(r.stdout).toContain("stagewise-chat/tools/client-toolbar-results-only");
  }, 70_000);
});
