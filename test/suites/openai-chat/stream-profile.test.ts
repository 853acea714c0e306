/**
 * stream/profile only reports, so no fault can prove it: a hand-built transcript does, and the same
 * transcript shows how the grouping rule assembles an awkward stream.
 */
import { describe, expect, it } from "vitest";
import { OPENAI_CHAT_SERVER_CHECKS } from "../../../src/suites/openai-chat/checks/index.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { chatStreamExchange, chunkEvent } from "../../helpers/openai-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";
import { byId, explain } from "../../helpers/run-results.js";

const tools = [
  { type: "function", function: { name: "read_file", parameters: { type: "object", properties: { filepath: { type: "string" } }, required: ["filepath"] } } },
  { type: "function", function: { name: "view_diff", parameters: { type: "object", properties: {} } } },
];
const body = { model: "m", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "hi" }], tools };
const usage = `data: ${JSON.stringify({ id: "chatcmpl-t1", object: "chat.completion.chunk", created: 1700000000, model: "m", choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } })}\n\n`;

describe("openai-chat stream/profile", () => {
  it("reports timing, reads, fragments per call, comments, extension fields, repeated ids and length during a call", () => {
    const events = chatStreamExchange({
      label: "forced-stream",
      body,
      requestAt: 0,
      headAt: 40,
      writes: [
        { t: 50, text: ": OPENROUTER PROCESSING\n\n" },
        { t: 120, text: chunkEvent({ role: "assistant", content: null, reasoning_content: "Let me look." }) },
        { t: 140, text: chunkEvent({ tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "read_file", arguments: "" } }] }) },
        { t: 160, text: chunkEvent({ tool_calls: [{ index: 0, id: "call_1", function: { arguments: '{"filepath":' } }] }) },
        { t: 180, text: chunkEvent({ tool_calls: [{ index: 0, function: { arguments: '"READ' } }] }) },
        { t: 200, text: chunkEvent({}, "length") + usage + "data: [DONE]\n\n" },
      ],
      endAt: 210,
    });
    const results = judge(OPENAI_CHAT_SERVER_CHECKS, events, { params: openaiChat.defaultParams });
    const profile = byId(results, "openai-chat/stream/profile");
    expect(profile.outcome).toBe("info");
    expect(profile.message).toBe(
      '1 stream(s). forced-stream: headers 40 ms, first chunk 120 ms, 7 event(s) in 6 read(s), largest gap 20 ms, calls: read_file in 3 fragment(s), ids repeated on later deltas, "length" during a call, 1 comment line(s), extension fields reasoning_content ×1, ended (eof) at 210 ms',
    );
    // A call cut by "length" is reported, not judged: its arguments rules are not exercised.
    expect(byId(results, "openai-chat/tool-call/arguments-join-to-object").outcome).toBe("incomplete");
    // The repeated id is identity-once's (a SHOULD); nothing else fails.
    expect(results.filter((r) => r.outcome === "fail").map((r) => r.id), explain(results)).toEqual(["openai-chat/tool-call/identity-once"]);
  });

  it("groups deltas without an index into the latest call, and a new id plus name into a new call", () => {
    const events = chatStreamExchange({
      label: "parallel-stream",
      body,
      writes: [
        { t: 10, text: chunkEvent({ role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "read_file", arguments: "" } }] }) },
        { t: 20, text: chunkEvent({ tool_calls: [{ function: { arguments: '{"filepath":"a"}' } }] }) },
        { t: 30, text: chunkEvent({ tool_calls: [{ id: "call_b", type: "function", function: { name: "view_diff", arguments: "{}" } }] }) },
        { t: 40, text: chunkEvent({}, "tool_calls") + usage + "data: [DONE]\n\n" },
      ],
      endAt: 50,
    });
    const results = judge(OPENAI_CHAT_SERVER_CHECKS, events, { params: openaiChat.defaultParams });
    // Missing indexes are index-integer's alone: both calls assemble whole and valid.
    expect(results.filter((r) => r.outcome === "fail").map((r) => r.id), explain(results)).toEqual(["openai-chat/tool-call/index-integer"]);
    expect(byId(results, "openai-chat/tool-call/arguments-valid-for-tool").message).toMatch(/^2 call\(s\)/);
    expect(byId(results, "openai-chat/tool-call/parallel-distinct-indexes").outcome).toBe("incomplete");
  });
});
