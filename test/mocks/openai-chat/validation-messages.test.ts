/**
 * The exact words of the mock's 400s and of a refused scenario script. Validation runs on zod's
 * tree-shakable build (for the browser path); these messages are the ones the full build gave, so
 * clients and scripts that match on them keep working.
 */
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../../src/mocks/openai-chat/request.js";
import { forcedFunction, includeUsage, offeredNames } from "../../../src/mocks/openai-chat/request-fields.js";
import { parseScenarioScript } from "../../../src/mocks/openai-chat/script.js";
import { schemaFixtures } from "../../helpers/schema-fixtures.js";

const REQUESTS: [unknown, string, string][] = [
  [{}, "Invalid request: 'model': Invalid input: expected string, received undefined", "model"],
  [{"model":"agentwire-mock"}, "Invalid request: 'messages': Invalid input: expected array, received undefined", "messages"],
  [{"model":""}, "Invalid request: 'model': Too small: expected string to have >=1 characters", "model"],
  [{"model":3,"messages":[]}, "Invalid request: 'model': Invalid input: expected string, received number", "model"],
  [{"model":"agentwire-mock","messages":"hi"}, "Invalid request: 'messages': Invalid input: expected array, received string", "messages"],
  [{"model":"agentwire-mock","messages":[]}, "Invalid request: 'messages': Too small: expected array to have >=1 items", "messages"],
  [{"model":"agentwire-mock","messages":[{"role":"wizard","content":"x"}]}, "Invalid request: 'messages.0.role': Invalid discriminator value. Expected 'system' | 'developer' | 'user' | 'assistant' | 'tool'", "messages.0.role"],
  [{"model":"agentwire-mock","messages":[{"content":"x"}]}, "Invalid request: 'messages.0.role': Invalid discriminator value. Expected 'system' | 'developer' | 'user' | 'assistant' | 'tool'", "messages.0.role"],
  [{"model":"agentwire-mock","messages":[null]}, "Invalid request: 'messages.0': Invalid input: expected object, received null", "messages.0"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":3}]}, "Invalid request: 'messages.0.content': Invalid input", "messages.0.content"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":[{"type":"audio"}]}]}, "Invalid request: 'messages.0.content': Invalid input", "messages.0.content"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":[{"type":"image_url","image_url":{}}]}]}, "Invalid request: 'messages.0.content': Invalid input", "messages.0.content"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":[{"type":"text"}]}]}, "Invalid request: 'messages.0.content': Invalid input", "messages.0.content"],
  [{"model":"agentwire-mock","messages":[{"role":"system","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}, "Invalid request: 'messages.0.content': Invalid input", "messages.0.content"],
  [{"model":"agentwire-mock","messages":[{"role":"assistant"}]}, "Invalid request: 'messages.0.content': An assistant message needs `content` unless it has `tool_calls`", "messages.0.content"],
  [{"model":"agentwire-mock","messages":[{"role":"assistant","content":null}]}, "Invalid request: 'messages.0.content': An assistant message needs `content` unless it has `tool_calls`", "messages.0.content"],
  [{"model":"agentwire-mock","messages":[{"role":"assistant","tool_calls":[]}]}, "Invalid request: 'messages.0.tool_calls': Too small: expected array to have >=1 items", "messages.0.tool_calls"],
  [{"model":"agentwire-mock","messages":[{"role":"assistant","tool_calls":[{"id":"","type":"function","function":{"name":"a","arguments":""}}]}]}, "Invalid request: 'messages.0.tool_calls.0.id': Too small: expected string to have >=1 characters", "messages.0.tool_calls.0.id"],
  [{"model":"agentwire-mock","messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"fn","function":{"name":"a","arguments":{}}}]}]}, "Invalid request: 'messages.0.tool_calls.0.type': Invalid input: expected \"function\"", "messages.0.tool_calls.0.type"],
  [{"model":"agentwire-mock","messages":[{"role":"tool","content":"x"}]}, "Invalid request: 'messages.0.tool_call_id': Invalid input: expected string, received undefined", "messages.0.tool_call_id"],
  [{"model":"agentwire-mock","messages":[{"role":"tool","tool_call_id":"","content":"x"}]}, "Invalid request: 'messages.0.tool_call_id': Too small: expected string to have >=1 characters", "messages.0.tool_call_id"],
  [{"model":"agentwire-mock","messages":[{"role":"developer","content":"x","name":3}]}, "Invalid request: 'messages.0.name': Invalid input: expected string, received number", "messages.0.name"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tools":{}}, "Invalid request: 'tools': Invalid input: expected array, received object", "tools"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{}}]}, "Invalid request: 'tools.0.function.name': Invalid input: expected string, received undefined", "tools.0.function.name"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"a b"}}]}, "Invalid request: 'tools.0.function.name': must match ^[A-Za-z0-9_-]{1,64}$", "tools.0.function.name"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"a","parameters":{"type":"array"}}}]}, "Invalid request: 'tools.0.function.parameters.type': Invalid input: expected \"object\"", "tools.0.function.parameters.type"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tools":[{"type":"x","function":{"name":"a"}}]}, "Invalid request: 'tools.0.type': Invalid input: expected \"function\"", "tools.0.type"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tool_choice":"any"}, "Invalid request: 'tool_choice': Invalid input", "tool_choice"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"function","function":{}}}, "Invalid request: 'tool_choice': Invalid input", "tool_choice"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"function","function":{"name":"ls"}}}, "`tool_choice` names the function 'ls', which is not in `tools`", "tool_choice"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"stream":"yes"}, "Invalid request: 'stream': Invalid input: expected boolean, received string", "stream"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"stream_options":{"include_usage":true}}, "`stream_options` is only allowed when `stream` is true", "stream_options"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"stream":true,"stream_options":{"include_usage":1}}, "Invalid request: 'stream_options.include_usage': Invalid input: expected boolean, received number", "stream_options.include_usage"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"max_tokens":1.5}, "Invalid request: 'max_tokens': Invalid input: expected int, received number", "max_tokens"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"n":0}, "Invalid request: 'n': Too small: expected number to be >=1", "n"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"n":3}, "`n` must be 1: the mock answers one choice, got 3", "n"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"stream":true,"n":100000}, "`n` must be 1: the mock answers one choice, got 100000", "n"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"seed":"1"}, "Invalid request: 'seed': Invalid input: expected number, received string", "seed"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"temperature":"hot"}, "Invalid request: 'temperature': Invalid input: expected number, received string", "temperature"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"top_p":[]}, "Invalid request: 'top_p': Invalid input: expected number, received array", "top_p"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"stop":[1]}, "Invalid request: 'stop': Invalid input", "stop"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"stop":5}, "Invalid request: 'stop': Invalid input", "stop"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"parallel_tool_calls":"no"}, "Invalid request: 'parallel_tool_calls': Invalid input: expected boolean, received string", "parallel_tool_calls"],
  [{"model":"agentwire-mock","messages":[{"role":"user","content":"x"}],"tools":[{"type":"function","function":{"name":"ls"}}],"parallel_tool_calls":null}, "Invalid request: 'parallel_tool_calls': Invalid input: expected boolean, received null", "parallel_tool_calls"],
];

const SCRIPTS: [unknown, string][] = [
  [null, "✖ Invalid input: expected object, received null"],
  [{}, "✖ Invalid input: expected array, received undefined\n  → at turns"],
  [{"turns":[]}, "✖ Too small: expected array to have >=1 items\n  → at turns"],
  [{"turns":[{"answer":{}}]}, "✖ a turn needs `turn` or `match`\n  → at turns[0]"],
  [{"turns":[{"turn":0,"answer":{}}]}, "✖ Too small: expected number to be >=1\n  → at turns[0].turn"],
  [{"turns":[{"match":"(","answer":{}}]}, "✖ not a valid regular expression\n  → at turns[0].match"],
  [{"turns":[{"turn":1,"answer":{"text":1}}]}, "✖ Invalid input: expected string, received number\n  → at turns[0].answer.text"],
  [{"turns":[{"turn":1,"answer":{"calls":[{"name":""}]}}]}, "✖ Too small: expected string to have >=1 characters\n  → at turns[0].answer.calls[0].name"],
  [{"turns":[{"turn":1,"answer":{"calls":[{"name":"a","arguments":3}]}}]}, "✖ Invalid input\n  → at turns[0].answer.calls[0].arguments"],
  [{"turns":[{"turn":1,"answer":{"finish":"done"}}]}, "✖ Invalid option: expected one of \"stop\"|\"length\"|\"tool_calls\"|\"content_filter\"|\"function_call\"\n  → at turns[0].answer.finish"],
  [{"turns":[{"turn":1,"answer":{"httpError":{"status":200}}}]}, "✖ Too small: expected number to be >=400\n  → at turns[0].answer.httpError.status"],
  [{"turns":[{"turn":1,"answer":{"httpError":{"status":500,"retryAfter":-1}}}]}, "✖ Too small: expected number to be >=0\n  → at turns[0].answer.httpError.retryAfter"],
  [{"turns":[{"turn":1,"answer":{"error":{}}}]}, "✖ Invalid input: expected string, received undefined\n  → at turns[0].answer.error.message"],
  [{"turns":[{"turn":1,"answer":{},"extra":1}]}, "✖ Unrecognized key: \"extra\"\n  → at turns[0]"],
  [{"turns":[{"turn":1,"answer":{"bogus":1}}]}, "✖ Unrecognized key: \"bogus\"\n  → at turns[0].answer"],
  [{"description":3,"turns":[{"turn":1,"answer":{}}]}, "✖ Invalid input: expected string, received number\n  → at description"],
  [{"turns":[{"turn":1.5,"answer":{}},{"match":3,"answer":{}}]}, "✖ Invalid input: expected int, received number\n  → at turns[0].turn\n✖ Invalid input: expected string, received number\n  → at turns[1].match"],
  [{"turns":"x"}, "✖ Invalid input: expected array, received string\n  → at turns"],
];


describe("openai-chat request validation messages", () => {
  it.each(REQUESTS.map(([body, message, param]) => [JSON.stringify(body), message, param]))("%s", (body, message, param) => {
    const r = parseChatRequest("application/json", body);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.status).toBe(400);
    expect(r.error.error).toMatchObject({ message, param, type: "invalid_request_error" });
  });

  it("accepts a full request with every optional field", () => {
    const r = parseChatRequest(
      "application/json",
      JSON.stringify({
        model: "m",
        messages: [
          { role: "system", content: [{ type: "text", text: "s" }] },
          { role: "user", content: [{ type: "text", text: "u" }, { type: "image_url", image_url: { url: "data:," } }] },
          { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }] },
          { role: "tool", tool_call_id: "c", content: "r" },
        ],
        tools: [{ type: "function", function: { name: "f", parameters: { type: "object" }, strict: null } }],
        tool_choice: { type: "function", function: { name: "f" } },
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: null,
        n: 1,
        seed: 3,
        stop: ["x"],
      }),
    );
    expect(r.ok).toBe(true);
  });
});

describe("openai-chat request validation agrees with the ChatCompletionRequest schema", () => {
  const { fixtures } = schemaFixtures("openai-chat");
  const requests = (kind: string) => fixtures(kind).filter(([message]) => message === "chat-completion-request");

  it.each(requests("valid"))("accepts valid/%s/%s", (_message, _name, value) => {
    const r = parseChatRequest("application/json", JSON.stringify(value));
    expect(r.ok, r.ok ? "" : r.error.error.message).toBe(true);
  });

  it.each(requests("invalid"))("refuses invalid/%s/%s", (_message, _name, value) => {
    expect(parseChatRequest("application/json", JSON.stringify(value)).ok).toBe(false);
  });

  it("null where OpenAI's API accepts null is the same as absent", () => {
    const r = parseChatRequest("application/json", JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }], tools: [{ type: "function", function: { name: "ls" } }], tool_choice: null, stream: null, stream_options: null }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect([forcedFunction(r.request), includeUsage(r.request), offeredNames(r.request)]).toEqual([undefined, false, ["ls"]]);
  });
});

describe("openai-chat scenario script messages", () => {
  it.each(SCRIPTS.map(([script, message]) => [JSON.stringify(script), message]))("%s", (script, message) => {
    expect(() => parseScenarioScript(JSON.parse(script))).toThrow(`openai-chat mock: invalid scenario script: ${message}`);
  });
});
