/**
 * A call's arguments may hold tens of thousands of keys or errors, and a stream up to 256 calls a choice: the messages
 * name the first few and count the rest, and unknown keys are found in time that grows with their number.
 */
import { describe, expect, it } from "vitest";
import { judgeArgs } from "../../../src/suites/openai-chat/catalogue.js";
import { OPENAI_CHAT_SERVER_CHECKS } from "../../../src/suites/openai-chat/checks/index.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { chatStreamExchange, chunkEvent } from "../../helpers/openai-transcript.js";
import { byId } from "../../helpers/run-results.js";
import { judge } from "../../helpers/synthetic-transcript.js";

const weather = { type: "object", properties: { city: { type: "string" } } };
const tools = [
  { type: "function", function: { name: "weather_get", parameters: weather } },
  { type: "function", function: { name: "tags_set", parameters: { type: "object", additionalProperties: { type: "string" } } } },
];
const usage = `data: ${JSON.stringify({ id: "chatcmpl-t1", object: "chat.completion.chunk", created: 1700000000, model: "m", choices: [], usage: { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 } })}\n\n`;

/** One stream answering with `calls` (name, arguments), each whole in one delta; `extra`: more of the request. */
function answered(calls: [string, object][], extra: object = {}) {
  const body = { model: "m", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "hi" }], tools, ...extra };
  const deltas = calls.map(([name, args], i) => ({ t: 10 + i, text: chunkEvent({ ...(i === 0 ? { role: "assistant", content: null } : {}), tool_calls: [{ index: i, id: `call_${i}`, type: "function", function: { name, arguments: JSON.stringify(args) } }] }) }));
  const events = chatStreamExchange({ label: "parallel-stream", body, writes: [...deltas, { t: 10 + calls.length, text: chunkEvent({}, "tool_calls") + usage + "data: [DONE]\n\n" }], endAt: 20 + calls.length });
  return judge(OPENAI_CHAT_SERVER_CHECKS, events, { params: openaiChat.defaultParams });
}

const keys = (n: number, value: unknown = 0) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, value]));

describe("openai-chat messages over long lists", () => {
  it("tool-call/arguments-no-unknown-keys names the first five unknown keys", () => {
    const r = byId(answered([["weather_get", keys(12)]]), "openai-chat/tool-call/arguments-no-unknown-keys");
    expect(r.message).toMatch(/ has unknown key\(s\) k0, k1, k2, k3, k4, … and 7 more \(\{\\"k0\\":0,/);
  });

  it("tool-call/arguments-valid-for-tool names the first five schema errors", () => {
    const r = byId(answered([["tags_set", keys(12)]]), "openai-chat/tool-call/arguments-valid-for-tool");
    expect(r.message).toMatch(/: \/k0: must be string; \/k1: must be string; \/k2: must be string; \/k3: must be string; \/k4: must be string; … and 7 more$/);
  });

  it("tool-call/parallel-false-honoured names the first five calls", () => {
    const calls = Array.from({ length: 12 }, (): [string, object] => ["weather_get", { city: "Paris" }]);
    const r = byId(answered(calls, { parallel_tool_calls: false }), "openai-chat/tool-call/parallel-false-honoured");
    expect(r.message).toMatch(/: 12 calls \(weather_get, weather_get, weather_get, weather_get, weather_get, … and 7 more\) despite parallel_tool_calls: false/);
  });

  it("stream/profile names the first five calls of a stream", () => {
    const calls = Array.from({ length: 12 }, (): [string, object] => ["weather_get", { city: "Paris" }]);
    const r = byId(answered(calls), "openai-chat/stream/profile");
    expect(r.message).toMatch(/calls: (weather_get in 1 fragment\(s\), ){5}… and 7 more, /);
  });

  it("finds unknown keys in time that grows with their number, not with its square", () => {
    const cpuMs = (n: number) => {
      const args = keys(n);
      const before = process.cpuUsage();
      const j = judgeArgs(args, "weather_get", undefined, weather, true)!;
      const spent = process.cpuUsage(before);
      expect(j.unknownKeys.length).toBe(n);
      return (spent.user + spent.system) / 1000;
    };
    cpuMs(2_000);
    const small = cpuMs(2_000);
    const large = cpuMs(80_000);
    // 40 times the keys: about 40 times the work when linear, 1,600 times when each key searches the ones before it.
    expect(large, `${Math.round(large)} ms for 80,000 keys, ${Math.round(small)} ms for 2,000`).toBeLessThan(160 * small + 100);
  });
});
