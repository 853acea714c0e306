import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PI_WEB_SCENARIOS } from "../../../src/mocks/pi-web/index.js";
import { LONG_CODE_POINTS, longText } from "../../../src/mocks/pi-web/scenarios.js";
import { Client, grammarProblems, mock, runEvents, shape, type Json } from "./helpers.js";

let m: Awaited<ReturnType<typeof mock>>;
let c: Client;
beforeAll(async () => {
  m = await mock({ toolDelay: 5 });
  c = await Client.open(`${m.ws}/ws`);
});
afterAll(async () => {
  c.close();
  await m.close();
});

/** Prompts `scenario:<name> <said>` and returns everything from its response to the run's agent_end. */
async function play(name: string, said = "hi", ends = 1): Promise<Json[]> {
  const from = c.messages.length;
  const id = `p-${name}-${from}`;
  c.send({ type: "prompt", id, message: `scenario:${name} ${said}` });
  await c.waitCount((x) => x.type === "agent_end", ends, 10_000, from);
  return c.messages.slice(from);
}

const text = (n: string, k: number) => [`update:${n}_start`, `update:${n}_delta×${k}`, `update:${n}_end`];
const RUN_HEAD = ["response:prompt:true", "agent_start", "turn_start", "message_start:user", "message_end:user"];
const A = (...updates: string[]) => ["message_start:assistant", ...updates, "message_end:assistant"];
const T = ["tool_execution_start", "tool_execution_update", "tool_execution_end", "message_start:toolResult", "message_end:toolResult"];

describe("pi-web scenarios (§6): event sequences", () => {
  it("lists every scenario of §6 and §8", () => {
    expect(PI_WEB_SCENARIOS.map((s) => s.name).sort()).toEqual(
      [
        "text", "thinking", "thinking-overlap", "tool", "two-tools", "parallel-tools", "long", "error", "error-retry", "queue",
        "abort", "abort-open-block", "ext-dialogs", "ext-timeout", "ext-error", "ext-unknown-method", "dup-prompt-response",
        "reorder-responses", "idless-error", "silent-command", "unknown-events", "lifecycle-updates", "snapshot-ahead",
        "switch-mid-run", "foreign-run", "connect-notify", "server-shutdown", "garbage-frames",
      ].sort(),
    );
  });

  it("text: one text block echoing the prompt without its scenario prefix", async () => {
    const ms = await play("text", "Hi there");
    const reply = "Hello from the pi-web mock. You said: Hi there";
    expect(shape(ms)).toEqual([...RUN_HEAD, ...A(...text("text", Math.ceil(reply.length / 4))), "turn_end", "agent_end"]);
    expect(grammarProblems(ms)).toEqual([]);
    const user = ms.find((x) => x.type === "message_end" && x.message.role === "user")!.message;
    expect(user.content).toEqual([{ type: "text", text: "scenario:text Hi there" }]);
    const end = ms.find((x) => x.type === "message_end" && x.message.role === "assistant")!.message;
    expect(end).toMatchObject({ content: [{ type: "text", text: reply }], stopReason: "stop", api: "mock", provider: "mock", model: "mock-model" });
    const update = ms.find((x) => x.type === "message_update")!;
    expect(update.assistantMessageEvent.partial).toEqual(update.message);
    expect(ms.at(-1)!.messages).toHaveLength(2);
  });

  it("text: a huge prompt gets a reply of bounded length (its first 200 characters echoed)", async () => {
    const said = "word ".repeat(2000); // 10 KB: echoed whole, it was 2,500 deltas each carrying the partial twice
    const from = c.frames.length;
    const ms = await play("text", said);
    const reply = `Hello from the pi-web mock. You said: ${said.slice(0, 200)}…`;
    expect(shape(ms)).toEqual([...RUN_HEAD, ...A(...text("text", Math.ceil(reply.length / 4))), "turn_end", "agent_end"]);
    expect(ms.find((x) => x.type === "message_end" && x.message.role === "assistant")!.message.content).toEqual([{ type: "text", text: reply }]);
    // The user's own message still carries the whole prompt (it goes out a few times, not per delta).
    expect(ms.find((x) => x.type === "message_end" && x.message.role === "user")!.message.content[0].text).toBe(`scenario:text ${said}`);
    const updateBytes = c.frames.slice(from).reduce((n, f) => n + (f.data.includes('"message_update"') ? f.data.length : 0), 0);
    expect(updateBytes).toBeLessThan(100_000);
  });

  it("thinking and thinking-overlap", async () => {
    const plain = shape(await play("thinking"));
    expect(plain.slice(5, 13)).toEqual([
      "message_start:assistant",
      "update:thinking_start",
      expect.stringMatching(/^update:thinking_delta×\d+$/),
      "update:thinking_end",
      "update:text_start",
      expect.stringMatching(/^update:text_delta×\d+$/),
      "update:text_end",
      "message_end:assistant",
    ]);
    const ms = await play("thinking-overlap");
    expect(grammarProblems(ms)).toEqual([]);
    const s = shape(ms);
    const at = s.indexOf("update:thinking_end");
    expect(s.slice(at - 2, at + 2)).toEqual(["update:text_start", "update:text_delta×2", "update:thinking_end", expect.stringMatching(/^update:text_delta/)]);
  });

  it("tool: read README.md, its result, then a second turn (4 messages)", async () => {
    const ms = await play("tool");
    expect(grammarProblems(ms)).toEqual([]);
    expect(shape(ms)).toEqual([
      ...RUN_HEAD,
      ...A("update:toolcall_start", expect.stringMatching(/^update:toolcall_delta×\d+$/), "update:toolcall_end"),
      ...T,
      "turn_end",
      "turn_start",
      ...A(...text("text", Math.ceil('README.md starts with the heading "Mock README".'.length / 4))),
      "turn_end",
      "agent_end",
    ]);
    const deltas = ms.filter((x) => x.assistantMessageEvent?.type === "toolcall_delta").map((x) => x.assistantMessageEvent.delta);
    expect(deltas[0]).toBe("");
    expect(deltas.join("")).toBe('{"path":"README.md"}');
    const end = ms.find((x) => x.assistantMessageEvent?.type === "toolcall_end")!.assistantMessageEvent;
    expect(end.toolCall).toEqual({ type: "toolCall", id: "call_1", name: "read", arguments: { path: "README.md" } });
    expect(ms.find((x) => x.type === "tool_execution_end")).toMatchObject({
      toolCallId: "call_1",
      toolName: "read",
      result: { content: [{ type: "text", text: "# Mock README" }] },
      isError: false,
    });
    expect(ms.find((x) => x.type === "tool_execution_update")!.partialResult).toEqual({ content: [] });
    expect(ms.find((x) => x.type === "turn_end")!.toolResults).toHaveLength(1);
    expect(ms.at(-1)!.messages.map((x: Json) => x.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(ms.find((x) => x.type === "message_end" && x.message.role === "assistant")!.message.stopReason).toBe("toolUse");
  });

  it("two-tools and parallel-tools: pairing by id; parallel ends come in reverse, results in source order", async () => {
    const seq = await play("two-tools");
    expect(grammarProblems(seq)).toEqual([]);
    const order = (ms: Json[]) => ms.filter((x) => x.type?.startsWith("tool_execution_") && x.type !== "tool_execution_update").map((x) => `${x.type.slice(15)}:${x.toolCallId}`);
    expect(order(seq)).toEqual(["start:call_1", "end:call_1", "start:call_2", "end:call_2"]);
    expect(seq.at(-1)!.messages.map((x: Json) => x.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
    const par = await play("parallel-tools");
    expect(grammarProblems(par)).toEqual([]);
    expect(order(par)).toEqual(["start:call_1", "start:call_2", "end:call_2", "end:call_1"]);
    expect(par.find((x) => x.type === "turn_end")!.toolResults.map((r: Json) => r.toolCallId)).toEqual(["call_1", "call_2"]);
  });

  it("long: 400 deltas of mixed text, raw U+2028/2029 on the wire", async () => {
    const from = c.frames.length;
    const ms = await play("long");
    expect(grammarProblems(ms)).toEqual([]);
    expect(ms.filter((x) => x.assistantMessageEvent?.type === "text_delta")).toHaveLength(400);
    const end = ms.find((x) => x.assistantMessageEvent?.type === "text_end")!.assistantMessageEvent.content;
    expect(end).toBe(longText(LONG_CODE_POINTS));
    for (const ch of ["é", "漢字", "🙂", "\u2028", "\u2029", '"', "\\", "\n"]) expect(end).toContain(ch);
    expect(c.frames.slice(from).some((f) => f.data.includes("\u2028"))).toBe(true);
  });

  it("error: no updates, stopReason error with errorMessage, the prompt stays a success", async () => {
    const ms = await play("error");
    expect(grammarProblems(ms)).toEqual([]);
    expect(shape(ms)).toEqual([...RUN_HEAD, ...A(), "turn_end", "agent_end"]);
    expect(ms.find((x) => x.type === "message_end" && x.message.role === "assistant")!.message).toMatchObject({
      content: [],
      stopReason: "error",
      errorMessage: "Mock provider error: 500",
    });
    expect(ms.find((x) => x.type === "turn_end")!.toolResults).toEqual([]);
  });

  it("error-retry: agent_end, auto_retry_start, a second run without a prompt, auto_retry_end before its turn_end", async () => {
    const ms = await play("error-retry", "hi", 2);
    expect(shape(ms)).toEqual([
      ...RUN_HEAD,
      ...A(),
      "turn_end",
      "agent_end",
      "auto_retry_start",
      "agent_start",
      "turn_start",
      ...A(...text("text", 15)),
      "auto_retry_end",
      "turn_end",
      "agent_end",
    ]);
    expect(ms.find((x) => x.type === "auto_retry_start")).toEqual({
      type: "auto_retry_start",
      attempt: 1,
      maxAttempts: 3,
      delayMs: 200,
      errorMessage: "Mock provider error: 429 rate limit",
    });
    expect(ms.find((x) => x.type === "auto_retry_end")).toEqual({ type: "auto_retry_end", success: true, attempt: 1 });
    const runs = [runEvents(ms), runEvents(ms.slice(ms.findIndex((x) => x.type === "auto_retry_start")))];
    for (const r of runs) expect(grammarProblems(r)).toEqual([]);
  });

  it("queue without a steer: both tools run, then 'Both tools finished.'", async () => {
    const ms = await play("queue");
    expect(grammarProblems(ms)).toEqual([]);
    const updates = ms.filter((x) => x.type === "tool_execution_update" && x.toolCallId === "call_1");
    expect(updates.map((u) => u.partialResult)).toEqual([{ content: [] }, { content: [{ type: "text", text: "sleeping" }] }]);
    expect(ms.filter((x) => x.type === "tool_execution_end").every((x) => x.isError === false)).toBe(true);
    const last = ms.filter((x) => x.type === "message_end").at(-1)!.message;
    expect(last.content).toEqual([{ type: "text", text: "Both tools finished." }]);
  });

  it("ext-error: extension_error, then a text run", async () => {
    const ms = await play("ext-error");
    expect(shape(ms).slice(0, 3)).toEqual(["response:prompt:true", "extension_error", "agent_start"]);
    expect(ms[1]).toEqual({ type: "extension_error", extensionPath: "/mock/extensions/demo.ts", event: "tool_call", error: "Mock extension failure" });
  });

  it("ext-unknown-method: a fire-and-forget request with an unknown method", async () => {
    const ms = await play("ext-unknown-method");
    expect(ms[1]).toMatchObject({ type: "extension_ui_request", method: "mock_unknown_method", id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it("lifecycle-updates and snapshot-ahead", async () => {
    const life = await play("lifecycle-updates");
    expect(grammarProblems(life)).toEqual([]);
    const s = shape(life);
    expect(s[s.indexOf("message_start:assistant") + 1]).toBe("update:start");
    expect(s[s.indexOf("message_end:assistant") - 1]).toBe("update:done");
    expect(life.find((x) => x.assistantMessageEvent?.type === "done")!.assistantMessageEvent).toMatchObject({ reason: "stop", message: { stopReason: "stop" } });

    const ahead = await play("snapshot-ahead", "abcdef");
    expect(grammarProblems(ahead)).toEqual([]);
    const updates = ahead.filter((x) => x.type === "message_update").map((x) => x.assistantMessageEvent);
    const deltas = updates.filter((u) => u.type === "text_delta").map((u) => u.delta as string);
    // Each snapshot holds one chunk more than the deltas so far, until the block ends.
    expect(updates[0].partial.content[0].text).toBe(deltas[0]);
    expect(updates[1].partial.content[0].text).toBe(deltas[0]! + deltas[1]!);
    expect(updates.at(-2).partial.content[0].text).toBe(deltas.join(""));
    expect(updates.at(-1)).toMatchObject({ type: "text_end", content: deltas.join("") });
  });

  it("unknown-events: extra event types and fields", async () => {
    const ms = await play("unknown-events", "hi", 1);
    await c.waitFor((x) => x.type === "agent_settled");
    expect(ms[0]).toMatchObject({ type: "response", command: "prompt", success: true, responseId: "resp_mock_1" });
    expect(shape(ms).slice(1, 4)).toEqual(["agent_start", "queue_update", "turn_start"]);
    expect(ms.find((x) => x.type === "turn_start")!.mockExtra).toBe(true);
  });

  it("garbage-frames: invalid JSON, [], 42 and a binary frame before the run", async () => {
    const from = c.frames.length;
    await play("garbage-frames");
    const frames = c.frames.slice(from, from + 5);
    expect(frames.map((f) => (f.binary ? "<binary>" : f.data)).slice(1)).toEqual(['{"type":', "[]", "42", "<binary>"]);
  });

  it("dup-prompt-response and idless-error: extra responses before the success", async () => {
    const dup = await play("dup-prompt-response");
    expect(dup.slice(0, 2)).toEqual([
      { type: "response", id: dup[1]!.id, command: "prompt", success: false, error: "Mock duplicate response (failure first)" },
      { type: "response", id: dup[1]!.id, command: "prompt", success: true },
    ]);
    const idless = await play("idless-error");
    expect(idless[0]).toEqual({ type: "response", command: "prompt", success: false, error: "Mock id-less failure" });
    expect(idless[1]).toMatchObject({ command: "prompt", success: true, id: expect.any(String) });
  });

  it("silent-command: never answered, no run", async () => {
    const from = c.messages.length;
    c.send({ type: "prompt", id: "silent", message: "scenario:silent-command" });
    const r = await c.request({ type: "get_state" });
    expect(r.data.isStreaming).toBe(false);
    expect(c.messages.slice(from).map((x) => x.id)).toEqual([r.id]);
  });

  it("an unknown scenario name in a prompt is a failure listing the valid ones", async () => {
    const r = await c.request({ type: "prompt", message: "scenario:nope hi" });
    expect(r).toMatchObject({ success: false, error: expect.stringMatching(/^Unknown scenario "nope"\. Valid scenarios: text, /) });
  });

  it("?scenario= sets the default scenario of a connection", async () => {
    const d = await Client.open(`${m.ws}/ws?scenario=error`);
    d.send({ type: "prompt", id: "d1", message: "hello" });
    const end = await d.waitFor((x) => x.type === "message_end" && x.message.role === "assistant");
    expect(end.message.stopReason).toBe("error");
    await d.waitFor((x) => x.type === "agent_end");
    d.close();
  });
});
