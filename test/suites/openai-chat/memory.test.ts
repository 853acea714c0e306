/**
 * Observers keep only the state their rules need: a stream ten times longer costs no more memory
 * once the run is over, and no more than a few MB while it runs (the joined arguments of a call are
 * the only state that grows, and they are capped).
 */
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { OPENAI_CHAT_SERVER_CHECKS } from "../../../src/suites/openai-chat/checks/index.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/** The events of one long streamed answer: a tool call in `callFragments` fragments, then `chunks` text deltas. */
function* longStream(chunks: number, callFragments: number): Generator<TranscriptEvent> {
  let seq = 0;
  let t = 0;
  const ref = { probe: "text-stream", exchange: "xm1", label: "text-stream" };
  const body = JSON.stringify({ model: "m", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "read_file", parameters: { type: "object", properties: { filepath: { type: "string" } } } } }] });
  const ev = (e: object) => ({ ...e, ...ref, seq: seq++, t: (t += 0.01) }) as TranscriptEvent;
  yield ev({ kind: "http-request", method: "POST", url: "http://127.0.0.1:1/v1/chat/completions", path: "/v1/chat/completions", headers: {}, body });
  yield ev({ kind: "http-response", status: 200, headers: { "content-type": "text/event-stream" } });
  let index = 0;
  let line = 0;
  const enc = new TextEncoder();
  const send = function* (payload: object | string) {
    const data = typeof payload === "string" ? payload : JSON.stringify(payload);
    yield ev({ kind: "body-chunk", index, bytes: enc.encode(`data: ${data}\n\n`) });
    yield ev({ kind: "sse-line", lineNo: line++, line: `data: ${data}`, eol: "\n", chunkStart: index, chunkEnd: index });
    yield ev({ kind: "sse-line", lineNo: line++, line: "", eol: "\n", chunkStart: index, chunkEnd: index });
    yield ev({ kind: "sse-event", index, data, chunk: index });
    index++;
  };
  const chunk = (delta: object, finish: string | null = null) => ({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
  yield* send(chunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "read_file", arguments: "" } }] }));
  const args = `{"filepath":"${"a".repeat(callFragments - 16)}"}`;
  for (let i = 0; i < args.length; i += Math.ceil(args.length / callFragments)) yield* send(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(i, i + Math.ceil(args.length / callFragments)) } }] }));
  for (let i = 0; i < chunks; i++) yield* send(chunk({ reasoning_content: `step ${i} é 漢 🙂 ` }));
  yield* send(chunk({}, "tool_calls"));
  yield* send({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } });
  yield* send("[DONE]");
  yield ev({ kind: "body-end", reason: "eof", bytes: 0 });
}

/** Heap in use after a full GC, sampled every `every` events while the run goes on; the peak. */
function run(chunks: number): { peak: number; outcomes: Map<string, string> } {
  const evaluation = new Evaluation(OPENAI_CHAT_SERVER_CHECKS, {
    protocol: "openai-chat",
    profile: DEFAULT_PROFILE,
    params: openaiChat.defaultParams,
    validate: (m, v) => registry.validate("openai-chat", m, v),
  });
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  let n = 0;
  for (const e of longStream(chunks, 2000)) {
    evaluation.observe(e);
    if (++n % 100_000 === 0) {
      gc();
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    }
  }
  const outcomes = new Map(evaluation.finish().map((r) => [r.id, r.outcome]));
  return { peak, outcomes };
}

describe("openai-chat checks over a long stream", () => {
  it("keep memory flat from 10^4 to 10^5 chunks (every check observing)", { timeout: 120_000 }, () => {
    const small = run(10_000);
    const large = run(100_000);
    // Every rule still judged the stream.
    expect(large.outcomes.get("openai-chat/tool-call/arguments-valid-for-tool")).toBe("pass");
    expect(large.outcomes.get("openai-chat/finish/exactly-once")).toBe("pass");
    expect([...large.outcomes].filter(([, o]) => o === "fail")).toEqual([]);
    expect(large.peak, `peak heap growth ${large.peak} vs ${small.peak} bytes`).toBeLessThan(8 * 1024 * 1024);
  });
});
