import { describe, expect, it } from "vitest";
import { TranscriptBus, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { complete, engine, forcedRead, req, SEED_TOOLS, stream, user } from "./helpers.js";

function recorded() {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  return { bus, events };
}

const requests = (events: TranscriptEvent[]) =>
  events.filter((e): e is Extract<TranscriptEvent, { kind: "http-request" }> => e.kind === "http-request");
const responses = (events: TranscriptEvent[]) =>
  events.filter((e): e is Extract<TranscriptEvent, { kind: "http-response" }> => e.kind === "http-response");

describe("openai-chat client recording", () => {
  it("records every request with what the mock decided, and the response head", async () => {
    const { bus, events } = recorded();
    const e = engine({ bus, apiKey: "k" });
    const auth = { "content-type": "application/json", Authorization: "Bearer k", "X-Stainless-OS": "Linux" };
    await stream(e, { ...forcedRead, stream_options: { include_usage: true } }, { headers: auth });
    await complete(
      e,
      {
        tools: SEED_TOOLS,
        messages: [
          ...forcedRead.messages,
          { role: "assistant", content: " ", tool_calls: [{ id: "call_aw000001", type: "function", function: { name: "read_file", arguments: '{"filepath":"README.md"}' } }] },
          { role: "tool", tool_call_id: "call_aw000001", content: "# hi" },
        ],
      },
      { headers: auth },
    );
    await complete(e, {});
    await e.handle(req("/models", { headers: { authorization: "Bearer k" } }));
    await e.handle(req("/chat/completions", { method: "OPTIONS", headers: { origin: "http://x", "access-control-request-method": "POST" } }));
    await e.handle(req("/elsewhere"));

    expect(requests(events).map((r) => [r.exchange, r.label, r.probe])).toEqual([
      ["c1", "chat-completions", "client"],
      ["c2", "chat-completions", "client"],
      ["c3", "chat-completions", "client"],
      ["c4", "models", "client"],
      ["c5", "preflight", "client"],
      ["c6", "unknown", "client"],
    ]);
    expect(responses(events).map((r) => [r.exchange, r.status])).toEqual([
      ["c1", 200],
      ["c2", 200],
      ["c3", 401],
      ["c4", 200],
      ["c5", 204],
      ["c6", 404],
    ]);
    const [first, second] = requests(events);
    expect(first).toMatchObject({
      method: "POST",
      path: "/v1/chat/completions",
      headers: { "content-type": "application/json", authorization: "Bearer k", "x-stainless-os": "Linux" },
      meta: {
        catalogue: "seed",
        scenario: "auto",
        framing: "canonical",
        faults: [],
        apiKey: "k",
        model: "agentwire-mock",
        stream: true,
        includeUsage: true,
        followUp: false,
        requestNo: 1,
        rule: "forced",
        answer: "tool_calls",
        finishReason: "tool_calls",
        expectedCalls: [{ id: "call_aw000001", name: "read_file", arguments: '{"filepath":"README.md"}' }],
        historyProblems: [],
        completionId: "chatcmpl-aw000001",
      },
    });
    expect(JSON.parse(first?.body ?? "")).toMatchObject({ model: "agentwire-mock", stream: true });
    expect(second?.meta).toMatchObject({
      followUp: true,
      rule: "follow-up",
      answer: "text",
      expectedCalls: [],
    });
    // The log is not copied into every request (transcripts would grow quadratically).
    expect(second?.meta).not.toHaveProperty("emittedCalls");
    expect(responses(events)[0]?.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
  });

  it("records history problems for the client checks and answers normally", async () => {
    const { bus, events } = recorded();
    const e = engine({ bus });
    const res = await complete(e, {
      messages: [
        user("go"),
        { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "ls", arguments: "{}" } }, { id: "a", type: "function", function: { name: "ls", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "b", content: "x" },
        user("again"),
      ],
    });
    expect(res.res.status).toBe(200);
    expect(requests(events)[0]?.meta?.historyProblems).toEqual([
      "Tool call id 'a' is used twice",
      "Tool message answers 'b', which is not a call of the preceding assistant message",
      "Tool call 'a' has no tool message answering it",
    ]);
  });

  it("routes() is consulted first and is not recorded; reset() restarts the counters", async () => {
    const { bus, events } = recorded();
    const e = engine({
      bus,
      routes: async (r) => (new URL(r.url).pathname === "/__agentwire/ping" ? new Response("pong") : undefined),
    });
    expect(await (await e.handle(new Request("http://localhost:8000/__agentwire/ping"))).text()).toBe("pong");
    expect((await e.handle(req("/models"))).status).toBe(200);
    expect(requests(events).map((r) => r.path)).toEqual(["/v1/models"]);
    e.reset();
    await e.handle(req("/models"));
    expect(requests(events).map((r) => r.exchange)).toEqual(["c1", "c1"]);
  });
});
