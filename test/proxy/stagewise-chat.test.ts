/**
 * stagewise-chat through the proxy: the example toolbar (discovery over HTTP, tRPC over the
 * socket) against the reference agent mock, clean and with faults.
 */
import { describe, expect, it } from "vitest";
import { runSuite } from "../../src/core/run/runner.js";
import { stagewiseChat } from "../../src/suites/stagewise-chat/index.js";
import { example, failed, judgedIds, mockBehindProxy, runNode } from "./harness.js";

/** The mock's self-test pace: the toolbar's idle second and a half meets its 1 s keep-alive. */
const PACE = { settings: { firstDelayMs: 10, chunkDelayMs: 10, chunkSize: 16, pingMs: 1_000 } };
const QUICK = { params: { ...(stagewiseChat.selfTest?.params ?? {}) } };
const toolbar = (url: string) => runNode(example("stagewise-toolbar.mjs"), ["--url", url], { AGENTWIRE_URL: "", STAGEWISE_URL: "" });

describe.concurrent("stagewise-chat through agentwire proxy", () => {
  it("the example toolbar against the reference agent: no failure on either side, both judged", async () => {
    const run = await mockBehindProxy(stagewiseChat, PACE, QUICK);
    const { code, stderr } = await toolbar(run.proxy.url);
    const result = await run.close();
    expect(code, stderr).toBe(0);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(failed(result.client!.checks)).toEqual([]);
    for (const id of ["stagewise-chat/wire/info-shape", "stagewise-chat/trpc/response-envelope", "stagewise-chat/chat/seq-gap-free", "stagewise-chat/chat/update-applicable"]) {
      expect(judgedIds(result.server!.checks), id).toContain(id);
    }
    for (const id of ["stagewise-chat/trpc/client-request-shape", "stagewise-chat/tools/client-pending-approvals-only", "stagewise-chat/trpc/keepalive-pong"]) {
      expect(judgedIds(result.client!.checks), id).toContain(id);
    }
    const send = result.server!.checks.find((c) => c.id === "stagewise-chat/chat/send-message")!;
    expect([send.verdict, send.message]).toEqual(["skip", expect.stringContaining("needs `agentwire test`")]);
  });

  it("`agentwire test --url <proxy>` gives the same server verdicts as `--url <mock>`, but for the port the toolbar scans", async () => {
    const run = await mockBehindProxy(stagewiseChat, { suite: true, bus: undefined });
    const opts = { params: { ...(stagewiseChat.selfTest?.params ?? {}) }, timeout: 10_000 };
    const direct = await runSuite(stagewiseChat, { url: run.mock.url, ...opts });
    const proxied = await runSuite(stagewiseChat, { url: run.proxy.url, ...opts });
    await run.close();
    // The proxy took the first free port of 5746..5776, where toolbars look, as the mock did: wire/port-range agrees too.
    expect(Number(new URL(run.proxy.url).port)).toBeGreaterThanOrEqual(5746);
    expect(Number(new URL(run.proxy.url).port)).toBeLessThanOrEqual(5776);
    const verdicts = (r: typeof direct) => r.checks.map((c) => [c.id, c.verdict]);
    expect(verdicts(proxied)).toEqual(verdicts(direct));
  });

  it.each(["info-missing-description", "dates-as-strings", "seq-gap", "bad-runtime"])("fault %s: exactly its checks fail", async (fault) => {
    const info = stagewiseChat.faults.find((f) => f.name === fault)!;
    const run = await mockBehindProxy(stagewiseChat, { ...PACE, faults: [fault] }, QUICK);
    await toolbar(run.proxy.url);
    const result = await run.close();
    expect(failed(result.server!.checks)).toEqual([...info.violates].sort());
    expect(failed(result.client!.checks)).toEqual([]);
  });
});
