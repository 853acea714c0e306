/**
 * A replay judges a long transcript in slices, with a turn of the event loop between them: runs
 * side by side in one process (the fault proofs run sixteen) must keep reading their sockets while
 * another run's transcript is re-judged, or their waits run out for want of the kit's attention.
 */
import { describe, expect, it } from "vitest";
import { REPLAY_SLICE, replayTranscript } from "../../src/core/run/runner.js";
import { eventToJsonLine } from "../../src/core/transcript/transcript.js";
import { piWeb } from "../../src/suites/pi-web/index.js";
import { longStream } from "../helpers/pi-web-synthetic.js";

describe("replayTranscript", () => {
  it("lets the event loop turn while it judges a long transcript", async () => {
    const lines = [...longStream(4 * REPLAY_SLICE)].map(eventToJsonLine);
    expect(lines.length).toBeGreaterThan(4 * REPLAY_SLICE);
    // Counts the loop's turns for as long as the replay takes (without slices: none, since the
    // replay would end before the first check phase).
    let turns = 0;
    let counting = true;
    const tick = () => {
      if (!counting) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const r = await replayTranscript(piWeb, lines.join("\n"), { file: "long.jsonl" });
    counting = false;
    expect(r.checks.find((c) => c.id === "pi-web/stream/end-values")?.outcome).toBe("pass");
    expect(turns).toBeGreaterThanOrEqual(Math.floor(lines.length / REPLAY_SLICE) - 1);
  });
});
