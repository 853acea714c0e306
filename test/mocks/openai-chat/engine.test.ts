import { describe, expect, it } from "vitest";
import { createOpenaiChatEngine } from "../../../src/mocks/openai-chat/index.js";
import {
  assemble,
  chunkObjects,
  complete,
  contentText,
  deltas,
  engine,
  finishReasons,
  forcedRead,
  MODEL,
  req,
  SEED_TOOLS,
  stream,
  textStream,
  toolDeltas,
  user,
  type Json,
} from "./helpers.js";

const TEXT = 'Hello from the agentwire mock. Send: call read_file {"filepath":"README.md"}';

describe("openai-chat engine: streamed answers", () => {
  it("text: role chunk, 8-character content deltas, stop, usage chunk, [DONE]", async () => {
    const { res, events } = await stream(engine(), textStream);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const d = deltas(events);
    expect(d[0]).toEqual({ role: "assistant", content: "" });
    const pieces = d.slice(1, -1).map((x) => x.content as string);
    expect(pieces.join("")).toBe(TEXT);
    expect(pieces.every((p) => [...p].length <= 8)).toBe(true);
    expect(d.at(-1)).toEqual({});
    expect(finishReasons(events).filter((f) => f !== null)).toEqual(["stop"]);
    const chunks = chunkObjects(events);
    const usage = chunks.at(-1) as Json;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual({ prompt_tokens: 10, completion_tokens: 19, total_tokens: 29 });
    for (const c of chunks.slice(0, -1)) {
      expect(c).toMatchObject({
        id: "chatcmpl-aw000001",
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model: MODEL,
        system_fingerprint: "fp_agentwire",
        usage: null,
      });
    }
    expect(events.at(-1)).toBe("[DONE]");
  });

  it("without include_usage: no usage field, no usage chunk", async () => {
    const { events } = await stream(engine(), { messages: [user("hi")] });
    const chunks = chunkObjects(events);
    expect(chunks.every((c) => !("usage" in c))).toBe(true);
    expect(chunks.every((c) => (c.choices as unknown[]).length === 1)).toBe(true);
  });

  it("a forced call: identity first (role, content null), argument fragments, tool_calls", async () => {
    const { events } = await stream(engine(), forcedRead);
    const d = deltas(events);
    expect(d[0]).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [{ index: 0, id: "call_aw000001", type: "function", function: { name: "read_file", arguments: "" } }],
    });
    const fragments = d.slice(1, -1);
    expect(fragments.map((x) => Object.keys(x))).toEqual(fragments.map(() => ["tool_calls"]));
    expect(fragments.map((x) => ((x.tool_calls as Json[])[0] as Json).function)).toEqual([
      { arguments: '{"filepa' },
      { arguments: 'th":"REA' },
      { arguments: 'DME.md"}' },
    ]);
    expect(fragments.every((x) => Object.keys((x.tool_calls as Json[])[0] as Json).join() === "index,function")).toBe(true);
    expect(assemble(events)).toEqual([{ id: "call_aw000001", name: "read_file", arguments: '{"filepath":"README.md"}' }]);
    expect(finishReasons(events).filter((f) => f !== null)).toEqual(["tool_calls"]);
  });

  it("argFragment 0 puts the whole arguments in the first delta; 1 sends one character per delta", async () => {
    const whole = await stream(engine({ argFragment: 0 }), forcedRead);
    expect(toolDeltas(whole.events)).toHaveLength(1);
    expect(assemble(whole.events)[0]?.arguments).toBe('{"filepath":"README.md"}');
    const ones = await stream(engine(), forcedRead, {}, "/chat/completions?argFragment=1");
    expect(toolDeltas(ones.events)).toHaveLength(1 + '{"filepath":"README.md"}'.length);
    expect(assemble(ones.events)[0]?.arguments).toBe('{"filepath":"README.md"}');
  });

  it("the follow-up turn after tool results gets a final text answer naming them", async () => {
    const e = engine();
    const first = await stream(e, forcedRead);
    const [call] = assemble(first.events);
    const { events } = await stream(e, {
      ...forcedRead,
      messages: [
        ...forcedRead.messages,
        { role: "assistant", content: " ", tool_calls: [{ id: call?.id, type: "function", function: { name: call?.name, arguments: call?.arguments } }] },
        { role: "tool", tool_call_id: call?.id, content: "# agentwire" },
      ],
    });
    expect(contentText(events)).toBe("Done. I received 1 tool result(s): call_aw000001 (read_file, 11 chars).");
    expect(toolDeltas(events)).toEqual([]);
    expect(finishReasons(events).filter((f) => f !== null)).toEqual(["stop"]);
  });

  it("reasoning deltas come before the text, in reasoning_content (or reasoning)", async () => {
    const { events } = await stream(engine(), { messages: [user("!scenario reasoning")] });
    const d = deltas(events);
    expect(d.filter((x) => "reasoning_content" in x).map((x) => x.reasoning_content).join("")).toBe("Let me think about this.");
    const firstText = d.findIndex((x) => typeof x.content === "string" && x.content !== "");
    const lastReasoning = d.map((x) => "reasoning_content" in x).lastIndexOf(true);
    expect(lastReasoning).toBeLessThan(firstText);
    const other = await stream(engine({ reasoningField: "reasoning" }), { messages: [user("!scenario reasoning")] });
    expect(deltas(other.events).some((x) => "reasoning" in x)).toBe(true);
  });

  it("ids are deterministic counters; created is fixed by the option", async () => {
    const a = engine();
    const b = engine();
    const one = await complete(a, { ...forcedRead, stream: true });
    const two = await complete(b, { ...forcedRead, stream: true });
    expect(one.text).toBe(two.text);
    const again = await stream(a, forcedRead);
    expect(chunkObjects(again.events)[0]?.id).toBe("chatcmpl-aw000002");
    expect(assemble(again.events)[0]?.id).toBe("call_aw000002");
    a.reset();
    const reset = await stream(a, forcedRead);
    expect(chunkObjects(reset.events)[0]?.id).toBe("chatcmpl-aw000001");
  });

  it("the long stream is generated lazily: 1,000 deltas, memory flat", async () => {
    const { events } = await stream(engine({ chunkDelayMs: 0 }), { messages: [user("!scenario long-stream")] });
    const text = deltas(events).filter((d) => typeof d.content === "string" && d.content !== "");
    expect(text).toHaveLength(1000);
    expect(contentText(events)).toMatch(/東京.*😀/u);
  });
});

describe("openai-chat engine: non-streamed answers", () => {
  it("a call: content null, tool_calls with string arguments, finish tool_calls, usage", async () => {
    const { res, text } = await complete(engine(), forcedRead);
    expect(res.headers.get("content-type")).toBe("application/json");
    const body = JSON.parse(text) as Json;
    expect(body).toMatchObject({ id: "chatcmpl-aw000001", object: "chat.completion", created: 1_700_000_000, model: MODEL });
    expect(body.choices).toEqual([
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_aw000001", type: "function", function: { name: "read_file", arguments: '{"filepath":"README.md"}' } }],
          refusal: null,
        },
        logprobs: null,
        finish_reason: "tool_calls",
      },
    ]);
    expect(body.usage).toMatchObject({ prompt_tokens: expect.any(Number), total_tokens: expect.any(Number) });
  });

  it("the seed §3 follow-up request gets the final answer", async () => {
    const { res, text } = await complete(engine(), {
      model: MODEL,
      messages: [
        { role: "system", content: "..." },
        user("프로젝트 의존성 설치해줘"),
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_install",
              type: "function",
              function: { name: "run_terminal_command", arguments: '{"command":"npm install","waitForCompletion": true}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_install", content: "added 420 packages...\n(found 0 vulnerabilities)" },
      ],
      stream: false,
    });
    expect(res.status).toBe(200);
    const choice = ((JSON.parse(text) as Json).choices as Json[])[0] as Json;
    expect(choice.finish_reason).toBe("stop");
    expect((choice.message as Json).content).toBe(
      "Done. I received 1 tool result(s): call_install (run_terminal_command, 47 chars).",
    );
  });

  it("error-mid-stream is a 500 with the error body when not streaming", async () => {
    const { res, text } = await complete(engine(), { messages: [user("!scenario error-mid-stream")] });
    expect(res.status).toBe(500);
    expect(JSON.parse(text)).toEqual({
      error: { message: "Upstream model failed", type: "server_error", param: null, code: "upstream_error" },
    });
  });
});

describe("openai-chat engine: choosing the answer", () => {
  const call = async (body: Json) => assemble((await stream(engine(), body)).events);

  it("directive lines give one call each, in order; parallel_tool_calls false keeps the first", async () => {
    const two = user('call read_file {"filepath":"README.md"}\ncall read_file {"filepath":"package.json"}');
    expect((await call({ tools: SEED_TOOLS, tool_choice: "required", messages: [two] })).map((c) => c.arguments)).toEqual([
      '{"filepath":"README.md"}',
      '{"filepath":"package.json"}',
    ]);
    const one = await call({ tools: SEED_TOOLS, parallel_tool_calls: false, messages: [two] });
    expect(one).toHaveLength(1);
  });

  it("a call directive without JSON uses the catalogue's example arguments", async () => {
    expect(await call({ tools: SEED_TOOLS, messages: [user("call run_terminal_command")] })).toEqual([
      { id: "call_aw000001", name: "run_terminal_command", arguments: '{"command":"npm install","waitForCompletion":true}' },
    ]);
  });

  it('"required" without directives calls read_file; a forced parameterless tool gets "{}"', async () => {
    expect((await call({ tools: SEED_TOOLS, tool_choice: "required" }))[0]?.name).toBe("read_file");
    const noArg = await call({ tools: SEED_TOOLS, tool_choice: { type: "function", function: { name: "view_diff" } } });
    expect(noArg[0]).toMatchObject({ name: "view_diff", arguments: "{}" });
  });

  it("arguments are generated from parameters when the catalogue has no fitting example", async () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "deploy",
          parameters: {
            type: "object",
            properties: { env: { type: "string", enum: ["prod", "dev"] }, n: { type: "integer" }, tags: { type: "array", items: { type: "string" } }, dry: { type: "boolean" }, opt: { type: "string" } },
            required: ["env", "n", "tags", "dry"],
          },
        },
      },
    ];
    const [c] = await call({ tools, tool_choice: "required" });
    expect(JSON.parse(c?.arguments ?? "")).toEqual({ env: "prod", n: 1, tags: ["example"], dry: false });
  });

  it("no tools or tool_choice none: text; an unoffered tool or bad JSON: a text answer saying so", async () => {
    const none = await stream(engine(), { tools: SEED_TOOLS, tool_choice: "none", messages: [user("call read_file")] });
    expect(toolDeltas(none.events)).toEqual([]);
    const unoffered = await stream(engine(), { tools: SEED_TOOLS.slice(0, 1), messages: [user("call ls")] });
    expect(toolDeltas(unoffered.events)).toEqual([]);
    expect(contentText(unoffered.events)).toContain("does not offer");
    const bad = await stream(engine(), { tools: SEED_TOOLS, messages: [user("call read_file {nope")] });
    expect(contentText(bad.events)).toContain("not valid JSON");
  });

  it("prose that starts with 'call' is not a directive", async () => {
    const { events } = await stream(engine(), { tools: SEED_TOOLS, messages: [user("call me later, please")] });
    expect(contentText(events)).toBe(TEXT);
  });
});

describe("openai-chat engine: errors, auth, routes", () => {
  const error = async (res: Response) => ({ status: res.status, type: res.headers.get("content-type"), body: (await res.json()) as Json });

  it("bad input gets 400 with an OpenAI error and the dotted param", async () => {
    const e = engine();
    const post = (body: string) => e.handle(req("/chat/completions", { method: "POST", body, headers: { "content-type": "application/json" } }));
    const cases: [string, string | null, string][] = [
      ["{nope", null, "invalid_json"],
      ["{}", "model", "invalid_request"],
      [JSON.stringify({ model: MODEL }), "messages", "invalid_request"],
      [JSON.stringify({ model: MODEL, stream: true, messages: "hi" }), "messages", "invalid_request"],
      [JSON.stringify({ model: MODEL, messages: [{ role: "wizard", content: "x" }] }), "messages.0.role", "invalid_request"],
      [JSON.stringify({ model: MODEL, messages: [user("x")], tools: [{ type: "function", function: {} }] }), "tools.0.function.name", "invalid_request"],
      [JSON.stringify({ model: MODEL, messages: [user("x")], stream_options: { include_usage: true } }), "stream_options", "invalid_request"],
      [JSON.stringify({ model: MODEL, messages: [user("x")], tool_choice: { type: "function", function: { name: "ls" } } }), "tool_choice", "invalid_request"],
      [JSON.stringify({ model: MODEL, messages: [user("x")], tool_choice: "any" }), "tool_choice", "invalid_request"],
      [JSON.stringify({ model: MODEL, messages: [{ role: "assistant" }] }), "messages.0.content", "invalid_request"],
    ];
    for (const [body, param, code] of cases) {
      const r = await error(await post(body));
      expect(r.status, body).toBe(400);
      expect(r.type).toBe("application/json");
      expect(r.body.error, body).toMatchObject({ type: "invalid_request_error", code, param });
      expect(typeof (r.body.error as Json).message).toBe("string");
    }
  });

  it("accepts what Continue sends: content null / '' / ' ', Accept: application/json on streams", async () => {
    const history = (content: unknown) => [
      user("go"),
      { role: "assistant", content, tool_calls: [{ id: "c1", type: "function", function: { name: "view_diff", arguments: "{}" } }] },
      { role: "tool", tool_call_id: "c1", content: "The user cancelled this tool call." },
    ];
    for (const content of [null, "", " "]) {
      const { res } = await complete(
        engine(),
        { stream: true, stream_options: { include_usage: true }, parallel_tool_calls: false, tools: SEED_TOOLS, messages: history(content) },
        { headers: { accept: "application/json", "content-type": "application/json" } },
      );
      expect(res.status).toBe(200);
    }
  });

  it("unknown model: 404 model_not_found (streamed or not); anyModel serves it", async () => {
    const r = await complete(engine(), { model: "agentwire-no-such-model-x", stream: true });
    expect(r.res.status).toBe(404);
    expect((JSON.parse(r.text) as Json).error).toMatchObject({ code: "model_not_found", param: "model" });
    expect((await complete(engine({ anyModel: true }), { model: "whatever" })).res.status).toBe(200);
  });

  it("with apiKey: missing or wrong keys get 401 invalid_api_key, the right one passes", async () => {
    const e = engine({ apiKey: "sk-test" });
    const missing = await complete(e, {});
    expect(missing.res.status).toBe(401);
    expect((JSON.parse(missing.text) as Json).error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key" });
    const wrong = await complete(e, {}, { headers: { authorization: "Bearer nope", "content-type": "application/json" } });
    expect(wrong.res.status).toBe(401);
    const right = await complete(e, {}, { headers: { authorization: "Bearer sk-test", "content-type": "application/json" } });
    expect(right.res.status).toBe(200);
    expect((await e.handle(req("/models"))).status).toBe(401);
    // Without apiKey, anything goes.
    expect((await complete(engine(), {}, { headers: { authorization: "Bearer x", "content-type": "application/json" } })).res.status).toBe(200);
  });

  it("GET /models and /models/{id}; paths without /v1; 404 and 405 as JSON; /responses gets advice", async () => {
    const e = engine();
    const list = await error(await e.handle(req("/models")));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      object: "list",
      data: [
        { id: "agentwire-mock", object: "model", created: 1767225600, owned_by: "agentwire" },
        { id: "gpt-4.1-agentwire", object: "model", created: 1767225600, owned_by: "agentwire" },
      ],
    });
    expect((await e.handle(new Request("http://localhost:8000/models"))).status).toBe(200);
    expect((await error(await e.handle(req("/models/gpt-4.1-agentwire")))).body.id).toBe("gpt-4.1-agentwire");
    expect((await error(await e.handle(req("/models/nope")))).status).toBe(404);
    const nf = await error(await e.handle(req("/nope")));
    expect(nf.status).toBe(404);
    expect(nf.type).toBe("application/json");
    expect((nf.body.error as Json).message).toBe("Invalid URL (GET /v1/nope)");
    const wrongMethod = await e.handle(req("/chat/completions"));
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST, OPTIONS");
    const responses = await error(await e.handle(req("/responses", { method: "POST", json: {} })));
    expect(responses.status).toBe(404);
    expect((responses.body.error as Json).message).toContain("useResponsesApi: false");
  });

  it("CORS: every response allows any origin; preflights answer 204", async () => {
    const e = engine();
    const pre = await e.handle(
      req("/chat/completions", {
        method: "OPTIONS",
        headers: { origin: "http://localhost:5173", "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-stainless-os" },
      }),
    );
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    expect(pre.headers.get("access-control-allow-headers")).toBe("authorization, content-type, x-stainless-os");
    expect(pre.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    const { res } = await complete(e, { stream: true });
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect((await e.handle(req("/nope"))).headers.get("access-control-allow-origin")).toBe("*");
  });

  it("unknown names: start options throw; per-request overrides get 400", async () => {
    expect(() => createOpenaiChatEngine({ scenario: "nope" })).toThrow(/Unknown scenario "nope"\. Valid scenarios: auto, tool-then-answer, /);
    expect(() => createOpenaiChatEngine({ faults: ["no-done", "nope"] })).toThrow(/Unknown fault "nope"/);
    expect(() => createOpenaiChatEngine({ framing: "nope" })).toThrow(/Unknown framing "nope"/);
    expect(() => createOpenaiChatEngine({ catalogue: "nope" as "seed" })).toThrow(/Unknown catalogue "nope"/);
    expect(() => createOpenaiChatEngine({ argFragment: -1 })).toThrow(/argFragment must be an integer >= 0/);
    const e = engine();
    const header = (h: Record<string, string>, path = "/chat/completions") =>
      complete(e, {}, { headers: { "content-type": "application/json", ...h } }, path);
    for (const r of [
      await header({ "x-agentwire-scenario": "nope" }),
      await header({ "x-agentwire-fault": "no-done, nope" }),
      await header({ "x-agentwire-framing": "nope" }),
      await header({}, "/chat/completions?scenario=nope"),
      await header({}, "/chat/completions?fault=no-done,nope"),
      await header({}, "/chat/completions?argFragment=x"),
      // Past what a timer can wait: it would fire at once.
      await header({}, "/chat/completions?chunkDelayMs=3000000000"),
      await complete(e, { messages: [user("!fault nope")] }),
      await complete(e, { messages: [user("!scenario nope")] }),
    ]) {
      expect(r.res.status).toBe(400);
      expect((JSON.parse(r.text) as { error: Json }).error).toMatchObject({ code: "invalid_agentwire_override" });
    }
  });

  it("rejectInvalidHistory answers orphan tool results with 400; by default they are answered", async () => {
    const messages = [user("hi"), { role: "tool", tool_call_id: "ghost", content: "x" }];
    expect((await complete(engine(), { messages })).res.status).toBe(200);
    const r = await complete(engine({ rejectInvalidHistory: true }), { messages });
    expect(r.res.status).toBe(400);
    expect((JSON.parse(r.text) as Json).error).toMatchObject({ param: "messages.1.tool_call_id" });
  });
});
