/**
 * A transcript the proxy saved replays to the proxy's own verdicts, on both sides: the client names it gave the
 * relayed traffic travel in the transcript, and the rules relayed traffic cannot decide stay skipped.
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CheckResult } from "../../src/core/verdicts/result.js";
import { readTranscript } from "../../src/core/transcript/transcript.js";
import { replayProxyTranscript } from "../../src/proxy/replay.js";
import { mcpChat } from "../../src/suites/mcp-chat/index.js";
import { openaiChat } from "../../src/suites/openai-chat/index.js";
import { piWeb } from "../../src/suites/pi-web/index.js";
import { runCli } from "../helpers/cli.js";
import { quickMock } from "../helpers/quick-pacing.js";
import { example, failed, mockBehindProxy, runNode } from "./harness.js";

const line = (c: CheckResult) => `${c.id} ${c.verdict}/${c.outcome}: ${c.message}`;

function saved(dir: string): string {
  const file = readdirSync(dir).find((f) => f.endsWith(".jsonl"));
  if (!file) throw new Error("the proxy saved no transcript");
  return join(dir, file);
}

async function replayed(file: string) {
  const { header, events } = readTranscript(readFileSync(file, "utf8"));
  expect(header?.proxy).toBe(true);
  const [server, client] = await replayProxyTranscript(header!, events);
  return { server: server!, client: client! };
}

describe.concurrent("replaying what the proxy saved", () => {
  it("mcp-chat with a fault: both sides replay to the live verdicts, the client side included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-replay-"));
    const run = await mockBehindProxy(mcpChat, { ...quickMock("mcp-chat"), faults: ["sse-crlf"] }, { params: { ...(mcpChat.selfTest?.params ?? {}) }, saveTranscript: dir });
    const base = run.proxy.url;
    await (await fetch(`${base}/servers`)).text();
    // A client mistake, so the client side has a failure to carry over too.
    await (await fetch(`${base}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"hi"}' })).text();
    await (await fetch(`${base}/connect/not-listed`, { method: "POST" })).text();
    const live = await run.close();
    expect(failed(live.server!.checks)).toContain("mcp-chat/sse/lf-only");
    expect(failed(live.client!.checks)).toContain("mcp-chat/client/connect-known-id");
    const again = await replayed(saved(dir));
    expect(again.server.checks.map(line)).toEqual(live.server!.checks.map(line));
    expect(again.client.checks.map(line)).toEqual(live.client!.checks.map(line));
  });

  it("openai-chat with a bearer key: the redacted key keeps its scheme, so auth-header replays to its live verdict", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-replay-"));
    const run = await mockBehindProxy(openaiChat, quickMock("openai-chat"), { params: { ...(openaiChat.selfTest?.params ?? {}) }, saveTranscript: dir });
    const base = run.proxy.url;
    await (await fetch(`${base}/models`, { headers: { authorization: "Bearer sk-test-123" } })).text();
    const live = await run.close();
    const auth = (checks: CheckResult[]) => line(checks.find((c) => c.id === "openai-chat/client/auth-header")!);
    expect(auth(live.client!.checks)).toMatch(/ pass\/pass/);
    const file = saved(dir);
    expect(readFileSync(file, "utf8")).not.toContain("sk-test-123");
    const again = await replayed(file);
    expect(auth(again.client.checks)).toEqual(auth(live.client!.checks));
  });

  it("pi-web over WebSocket: the example client's session replays to the live verdicts; `agentwire replay` prints both sides", async () => {
    const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-replay-"));
    const run = await mockBehindProxy(piWeb, { ...quickMock("pi-web"), faults: ["duplicate-response"] }, { params: { ...(piWeb.selfTest?.params ?? {}) }, saveTranscript: dir });
    await runNode(example("pi-web-client.mjs"), ["--no-shutdown", "--url", run.proxy.url, "--origin", run.mock.url, "--step-timeout", "3000"], { AGENTWIRE_URL: "", PI_WEB_URL: "" });
    const live = await run.close();
    const file = saved(dir);
    const again = await replayed(file);
    expect(again.server.checks.map(line)).toEqual(live.server!.checks.map(line));
    expect(again.client.checks.map(line)).toEqual(live.client!.checks.map(line));
    const cli = await runCli(["replay", file, "--reporter", "json", "--quiet"]);
    expect(cli.code).toBe(1);
    const reports = JSON.parse(cli.stdout) as { side: string; replay?: boolean; checks: CheckResult[] }[];
    expect(reports.map((r) => [r.side, r.replay])).toEqual([
      ["server", true],
      ["client", true],
    ]);
    expect(failed(reports[0]!.checks)).toEqual(failed(live.server!.checks));
  });
});
