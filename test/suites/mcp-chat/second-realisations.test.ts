/**
 * One deviation, one failing check: deviations made by rewriting the events of a recorded good
 * run (not by the mock's faults) are re-judged. Each fails its one target rule; every other check
 * keeps its verdict, skips as not applicable, or skips as a knock-on that names a rule which did
 * fail in the same judgement.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { explain } from "../../helpers/run-results.js";
import { expectOnlyTarget, judgeAsRecorded, recordRun, sameVerdict, transformStreams, type Recorded, type StreamTransform } from "../../helpers/rejudge.js";
import { byBlocks, isData, isType, mapFirst, payload, swap, withPayload, type Block } from "./event-transforms.js";

let recorded: Recorded;

beforeAll(async () => {
  recorded = await recordRun(mcpChat);
}, 60_000);

const P = "mcp-chat/";
const without = (match: (b: Block) => boolean) => byBlocks((blocks) => blocks.filter((b) => !match(b)));
const first = (match: (b: Block) => boolean, f: (b: Block) => Block[]) => byBlocks(mapFirst(match, f));
const edit = (b: Block, change: (v: Record<string, unknown>) => Record<string, unknown>) => withPayload(b, change(payload(b)!));
const line = (b: Block, text: string): Block => ({ from: b.from, lines: [text] });

/** [deviation, rewrite, the check that must fail, the checks that must skip as knock-ons]. */
const CASES: [string, StreamTransform, string, string[]][] = [
  ["a tool_end id differing from its tool_start in letter case", first(isType("tool_end"), (b) => [edit(b, (v) => ({ ...v, id: String(v.id).toUpperCase() }))]), "tools/end-matches-start", ["tools/all-ended-before-done"]],
  ["tool_end sent before its tool_start", byBlocks(swap(isType("tool_start"), isType("tool_end"))), "tools/end-matches-start", ["tools/all-ended-before-done", "timing/streams-incrementally"]],
  ["the stream cut before [DONE]", without(isData("[DONE]")), "terminal/required", ["tools/all-ended-before-done", "text/answer-present", "timing/streams-incrementally"]],
  ["a tool_start sent twice", first(isType("tool_start"), (b) => [b, b]), "tools/unique-ids", []],
  ["a tool_end sent twice", first(isType("tool_end"), (b) => [b, b]), "tools/end-matches-start", []],
  ["a text event after [DONE]", first(isData("[DONE]"), (b) => [b, withPayload(b, { type: "text", content: "late" })]), "terminal/last-event", []],
  ["no tool_end", without(isType("tool_end")), "tools/all-ended-before-done", ["tools/end-matches-start", "timing/streams-incrementally"]],
  ["no tool_start", without(isType("tool_start")), "tools/end-matches-start", ["tools/unique-ids", "tools/name-in-tool-list", "tools/call-profile", "timing/streams-incrementally"]],
  ["a tool_start without an id", first(isType("tool_start"), (b) => [edit(b, ({ id: _id, ...v }) => v)]), "events/schema", ["tools/unique-ids", "tools/end-matches-start", "tools/name-in-tool-list", "tools/call-profile", "timing/streams-incrementally"]],
  ["`data:` without its space", first(isType("text"), (b) => [line(b, b.lines[0]!.replace("data: ", "data:"))]), "sse/data-lines-only", []],
  ["one event's JSON split over two data lines", first(isType("text"), (b) => [{ from: b.from, lines: b.lines[0]!.split(/(?<=,) /).map((part, i) => (i ? `data: ${part}` : part)) }]), "sse/one-data-line-per-event", []],
  ["[done] in place of [DONE]", first(isData("[DONE]"), (b) => [line(b, "data: [done]")]), "terminal/sentinel-format", ["tools/all-ended-before-done", "text/answer-present", "timing/streams-incrementally"]],
  ["[DONE] without its empty line", first(isData("[DONE]"), (b) => [{ ...b, end: "\n" }]), "sse/one-data-line-per-event", ["tools/all-ended-before-done", "text/answer-present", "timing/streams-incrementally"]],
  ["a tool both started and ended under an unlisted name", byBlocks((blocks) => blocks.map((b) => (isType("tool_start")(b) || isType("tool_end")(b) ? edit(b, (v) => ({ ...v, name: "delete_everything" })) : b))), "tools/name-in-tool-list", []],
  ["tool_end renamed", first(isType("tool_end"), (b) => [edit(b, (v) => ({ ...v, name: "get_forecast" }))]), "tools/end-matches-start", []],
  ["answer text before the tool", first(isType("tool_start"), (b) => [withPayload(b, { type: "text", content: "Let me check. " }), b]), "text/final-answer-only", []],
  ["no answer text", without(isType("text")), "text/answer-present", ["text/final-answer-only"]],
  ["an event of an unknown type", first(isType("text"), (b) => [withPayload(b, { type: "thinking", content: "hm" }), b]), "events/known-type", []],
  ["tool args as a string", first(isType("tool_start"), (b) => [edit(b, (v) => ({ ...v, args: "city=SF" }))]), "events/schema", []],
  ["an [ERROR] message continued on a second line", first((b) => b.lines[0]!.startsWith("data: [ERROR] "), (b) => [{ ...b, lines: [...b.lines, "  at connect (mcp.py:12)"] }]), "terminal/sentinel-format", []],
  ["a payload that is not JSON", first(isType("text"), (b) => [line(b, "data: The current ")]), "sse/json-payload", []],
];

/** Legal variations: nothing changes. */
const LEGAL: [string, StreamTransform][] = [
  ["a comment line between events", first(isType("text"), (b) => [line(b, ": keep-alive"), b])],
  ["the answer text in one event", byBlocks((blocks) => {
    const texts = blocks.filter(isType("text"));
    if (!texts.length) return blocks;
    const joined = withPayload(texts[0]!, { type: "text", content: texts.map((b) => payload(b)!.content).join("") });
    return blocks.flatMap((b) => (b === texts[0] ? [joined] : isType("text")(b) ? [] : [b]));
  })],
];

describe("mcp-chat: second realisations of single deviations", () => {
  it.each(CASES)("%s fails only its rule", (_name, transform, target, knocked) => {
    const after = judgeAsRecorded(mcpChat, transformStreams(recorded.events, transform));
    expectOnlyTarget(recorded.checks, after, P + target, knocked.map((id) => P + id));
  });

  it.each(LEGAL)("%s changes no verdict", (_name, transform) => {
    const after = judgeAsRecorded(mcpChat, transformStreams(recorded.events, transform));
    const changed = after.filter((c) => !sameVerdict(recorded.checks.find((b) => b.id === c.id)!, c));
    expect(changed, explain(changed)).toEqual([]);
  });
});
