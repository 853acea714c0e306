/**
 * continue-remote through the proxy: the example client (a message, polls, a permission answer,
 * POST /exit) against the reference mock, clean and with faults.
 */
import { describe, expect, it } from "vitest";
import { runSuite } from "../../src/core/run/runner.js";
import { continueRemote } from "../../src/suites/continue-remote/index.js";
import { example, failed, judgedIds, mockBehindProxy, runNode } from "./harness.js";

/** A turn of about half a second; polls every 150 ms. */
const QUICK = { thinkMs: 40, chunkMs: 20, chunkChars: 24, gapMs: 30, toolMs: 100 };
const client = (url: string, message = "Write notes.txt") =>
  runNode(example("continue-remote-client.mjs"), ["--poll-interval", "150", message], { AGENTWIRE_URL: url, CONTINUE_REMOTE_URL: "" });

// One run at a time: the checks judge the client's timing, and a starved client polls late.
describe("continue-remote through agentwire proxy", () => {
  it("the example client against the reference mock: no failure on either side, both judged", async () => {
    const run = await mockBehindProxy(continueRemote, { scenario: "permission", settings: QUICK });
    const { code, stderr } = await client(run.proxy.url);
    const result = await run.close();
    expect(code, stderr).toBe(0);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(failed(result.client!.checks)).toEqual([]);
    for (const id of ["continue-remote/state/schema", "continue-remote/poll/append-only", "continue-remote/permission/approve"]) {
      expect(judgedIds(result.server!.checks), id).toContain(id);
    }
    expect(judgedIds(result.client!.checks)).toEqual(expect.arrayContaining(["continue-remote/client/polls-state", "continue-remote/client/permission-request-id", "continue-remote/client/exit-method"]));
    const queue = result.server!.checks.find((c) => c.id === "continue-remote/queue/fifo")!;
    expect([queue.verdict, queue.message]).toEqual(["skip", expect.stringContaining("needs `agentwire test`")]);
  });

  it("`agentwire test --url <proxy>` gives the same server verdicts as `--url <mock>`, the server gone after /exit included", async () => {
    const verdicts = async (through: boolean) => {
      // A mock each: the probes end with POST /exit.
      const run = await mockBehindProxy(continueRemote, { suite: true, bus: undefined });
      const r = await runSuite(continueRemote, { url: through ? run.proxy.url : run.mock.url, params: { ...(continueRemote.selfTest?.params ?? {}) }, timeout: 10_000 });
      await run.close();
      return r.checks.map((c) => [c.id, c.verdict]);
    };
    const [proxied, direct] = [await verdicts(true), await verdicts(false)];
    // Once the target has exited, the proxy still listens, but its 502 names the target's refusal, which the probes record.
    const shutdown = "continue-remote/exit/shuts-down";
    expect(direct.find(([id]) => id === shutdown)).toEqual([shutdown, "pass"]);
    expect(proxied).toEqual(direct);
  });

  // Faults one turn with a permission shows.
  it.each([
    ["start-no-circle", "Write notes.txt"],
    ["stream-rewrite", "Write notes.txt"],
    ["display-toolname", "Write notes.txt"],
  ])("fault %s: exactly its checks fail", async (fault, message) => {
    const info = continueRemote.faults.find((f) => f.name === fault)!;
    // Streaming slower than the polls, so a loaded machine still shows the reply growing between two polls.
    const run = await mockBehindProxy(continueRemote, { scenario: "permission", settings: { ...QUICK, chunkMs: 80, chunkChars: 8 }, faults: [fault] });
    await client(run.proxy.url, message);
    const result = await run.close();
    expect(failed(result.server!.checks)).toEqual([...info.violates].sort());
    expect(failed(result.client!.checks)).toEqual([]);
  });
});
