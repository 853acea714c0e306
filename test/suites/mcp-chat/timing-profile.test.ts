/**
 * timing/profile has no fault (it only reports): its numbers are checked on a synthetic
 * transcript with known times, and the timing rule it sits next to on the same fixture.
 */
import { describe, expect, it } from "vitest";
import { KIT_STALL_NOTE } from "../../../src/core/checks/kit-stalls.js";
import type { TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { TIMING_CHECKS } from "../../../src/suites/mcp-chat/checks/timing.js";
import { byId } from "../../helpers/run-results.js";
import { chatStreamExchange, dataEvent as e } from "../../helpers/mcp-chat-transcript.js";
import { judge } from "../../helpers/synthetic-transcript.js";

/** Request at 100 ms, head at 112, events at 162, 362, 372, 382 (sizes 80, 51, 45+14 bytes), end at 390. */
const fixture = chatStreamExchange({
  label: "chat-stream",
  requestAt: 100,
  headAt: 112,
  chunks: [
    { t: 162, text: e({ type: "tool_start", id: "tc-1", name: "get_weather", args: { city: "Paris" } }) },
    { t: 362, text: e({ type: "tool_end", id: "tc-1", name: "get_weather" }) },
    { t: 372, text: e({ type: "text", content: "Sunny." }) },
    { t: 382, text: "data: [DONE]\n\n" },
  ],
  endAt: 390,
});

describe("timing/profile on a fixture transcript", () => {
  it("reports time to headers and first event, the largest gap, chunk sizes and total time", () => {
    const r = byId(judge(TIMING_CHECKS, fixture), "mcp-chat/timing/profile");
    expect(r.verdict).toBe("info");
    expect(r.outcome).toBe("info");
    const sizes = fixture.filter((x) => x.kind === "body-chunk").map((x) => (x.kind === "body-chunk" ? x.bytes.length : 0));
    expect(r.message).toBe(
      `chat-stream: headers after 12 ms, first event after 62 ms, 4 event(s), largest gap between events 200 ms, ` +
        `4 chunk(s) of ${Math.min(...sizes)}–${Math.max(...sizes)} bytes (mean ${Math.round(sizes.reduce((a, b) => a + b) / 4)}), body ended (eof) after 290 ms`,
    );
  });

  it("is not exercised without a stream", () => {
    const r = byId(judge(TIMING_CHECKS, []), "mcp-chat/timing/profile");
    expect(r.verdict).toBe("incomplete");
  });

  it("passes timing/streams-incrementally on the fixture and fails it when the same events arrive at once", () => {
    expect(byId(judge(TIMING_CHECKS, fixture), "mcp-chat/timing/streams-incrementally").verdict).toBe("pass");
    const buffered = chatStreamExchange({
      label: "chat-stream",
      requestAt: 100,
      headAt: 112,
      chunks: [{ t: 380, text: fixture.flatMap((x) => (x.kind === "body-chunk" ? [new TextDecoder().decode(x.bytes)] : [])).join("") }],
      endAt: 390,
    });
    const r = byId(judge(TIMING_CHECKS, buffered), "mcp-chat/timing/streams-incrementally");
    expect(r.verdict).toBe("fail");
    expect(r.message).toMatch(/only 0 ms before/);

    // The same reads, while the kit itself was held up: the events may have waited in its socket.
    const stall = (from: number, to: number): TranscriptEvent => ({ kind: "note", probe: "kit", name: KIT_STALL_NOTE, value: { from, to }, seq: 999, t: to });
    const heldUp = byId(judge(TIMING_CHECKS, [...buffered, stall(150, 370)]), "mcp-chat/timing/streams-incrementally");
    expect(heldUp.verdict, heldUp.message).toBe("incomplete");
    expect(heldUp.message).toMatch(/held up 220 ms right before/);
    // A hold-up too short to explain the missing gap, or outside the stream, changes nothing.
    for (const other of [stall(300, 310), stall(1000, 2000)]) expect(byId(judge(TIMING_CHECKS, [...buffered, other]), "mcp-chat/timing/streams-incrementally").verdict).toBe("fail");
  });
});
