/** checkMaker's knockOnNote: a check starved by another rule's failure names it instead of ending incomplete. */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, Tally, tap } from "../../src/core/checks/check.js";
import { checkMaker } from "../../src/core/checks/define-check.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import { TranscriptBus, type TranscriptEvent } from "../../src/core/transcript/transcript.js";

const records = (side: "server" | "client", id: string) => ({ id, side, level: "MUST" as const, title: id, rule: id, ref: { section: "§1", quote: "q" }, probes: [] });
const check = checkMaker({ seed: "s.txt", side: "server", knockOnNote: "reset", records });
const make = (id: string, judges: boolean) =>
  check({
    id,
    create() {
      const t = new Tally();
      return { observe: tap(["note"], () => (judges ? t.ok() : undefined)), finish: () => t.outcome("held", "nothing seen") };
    },
  });

function run(withNote: boolean) {
  const events: TranscriptEvent[] = [];
  const bus = new TranscriptBus();
  bus.subscribe((e) => events.push(e));
  if (withNote) bus.emit({ kind: "note", probe: "p", name: "reset", value: { check: "x/reset", where: "chat" } });
  const evaluation = new Evaluation([make("x/starved", false), make("x/reset", false), make("x/judged", true)], { protocol: "x", profile: DEFAULT_PROFILE, params: {}, validate: () => ({ ok: true }) as never });
  for (const e of events) evaluation.observe(e);
  return Object.fromEntries(evaluation.finish().map((r) => [r.id, [r.outcome, r.message]]));
}

describe("knockOnNote", () => {
  it("turns a check that judged nothing into the named knock-on; the named rule itself is left alone", () => {
    const r = run(true);
    expect(r["x/starved"], JSON.stringify(r)).toEqual(["skip", "not judged: x/reset failed on chat"]);
    expect(r["x/reset"]![0]).toBe("incomplete");
    // A check that judged something keeps its own verdict.
    expect(r["x/judged"]![0]).toBe("pass");
  });

  it("without the note, nothing seen stays incomplete", () => {
    expect(run(false)["x/starved"]![0]).toBe("incomplete");
  });
});
