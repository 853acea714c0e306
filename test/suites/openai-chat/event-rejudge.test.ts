/**
 * Second realisations: deviations produced not by the mock's faults but by rewriting the events of
 * a recorded good run (reordered, dropped, duplicated, edited). Each must fail its one target rule;
 * every other check passes, reports, skips as not applicable or names the failed rule (knock-on).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { explain } from "../../helpers/run-results.js";
import { judgeAsRecorded, recordRun, transformStreams, type Recorded, type StreamTransform, type TimedChunk } from "../../helpers/rejudge.js";

let recorded: Recorded;

beforeAll(async () => {
  recorded = await recordRun(openaiChat);
}, 60_000);

const P = "openai-chat/";
const enc = new TextEncoder();
const dec = new TextDecoder();

type Json = Record<string, any>;

/**
 * Rewrites the data payloads of every stream `when` selects. The events keep the recorded reads
 * (slots): the n-th new event goes out at the n-th recorded event's time, extra ones with the last.
 */
function events(rewrite: (payloads: string[]) => string[], when: (payloads: string[]) => boolean = () => true): StreamTransform {
  return (chunks) => {
    const slots: number[] = [];
    const payloads: string[] = [];
    let buf = "";
    for (const c of chunks) {
      buf += dec.decode(c.bytes, { stream: true });
      let i: number;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (!block.startsWith("data: ")) continue;
        payloads.push(block.slice(6));
        slots.push(c.from);
      }
    }
    if (!when(payloads)) return chunks;
    const out: TimedChunk[] = rewrite([...payloads]).map((p, n) => ({ from: slots[Math.min(n, slots.length - 1)]!, bytes: enc.encode(`data: ${p}\n\n`) }));
    return out;
  };
}

/** Edits the parsed chunks (not [DONE]) of a stream. */
const chunks = (edit: (list: Json[]) => void, when?: (payloads: string[]) => boolean) =>
  events((ps) => {
    const done = ps.filter((p) => p === "[DONE]");
    const list = ps.filter((p) => p !== "[DONE]").map((p) => JSON.parse(p) as Json);
    edit(list);
    return [...list.map((c) => JSON.stringify(c)), ...done];
  }, when);

const hasTools = (ps: string[]) => ps.some((p) => p.includes('"tool_calls"'));
const textOnly = (ps: string[]) => !hasTools(ps);
const withUsage = (ps: string[]) => ps.some((p) => p.includes('"usage":{'));
const finishIndex = (list: Json[]) => list.findIndex((c) => c.choices?.[0]?.finish_reason);
const firstToolDelta = (list: Json[]) => list.find((c) => c.choices?.[0]?.delta?.tool_calls)!.choices[0].delta.tool_calls[0];

const cases: [string, StreamTransform, string][] = [
  ["non-string arguments on the first tool-call delta", chunks((l) => void (firstToolDelta(l).function.arguments = {}), hasTools), P + "tool-call/arguments-string"],
  ["the role chunk and the first text chunk swapped", events((ps) => [ps[1]!, ps[0]!, ...ps.slice(2)], textOnly), P + "delta/role-first"],
  ["the finish chunk sent twice", chunks((l) => void l.splice(finishIndex(l), 0, structuredClone(l[finishIndex(l)]!))), P + "finish/exactly-once"],
  ["the finish chunk dropped", chunks((l) => void l.splice(finishIndex(l), 1)), P + "finish/exactly-once"],
  ["the stream truncated before [DONE]", events((ps) => ps.filter((p) => p !== "[DONE]")), P + "done/present"],
  ["[DONE] sent twice", events((ps) => [...ps, "[DONE]"]), P + "done/last-event"],
  ["a keep-alive sent as data", events((ps) => [ps[0]!, "ping", ...ps.slice(1)]), P + "sse/data-json"],
  ["an empty tool_calls array on a text delta", chunks((l) => void (l[1]!.choices[0].delta.tool_calls = []), textOnly), P + "delta/no-empty-tool-calls"],
  ["a chunk id changed mid-stream", chunks((l) => void (l[1]!.id = `${l[1]!.id}-x`)), P + "envelope/fields"],
  ["usage copied onto the first chunk", chunks((l) => void (l[0]!.usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 }), withUsage), P + "usage/only-final-chunk"],
  ["finish_reason stop on a stream with calls", chunks((l) => void (l[finishIndex(l)]!.choices[0].finish_reason = "stop"), hasTools), P + "finish/matches-tool-calls"],
  // The mock sends a call's id once; a later delta repeating it in another case is a changed id.
  ["a later tool-call delta repeating the id in upper case", chunks((l) => {
    const later = l.filter((c) => c.choices?.[0]?.delta?.tool_calls?.[0] && !c.choices[0].delta.tool_calls[0].id)[0]!;
    later.choices[0].delta.tool_calls[0].id = String(firstToolDelta(l).id).toUpperCase();
  }, hasTools), P + "tool-call/id-stable"],
  ["a choice index sent as a string", chunks((l) => void (l[1]!.choices[0].index = "0"), textOnly), P + "chunk/choice-index"],
];

describe("openai-chat: second realisations from rewritten events", () => {
  it.each(cases)("%s fails only its rule", (_name, transform, target) => {
    const after = judgeAsRecorded(openaiChat, transformStreams(recorded.events, transform));
    const others = (c: { id: string; outcome: string; message: string }) =>
      c.id !== target && !(c.outcome === "pass" || c.outcome === "info" || (c.outcome === "skip" && /^(not applicable|not judged): /.test(c.message)));
    const why = explain(after, (c) => c.id === target || others(c));
    expect(after.find((c) => c.id === target)!.outcome, why).toBe("fail");
    expect(after.filter(others).map((c) => c.id), why).toEqual([]);
  });
});

describe("openai-chat: a legal alternative re-judged", () => {
  it("parallel-stream answered with one call: the parallel rules are not applicable and nothing fails", () => {
    const secondCall = (p: string) => p.includes('"tool_calls":[{"index":1');
    const transform = events((ps) => ps.filter((p) => !secondCall(p)), (ps) => ps.some(secondCall));
    const after = judgeAsRecorded(openaiChat, transformStreams(recorded.events, transform));
    const bad = (c: { outcome: string; message: string }) => !(c.outcome === "pass" || c.outcome === "info" || (c.outcome === "skip" && /^(not applicable|not judged): /.test(c.message)));
    expect(after.filter(bad), explain(after, bad)).toEqual([]);
    for (const id of ["tool-call/parallel-distinct-indexes", "tool-call/parallel-sequential", "tool-call/exclusive-not-parallel"]) {
      expect(after.find((c) => c.id === P + id)!.message, id).toMatch(/^not applicable: parallel-stream was answered with one call/);
    }
  });
});
