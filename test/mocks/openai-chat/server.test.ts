import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../../../src/core/run/protocol.js";
import { startOpenaiChatMock } from "../../../src/mocks/openai-chat/index.js";
import { canonicalPayloads, FAST, SEED_TOOLS, type Json } from "./helpers.js";

let mock: RunningMock;

beforeAll(async () => {
  mock = await startOpenaiChatMock({ port: 0, ...FAST, settings: { apiKey: "sk-agentwire" } });
});
afterAll(() => mock.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(mock.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer sk-agentwire", ...headers },
    body: JSON.stringify(body),
  });

describe("openai-chat mock over HTTP", () => {
  it("listens on a free port on 127.0.0.1", () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("streams real bytes: status and headers first, canonical events, [DONE], then EOF", async () => {
    const res = await post("/v1/chat/completions", {
      model: "agentwire-mock",
      stream: true,
      stream_options: { include_usage: true },
      tools: SEED_TOOLS,
      tool_choice: { type: "function", function: { name: "read_file" } },
      messages: [{ role: "user", content: 'call read_file {"filepath":"README.md"}' }],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("content-length")).toBeNull();
    expect(res.headers.get("content-encoding")).toBeNull();
    const text = await res.text();
    const payloads = canonicalPayloads(text);
    expect(payloads[0]).toBe(
      '{"id":"chatcmpl-aw000001","object":"chat.completion.chunk","created":1700000000,"model":"agentwire-mock","system_fingerprint":"fp_agentwire","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_aw000001","type":"function","function":{"name":"read_file","arguments":""}}]},"logprobs":null,"finish_reason":null}],"usage":null}',
    );
    expect(payloads.at(-1)).toBe("[DONE]");
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
  });

  it("answers JSON without a stream, and the same paths without /v1", async () => {
    const res = await post("/chat/completions", { model: "gpt-4.1-agentwire", messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.object).toBe("chat.completion");
    expect(body.model).toBe("gpt-4.1-agentwire");
  });

  it("answers n other than 1 with a 400 naming `n` (it streams one choice); n: 1 or none is answered", async () => {
    const messages = [{ role: "user", content: "hi" }];
    const many = await post("/v1/chat/completions", { model: "agentwire-mock", stream: true, n: 3, messages });
    expect(many.status).toBe(400);
    expect(((await many.json()) as { error: Json }).error).toMatchObject({ param: "n", type: "invalid_request_error", code: "invalid_request" });
    for (const n of [1, null, undefined]) {
      const one = await post("/v1/chat/completions", { model: "agentwire-mock", n, messages });
      expect(one.status, String(n)).toBe(200);
      expect(((await one.json()) as Json).choices).toHaveLength(1);
    }
  });

  it("401 without the key; settings are validated", async () => {
    const res = await fetch(mock.url + "/v1/models");
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: Json }).error.code).toBe("invalid_api_key");
    await expect(startOpenaiChatMock({ port: 0, settings: { nope: 1 } })).rejects.toThrow(/invalid settings/);
    await expect(startOpenaiChatMock({ port: 0, scenario: "nope" })).rejects.toThrow(/Unknown scenario "nope"/);
  });

  it("the official openai SDK streams text and a tool call from it", async () => {
    const client = new OpenAI({ baseURL: mock.url + "/v1", apiKey: "sk-agentwire" });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(["agentwire-mock", "gpt-4.1-agentwire"]);

    const text = await client.chat.completions.create({
      model: "agentwire-mock",
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: "Say hello." }],
    });
    let content = "";
    let usage: unknown = null;
    for await (const chunk of text) {
      content += chunk.choices[0]?.delta.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('Hello from the agentwire mock. Send: call read_file {"filepath":"README.md"}');
    expect(usage).toMatchObject({ total_tokens: expect.any(Number) });

    const runner = client.chat.completions.stream({
      model: "agentwire-mock",
      stream: true,
      tools: SEED_TOOLS as OpenAI.Chat.Completions.ChatCompletionTool[],
      parallel_tool_calls: true,
      tool_choice: "required",
      messages: [{ role: "user", content: 'call read_file {"filepath":"README.md"}\ncall ls {"dirPath":"src"}' }],
    });
    const final = await runner.finalChatCompletion();
    const choice = final.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    expect(
      choice?.message.tool_calls?.map((c) => (c.type === "function" ? [c.id, c.function.name, c.function.arguments] : [])),
    ).toEqual([
      [expect.stringMatching(/^call_aw\d{6}$/), "read_file", '{"filepath":"README.md"}'],
      [expect.stringMatching(/^call_aw\d{6}$/), "ls", '{"dirPath":"src"}'],
    ]);
  });
});
