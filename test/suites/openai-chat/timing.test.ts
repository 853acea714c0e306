/**
 * timing/streams-incrementally on synthetic reads: text spread over the answer passes, text read
 * all at once fails, unless the kit was held up itself while it read (the writes may have waited
 * unread in its socket), which leaves the stream unjudged.
 */
import { describe, expect, it } from "vitest";
import { KIT_STALL_NOTE } from "../../../src/core/checks/kit-stalls.js";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { TIMING_CHECKS } from "../../../src/suites/openai-chat/checks/timing.js";
import { L } from "../../../src/suites/openai-chat/labels.js";
import { byId } from "../../helpers/run-results.js";
import { chatStreamExchange, chunkEvent } from "../../helpers/openai-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";

const ID = "openai-chat/timing/streams-incrementally";
const body = { model: "m", stream: true, messages: [{ role: "user", content: "hi" }] };
const texts = [chunkEvent({ role: "assistant", content: "" }), chunkEvent({ content: "Hel" }), chunkEvent({ content: "lo" }), chunkEvent({}, "stop"), "data: [DONE]\n\n"];

/** The answer's writes at the given read times (one read each), or all in one read at the last. */
function stream(times: number[], oneRead = false): TranscriptEvent[] {
  const writes = oneRead ? [{ t: times.at(-1)!, text: texts.join("") }] : texts.map((text, i) => ({ t: times[i]!, text }));
  return chatStreamExchange({ label: L.textStream, requestAt: 0, headAt: 10, writes, endAt: times.at(-1)! + 5, body });
}
const stall = (from: number, to: number): TranscriptEvent => ({ kind: "note", probe: "kit", name: KIT_STALL_NOTE, value: { from, to }, seq: 999, t: to });

describe("openai-chat/timing/streams-incrementally", () => {
  it("passes text spread over the answer and fails text read all at once", () => {
    expect(byId(judge(TIMING_CHECKS, stream([20, 60, 200, 290, 300])), ID).verdict).toBe("pass");
    expect(byId(judge(TIMING_CHECKS, stream([300, 300, 300, 300, 300], true)), ID).verdict).toBe("fail");
  });

  it("leaves a stream read at once unjudged when the kit was held up long enough to explain it", () => {
    const held = byId(judge(TIMING_CHECKS, [...stream([300, 300, 300, 300, 300], true), stall(20, 290)]), ID);
    expect(held.verdict, held.message).toBe("incomplete");
    expect(held.message).toMatch(/held up 270 ms right before/);
    expect(byId(judge(TIMING_CHECKS, [...stream([300, 300, 300, 300, 300], true), stall(250, 290)]), ID).verdict).toBe("fail");
  });
});
