/**
 * Answers nested deeper than the call stack goes (10,000 levels in 60 KB): the checks that show and compare them
 * judge them like any other, and none of them crashes.
 */
import { describe, expect, it } from "vitest";
import { OPENAI_CHAT_SERVER_CHECKS } from "../../../src/suites/openai-chat/checks/index.js";
import { byId } from "../../helpers/run-results.js";
import { Transcript } from "../../helpers/synthetic-transcript.js";
import { chunkEvent } from "../../helpers/openai-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";

const LEVELS = 10_000;
const deep = (leaf: string) => `${'{"a":'.repeat(LEVELS)}${leaf}${"}".repeat(LEVELS)}`;
const TOOLS = [{ type: "function", function: { name: "read_file", parameters: { type: "object", properties: { a: {} } } } }];
const request = (stream: boolean, extra: object = {}) =>
  JSON.stringify({ model: "m", stream, messages: [{ role: "user", content: "hi" }], tools: TOOLS, tool_choice: { type: "function", function: { name: "read_file" } }, ...extra });
const completion = (message: string, finish: string) =>
  `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"m","choices":[{"index":0,"message":${message},"finish_reason":"${finish}"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`;
const call = (args: string) => ({ index: 0, id: "call_1", type: "function", function: { name: "read_file", arguments: args } });

function transcript() {
  const s = new Transcript();
  s.json({ label: "follow-up-sync", method: "POST", path: "/v1/chat/completions", body: request(false), response: completion(`{"role":"assistant","content":${deep("1")}}`, "stop") });
  s.json({
    label: "forced-sync",
    method: "POST",
    path: "/v1/chat/completions",
    body: request(false),
    response: completion(JSON.stringify({ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "read_file", arguments: deep("1") } }] }), "tool_calls"),
  });
  s.sse({
    label: "forced-stream",
    method: "POST",
    path: "/v1/chat/completions",
    body: request(true),
    requestAt: 1000,
    headAt: 1005,
    endAt: 1035,
    chunks: [
      { t: 1010, text: chunkEvent({ role: "assistant", tool_calls: [call(deep("1"))] }) },
      { t: 1020, text: chunkEvent({}, "tool_calls") },
      { t: 1030, text: "data: [DONE]\n\n" },
    ],
  });
  return s.wait(100).events;
}

describe("openai-chat answers nested 10,000 levels deep", () => {
  it("no check crashes; a deep follow-up content fails as not plain text, deep arguments are reported as not comparable", () => {
    const results = judge(OPENAI_CHAT_SERVER_CHECKS, transcript());
    expect(results.filter((c) => c.message.startsWith("internal error")).map((c) => `${c.id}: ${c.message.slice(0, 200)}`)).toEqual([]);
    expect(results.filter((c) => /Maximum call stack|\n\s+at /.test(JSON.stringify(c))).map((c) => c.id)).toEqual([]);
    const final = byId(results, "openai-chat/turn/follow-up-final-answer");
    expect([final.outcome, final.message]).toEqual(["fail", expect.stringContaining("content is [nested too deeply to show]")]);
    const parity = byId(results, "openai-chat/tool-call/streaming-parity");
    expect(parity.message).toMatch(/arguments could not be compared \(nested deeper than 1000 levels\)/);
  });
});
