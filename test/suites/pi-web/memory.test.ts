/**
 * Memory stays flat with stream length: 2·10^5 message_update events through every server check
 * cost about what 2·10^4 do (beyond the text itself, which two checks must keep to compare it).
 * The bench measures it at 10^6 events, through the recorder too (`npm run bench`: pi-web RSS).
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../helpers/pi-web-heap.ts", import.meta.url));

/** Measured in a process of its own: test files share their worker's heap, and another file's stragglers can pass for growth. */
function measure(): { growthMb: number; verdicts: Record<string, string> } {
  const out = execFileSync(process.execPath, ["--expose-gc", "--import", "tsx", SCRIPT, "20000", "200000"], { encoding: "utf8", timeout: 240_000 });
  return JSON.parse(out.trim().split("\n").at(-1)!) as { growthMb: number; verdicts: Record<string, string> };
}

describe("pi-web checks on 200 000 message_update events", () => {
  it("keep memory flat and still judge the stream", { timeout: 300_000 }, () => {
    // 180 000 more one-character deltas: the text itself is under 0.2 MB (end-values keeps it to
    // compare), and a full collection leaves a few hundred kB either way. Even 8 bytes per event
    // (one pointer kept per delta) would add over 1.4 MB.
    const { growthMb, verdicts } = measure();
    expect(growthMb).toBeLessThan(1);
    for (const id of ["pi-web/stream/block-grammar", "pi-web/stream/end-values", "pi-web/event/message-nesting", "pi-web/event/extras-consistent"]) {
      expect(verdicts[id], id).toBe("pass");
    }
  });
});
