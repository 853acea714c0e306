/**
 * openai-chat through the proxy: the example client and a scripted session against the reference
 * mock, clean and with faults; the probes' own verdicts unchanged through it.
 */
import { describe, expect, it } from "vitest";
import { runSuite } from "../../src/core/run/runner.js";
import { activeCatalogue, offeredTools, toolDefinitions } from "../../src/suites/openai-chat/catalogue.js";
import { openaiChat } from "../../src/suites/openai-chat/index.js";
import { quickMock } from "../helpers/quick-pacing.js";
import { example, failed, judgedIds, mockBehindProxy, runNode } from "./harness.js";

const QUICK = { params: { ...(openaiChat.selfTest?.params ?? {}) } };
const tools = toolDefinitions(offeredTools(activeCatalogue("seed")));
const readFile = (tools as { function: { name: string } }[]).find((t) => t.function.name === "read_file")!;

/** An IDE's session: the models, a streamed answer, a streamed forced tool call, a plain answer. */
async function session(base: string): Promise<void> {
  const headers = { "content-type": "application/json", authorization: "Bearer sk-proxy-test-secret" };
  const models = (await (await fetch(`${base}/models`, { headers })).json()) as { data: { id: string }[] };
  const model = models.data[0]!.id;
  const messages = [{ role: "user", content: "Read README.md" }];
  const post = (body: object) => fetch(`${base}/chat/completions`, { method: "POST", headers, body: JSON.stringify({ model, messages, ...body }) }).then((r) => r.text());
  await post({ stream: true, stream_options: { include_usage: true } });
  await post({ stream: true, tools, tool_choice: { type: "function", function: { name: readFile.function.name } }, parallel_tool_calls: false });
  await post({ stream: false });
}

describe.concurrent("openai-chat through agentwire proxy", () => {
  it("the example client against the reference mock: no failure on either side", async () => {
    const run = await mockBehindProxy(openaiChat, quickMock("openai-chat"), QUICK);
    const { code } = await runNode(example("openai-chat-client.mjs"), ["--only", "canonical-text,canonical-tool,split-utf8"], { AGENTWIRE_URL: run.proxy.url, OPENAI_BASE_URL: "" });
    const result = await run.close();
    expect(code).toBe(0);
    expect(failed(result.server!.checks)).toEqual([]);
    expect(failed(result.client!.checks)).toEqual([]);
    expect(judgedIds(result.client!.checks)).toContain("openai-chat/client/request-schema");
  });

  it("a scripted session is judged on both sides, and faults fail exactly their checks", async () => {
    const clean = await mockBehindProxy(openaiChat, quickMock("openai-chat"), QUICK);
    await session(clean.proxy.url);
    const ok = await clean.close();
    expect(failed(ok.server!.checks)).toEqual([]);
    expect(failed(ok.client!.checks)).toEqual([]);
    for (const id of ["openai-chat/models/list-shape", "openai-chat/delta/role-first", "openai-chat/tool-call/honours-tool-choice", "openai-chat/sync/response-shape"]) {
      expect(ok.server!.checks.find((c) => c.id === id)!.verdict, id).toBe("pass");
    }
    expect(ok.client!.checks.find((c) => c.id === "openai-chat/client/request-schema")!.verdict).toBe("pass");
    // The credential was forwarded (the mock answered) and is nowhere in the report.
    expect(JSON.stringify(ok)).not.toContain("sk-proxy-test-secret");
    for (const fault of ["missing-role", "no-done", "tool-id-changes", "models-bare-array"]) {
      const info = openaiChat.faults.find((f) => f.name === fault)!;
      const run = await mockBehindProxy(openaiChat, { ...quickMock("openai-chat"), faults: [fault] }, QUICK);
      await session(run.proxy.url).catch(() => undefined);
      const result = await run.close();
      expect(failed(result.server!.checks), fault).toEqual([...info.violates].sort());
      expect(failed(result.client!.checks), fault).toEqual([]);
    }
  });

  it("`agentwire test --url <proxy>` gives the same server verdicts as `--url <mock>`", async () => {
    const run = await mockBehindProxy(openaiChat, { suite: true, bus: undefined });
    const opts = { params: { ...(openaiChat.selfTest?.params ?? {}) }, timeout: 10_000, ...(run.mock.token ? { token: run.mock.token } : {}) };
    const direct = await runSuite(openaiChat, { url: run.mock.url, ...opts });
    const proxied = await runSuite(openaiChat, { url: run.proxy.url, ...opts });
    await run.close();
    const verdicts = (r: typeof direct) => r.checks.map((c) => [c.id, c.verdict]);
    expect(verdicts(proxied)).toEqual(verdicts(direct));
  });

  it("a target that is down: a 502 in the OpenAI error shape", async () => {
    const { startProxy } = await import("../../src/proxy/index.js");
    const proxy = await startProxy({ protocol: "openai-chat", target: "http://127.0.0.1:1/v1" });
    expect(proxy.url).toMatch(/\/v1$/);
    const res = await fetch(`${proxy.url}/models`);
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("refused");
    expect((await proxy.close()).server!.error).toContain("target unreachable");
  });
});
