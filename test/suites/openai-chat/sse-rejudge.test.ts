/**
 * A framing or encoding deviation fails its framing rule and nothing that depends on the meaning
 * of events: a good recorded run is re-judged with its stream bytes transformed, and only the
 * rules that object to those bytes change their verdict.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { explain } from "../../helpers/run-results.js";
import { both, bytePerRead, changed, judgeAsRecorded, lineEndings, prependBom, recordRun, splitCrlf, transformStreams, type Recorded, type StreamTransform } from "../../helpers/rejudge.js";

let recorded: Recorded;

beforeAll(async () => {
  recorded = await recordRun(openaiChat);
}, 60_000);

const P = "openai-chat/";

describe("openai-chat: stream bytes re-judged", () => {
  it("the recorded run passes, and re-judging its untouched bytes gives the same verdicts", () => {
    expect(recorded.checks.filter((c) => c.outcome === "fail")).toEqual([]);
    const again = judgeAsRecorded(openaiChat, transformStreams(recorded.events, (c) => c));
    expect(changed(recorded.checks, again)).toEqual({});
  });

  const cases: [string, StreamTransform, string[]][] = [
    ["a UTF-8 BOM before the first byte", prependBom, [P + "sse/utf8"]],
    ["CR-only line endings", lineEndings("\r"), [P + "sse/canonical-framing"]],
    ["CRLF line endings", lineEndings("\r\n"), [P + "sse/canonical-framing"]],
    ["CRLF cut across chunks", splitCrlf, [P + "sse/canonical-framing"]],
    ["a BOM and CR-only endings", both(prependBom, lineEndings("\r")), [P + "sse/canonical-framing", P + "sse/utf8"]],
    // Every CR ends a read: each event is dispatched at its CR, with its read's time.
    ["CR-only endings, one byte per read", both(lineEndings("\r"), bytePerRead), [P + "sse/canonical-framing"]],
  ];
  it.each(cases)("%s fails only its framing rule(s)", (_name, transform, rules) => {
    const after = judgeAsRecorded(openaiChat, transformStreams(recorded.events, transform));
    const diff = changed(recorded.checks, after);
    const why = explain(after, (c) => c.id in diff);
    expect(Object.keys(diff).sort(), why).toEqual([...rules].sort());
    for (const id of rules) expect(after.find((c) => c.id === id)!.outcome, why).toBe("fail");
    expect(after.length).toBe(recorded.checks.length);
  });
});
