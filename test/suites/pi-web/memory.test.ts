/**
 * Memory stays flat with stream length: 2·10^5 message_update events through every server check
 * cost about what 2·10^4 do (beyond the text itself, which two checks must keep to compare it).
 * The bench measures it at 10^6 events, through the recorder too (`npm run bench`: pi-web RSS).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { PI_WEB_SERVER_CHECKS } from "../../../src/suites/pi-web/checks/index.js";
import { longStream } from "../../helpers/pi-web-synthetic.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

function heapAfter(n: number, delta: string): { heap: number; verdicts: Map<string, string> } {
  const ev = new Evaluation(PI_WEB_SERVER_CHECKS, {
    protocol: "pi-web",
    profile: DEFAULT_PROFILE,
    params: {},
    validate: (m, v) => registry.validate("pi-web", m, v),
  });
  let heap = 0;
  let i = 0;
  for (const e of longStream(n, delta)) {
    ev.observe(e);
    // Measured in the middle of the text block, where every check holds its most state.
    if (++i === n) {
      gc();
      heap = process.memoryUsage().heapUsed;
    }
  }
  const verdicts = new Map(ev.finish().map((c) => [c.id, c.verdict]));
  return { heap, verdicts };
}

describe("pi-web checks on 200 000 message_update events", () => {
  it("keep memory flat and still judge the stream", { timeout: 300_000 }, () => {
    // 180 000 more one-character deltas: the text itself is under 0.2 MB (end-values keeps it to
    // compare), and a full collection leaves a few hundred kB either way. Even 8 bytes per event
    // (one pointer kept per delta) would add over 1.4 MB.
    let large: ReturnType<typeof heapAfter> | undefined;
    const growth = (): number => {
      const small = heapAfter(20_000, "a");
      large = heapAfter(200_000, "a");
      return (large.heap - small.heap) / 1e6;
    };
    // Test files share their worker's heap: what another file's stragglers keep during one pair of
    // runs can pass for growth once. A leak grows in every pair, so a second pair decides.
    let mb = growth();
    if (mb >= 1) mb = Math.min(mb, growth());
    expect(mb).toBeLessThan(1);
    for (const id of ["pi-web/stream/block-grammar", "pi-web/stream/end-values", "pi-web/event/message-nesting", "pi-web/event/extras-consistent"]) {
      expect(large!.verdicts.get(id), id).toBe("pass");
    }
  });
});
