/**
 * The tools/ rules read one record of a stream's open tools, the stream view's, instead of each
 * keeping its own. What they judge and say is the same; what a stream that keeps starting tools
 * costs is one entry per id in that record and one in tools/unique-ids', about the stream's size.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import type { NewEvent, TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { SseReader } from "../../../src/core/transport/sse-reader.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { MCP_CHAT_SERVER_CHECKS } from "../../../src/suites/mcp-chat/checks/index.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { chatStreamExchange, dataEvent as e } from "../../helpers/mcp-chat-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";

const TOOL_RULES = ["unique-ids", "end-matches-start", "all-ended-before-done", "all-ended-before-error", "call-profile"].map((id) => `mcp-chat/tools/${id}`);

/** The tools/ rules' verdicts and messages over one chat stream of `events` (then [DONE]). */
function toolVerdicts(events: object[], terminal = "[DONE]") {
  const chunks = [...events.map((v, i) => ({ t: 10 + i, text: e(v) })), { t: 100, text: `data: ${terminal}\n\n` }];
  const results = judge(MCP_CHAT_SERVER_CHECKS, chatStreamExchange({ label: "chat-stream", requestAt: 0, headAt: 5, chunks, endAt: 105 }));
  return Object.fromEntries(results.filter((r) => TOOL_RULES.includes(r.id)).map((r) => [r.id.replace("mcp-chat/tools/", ""), `${r.verdict}: ${r.message}`]));
}

const start = (id: string, name: string, args: object = { path: "/x" }) => ({ type: "tool_start", id, name, args });
const end = (id: string, name: string) => ({ type: "tool_end", id, name, result: "ok" });

describe("tools/ rules over the stream's own record of open tools", () => {
  it("overlapping calls, an id started again while open, an end that closes nothing, an end under another name", () => {
    expect(
      toolVerdicts([start("a", "read_file"), start("b", "write_file"), start("a", "read_file"), end("x", "read_file"), end("a", "read_file"), end("b", "other"), start("c", "grep", {}), end("c", "grep")]),
    ).toEqual({
      "unique-ids": 'fail: chat-stream event #2 (chunk 2, at 12 ms) reuses id "a" of event #0',
      "end-matches-start": 'fail: chat-stream event #3 (chunk 3, at 13 ms): tool_end "x" matches no open tool_start (open: a, b) (2 violations, first shown)',
      "all-ended-before-done": "pass: no tool was open at [DONE] (4 tool call(s) in all streams)",
      "all-ended-before-error": "incomplete: not exercised: no stream ended with [ERROR]",
      "call-profile": "info: 4 tool call(s), 2 started while another was open (at most 2 at once), 1 with args {}, 4 tool_end(s) with a result: 1 call(s) sent args {} — the real arguments never reach the UI",
    });
  });

  it("tools still open at [DONE] and at [ERROR] are listed with their names", () => {
    const open = [start("t1", "read_file"), start("t2", "grep"), end("t1", "read_file"), start("t3", "ls")];
    expect(toolVerdicts(open)["all-ended-before-done"]).toBe('fail: chat-stream event #4 (chunk 4, at 100 ms): "[DONE]" arrived with tool(s) still open: t2 (grep), t3 (ls)');
    expect(toolVerdicts(open, "[ERROR] boom")["all-ended-before-error"]).toBe('warn: chat-stream event #4 (chunk 4, at 100 ms): "[ERROR] boom" arrived with tool(s) still open: t2 (grep), t3 (ls)');
  });

  it("an open tool whose end came under another id is end-matches-start's failure, not a missing end", () => {
    expect(toolVerdicts([start("t1", "read_file"), end("T1", "read_file")])).toMatchObject({
      "end-matches-start": 'fail: chat-stream event #1 (chunk 1, at 11 ms): tool_end "T1" matches no open tool_start (open: t1)',
      "all-ended-before-done": 'skip: not judged: mcp-chat/tools/end-matches-start failed on chat-stream event #1 (chunk 1, at 11 ms)',
    });
  });

  it("a call ended and started again under its id, and the name it ends with compared with the last start", () => {
    expect(toolVerdicts([start("a", "read_file"), start("a", "grep"), end("a", "grep"), start("a", "ls"), end("a", "ls")])).toMatchObject({
      "end-matches-start": "pass: 2 tool_end(s) each closed an open tool_start with the same id and name",
      "call-profile": "info: 3 tool call(s), 1 started while another was open (at most 1 at once), 0 with args {}, 2 tool_end(s) with a result",
    });
  });
});

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

/**
 * One chat stream of `n` tool_start events with new ids, none ended, each read on its own (as a
 * server writing one event at a time is read), fed to every check as a live run feeds them: the
 * events are not kept. `held`: heap grown by the end of the body, before [DONE].
 */
function manyStarts(n: number) {
  const evaluation = new Evaluation(MCP_CHAT_SERVER_CHECKS, { protocol: "mcp-chat", profile: DEFAULT_PROFILE, params: { ...mcpChat.defaultParams }, validate: (m, v) => registry.validate("mcp-chat", m, v) });
  let seq = 0;
  const ref = { probe: "chat-stream", exchange: "x1", label: "chat-stream" };
  const emit = (ev: NewEvent) => evaluation.observe({ ...ev, seq: seq++, t: seq * 0.01 } as TranscriptEvent);
  emit({ kind: "http-request", ...ref, method: "POST", url: "http://127.0.0.1:1/chat/stream", path: "/chat/stream", headers: { origin: "http://localhost:3000" }, body: "{}" });
  emit({ kind: "http-response", ...ref, status: 200, headers: { "content-type": "text/event-stream" } });
  const reader = new SseReader(ref.probe, ref.exchange, ref.label, emit);
  const enc = new TextEncoder();
  let bytes = 0;
  let index = 0;
  const send = (text: string) => {
    const b = enc.encode(text);
    bytes += b.length;
    emit({ kind: "body-chunk", ...ref, index, bytes: b });
    reader.push(b, index++);
  };
  send(e(start("call_first", "read_file")));
  gc();
  const base = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) send(e(start(`call_${String(i).padStart(16, "0")}`, "read_file", { path: `/src/f${i}.ts` })));
  gc();
  const held = process.memoryUsage().heapUsed - base;
  send("data: [DONE]\n\n");
  reader.end();
  emit({ kind: "body-end", ...ref, reason: "eof", bytes });
  const results = new Map(evaluation.finish().map((r) => [r.id, r]));
  return { held, bytes, results };
}

describe("tools/ rules over a stream that keeps starting tools", () => {
  it("hold about the stream's size, not a copy of every id per rule", { timeout: 60_000 }, () => {
    const n = 100_000;
    const r = manyStarts(n);
    // Judged as before: every id unique, every call still open at [DONE].
    expect(r.results.get("mcp-chat/tools/unique-ids")?.message).toBe(`${n + 1} tool_start id(s) were unique in their streams`);
    expect(r.results.get("mcp-chat/tools/all-ended-before-done")?.verdict).toBe("fail");
    expect(r.results.get("mcp-chat/tools/call-profile")?.message).toMatch(new RegExp(`^${n + 1} tool call\\(s\\), ${n} started while another was open \\(at most ${n + 1} at once\\)`));
    const perEvent = r.held / n;
    expect(r.held, `${Math.round(perEvent)} bytes held per tool_start of ${Math.round(r.bytes / (n + 2))} bytes`).toBeLessThan(2 * r.bytes);
  });
});
