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
import { NOTE } from "../../../src/suites/mcp-chat/labels.js";
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
 * One chat stream fed to every check as a live run feeds it: each `send` is one read, and the events
 * are not kept. `close` sends the terminal, ends the body and gives the results by id.
 */
function liveStream() {
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
  const close = (terminal = "[DONE]") => {
    send(`data: ${terminal}\n\n`);
    reader.end();
    emit({ kind: "body-end", ...ref, reason: "eof", bytes });
    return new Map(evaluation.finish().map((r) => [r.id, r]));
  };
  const note = (name: string, value: unknown) => emit({ kind: "note", probe: ref.probe, name, value });
  return { send, close, note, bytes: () => bytes };
}

const startN = (i: number) => start(`call_${String(i).padStart(16, "0")}`, "read_file", { path: `/src/f${i}.ts` });

/**
 * One chat stream of `n` tool_start events with new ids, none ended, each read on its own (as a
 * server writing one event at a time is read). `held`: heap grown by the end of the body, before [DONE].
 */
function manyStarts(n: number) {
  const s = liveStream();
  s.send(e(start("call_first", "read_file")));
  gc();
  const base = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) s.send(e(startN(i)));
  gc();
  const held = process.memoryUsage().heapUsed - base;
  const results = s.close();
  return { held, bytes: s.bytes(), results };
}

describe("tools/ rules over a stream that keeps starting tools", () => {
  it("hold about the stream's size, not a copy of every id per rule", { timeout: 60_000 }, () => {
    const n = 100_000;
    const r = manyStarts(n);
    // Judged as before: every id unique, every call still open at [DONE].
    expect(r.results.get("mcp-chat/tools/unique-ids")?.message).toBe(`${n + 1} tool_start id(s) were unique in their streams`);
    const done = r.results.get("mcp-chat/tools/all-ended-before-done")!;
    expect(done.verdict).toBe("fail");
    // The first few open tools, then how many more: not a hundred thousand of them (megabytes).
    expect(done.message).toMatch(/arrived with tool\(s\) still open: call_first \(read_file\), call_0+ \(read_file\), call_0+1 \(read_file\), call_0+2 \(read_file\), call_0+3 \(read_file\), … and 99996 more$/);
    expect(done.message.length).toBeLessThan(1_000);
    expect(r.results.get("mcp-chat/tools/call-profile")?.message).toMatch(new RegExp(`^${n + 1} tool call\\(s\\), ${n} started while another was open \\(at most ${n + 1} at once\\)`));
    const perEvent = r.held / n;
    expect(r.held, `${Math.round(perEvent)} bytes held per tool_start of ${Math.round(r.bytes / (n + 2))} bytes`).toBeLessThan(2 * r.bytes);
  });
});

/** `open` tool_starts, then `ends` tool_ends that close none of them, then [ERROR]: the CPU time the ends took, and the results. */
function unmatchedEnds(open: number, ends: number) {
  const s = liveStream();
  for (let i = 0; i < open; i++) s.send(e(startN(i)));
  const before = process.cpuUsage();
  for (let i = 0; i < ends; i++) s.send(e(end(`gone_${i}`, "read_file")));
  const spent = process.cpuUsage(before);
  return { cpuMs: (spent.user + spent.system) / 1000, results: s.close("[ERROR] upstream failed") };
}

describe("tools/ rules over a stream with many tools open", () => {
  it("an unmatched tool_end costs the same with 100,000 tools open as with 1,000, and the messages list the first few", { timeout: 120_000 }, () => {
    const ends = 1_000;
    const few = unmatchedEnds(1_000, ends);
    const many = unmatchedEnds(100_000, ends);
    // The same work per end whatever is open (each once built the whole open list, kept or not): a generous factor
    // and a margin for a garbage collection of the larger heap.
    expect(many.cpuMs, `${ends} unmatched ends: ${Math.round(many.cpuMs)} ms with 100,000 open, ${Math.round(few.cpuMs)} ms with 1,000`).toBeLessThan(4 * few.cpuMs + 250);
    const unmatched = many.results.get("mcp-chat/tools/end-matches-start")!;
    expect(unmatched.message).toMatch(/: tool_end "gone_0" matches no open tool_start \(open: call_0+, call_0+1, call_0+2, call_0+3, call_0+4, … and 99995 more\) \(1000 violations, first shown\)$/);
    expect(unmatched.message.length).toBeLessThan(1_000);
    const open = many.results.get("mcp-chat/tools/all-ended-before-error")!;
    expect(open.message).toMatch(/"\[ERROR\] upstream failed" arrived with tool\(s\) still open: call_0+ \(read_file\), (call_0+\d \(read_file\), ){4}… and 99995 more$/);
    expect(open.message.length).toBeLessThan(1_000);
  });
});

/** A connect that listed `listed` tools, then `calls` tool_starts of a tool it did not list: the CPU time of the calls. */
function unlistedCalls(listed: number, calls: number) {
  const s = liveStream();
  s.note(NOTE.chatTools, Array.from({ length: listed }, (_, i) => `tool_${i}`));
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) s.send(e(start(`call_${i}`, "rm_rf")));
  const spent = process.cpuUsage(before);
  return { cpuMs: (spent.user + spent.system) / 1000, results: s.close() };
}

describe("tools/name-in-tool-list with a long tool list", () => {
  it("a call of an unlisted tool costs the same with 100,000 tools listed as with 1,000, and the expectation names the first ten", { timeout: 120_000 }, () => {
    const calls = 1_000;
    const few = unlistedCalls(1_000, calls);
    const many = unlistedCalls(100_000, calls);
    expect(many.cpuMs, `${calls} unlisted calls: ${Math.round(many.cpuMs)} ms with 100,000 tools listed, ${Math.round(few.cpuMs)} ms with 1,000`).toBeLessThan(4 * few.cpuMs + 250);
    const r = many.results.get("mcp-chat/tools/name-in-tool-list")!;
    expect(r.verdict).toBe("warn");
    expect(r.message).toMatch(/ calls rm_rf \(1000 violations, first shown\)$/);
    expect(r.expected).toBe(`a tool the connect listed: ${Array.from({ length: 10 }, (_, i) => `tool_${i}`).join(", ")}, … and 99990 more`);
  });

  it("names every tool of a short list", () => {
    const s = liveStream();
    s.note(NOTE.chatTools, ["read_file", "grep"]);
    s.send(e(start("c1", "rm_rf")));
    expect(s.close().get("mcp-chat/tools/name-in-tool-list")).toMatchObject({ verdict: "warn", expected: "a tool the connect listed: read_file, grep" });
  });
});
