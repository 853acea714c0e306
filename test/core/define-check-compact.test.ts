/** checkMaker's compact form: `make(id, options?, (t, ctx) => observer)`, the maker making the Tally. */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, endThen, Tally, tap, type CheckDef, type Violation } from "../../src/core/checks/check.js";
import { checkMaker } from "../../src/core/checks/define-check.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import type { TranscriptEvent } from "../../src/core/transcript/transcript.js";

const records = (side: "server" | "client", id: string) => ({ id, side, level: "MUST" as const, title: `title of ${id}`, rule: id, ref: { section: "§1", quote: "q" }, probes: ["p"] });
const check = checkMaker({ seed: "s.txt", side: "server", notApplicableNote: "absent", records });

/** Fails on every note named "bad", holds on the others; `limit` comes from the run's parameters. */
const compact = check("x/notes", (t, ctx) => ({
  observe: tap(["note"], (e) => {
    const n = e as Extract<TranscriptEvent, { kind: "note" }>;
    if (t.count >= (ctx.params.limit as number)) return;
    if (n.name === "bad") t.fail("no bad note", "a bad note");
    else t.ok();
  }),
  finish: () => t.outcome(`${t.count} note(s) held`, "no note"),
}));

const note = (name: string, value: unknown = null): TranscriptEvent => ({ kind: "note", probe: "p", name, value, seq: 0, t: 0 }) as TranscriptEvent;

function run(checks: CheckDef[], events: TranscriptEvent[], params: Record<string, unknown> = { limit: 10 }) {
  const live: string[] = [];
  const evaluation = new Evaluation(checks, { protocol: "x", profile: DEFAULT_PROFILE, params, validate: () => ({ ok: true }) as never }, undefined, (c, _level, v: Violation) => live.push(`${c.id}: ${v.actual}`));
  for (const e of events) evaluation.observe(e);
  return { results: Object.fromEntries(evaluation.finish().map((r) => [r.id, [r.outcome, r.message]])), live };
}

describe("compact checks", () => {
  it("joins the record by id, as the { id, create } form does", () => {
    const long = check({ id: "x/long", create: () => ({ observe: tap(["note"], () => {}), finish: () => new Tally().outcome("", "") }) });
    expect({ ...compact, create: undefined }).toEqual({ ...long, id: "x/notes", title: "title of x/notes", rule: "x/notes", create: undefined });
  });

  it("gives each evaluation a Tally of its own and the run's context", () => {
    expect(run([compact], [note("ok"), note("ok")]).results["x/notes"]).toEqual(["pass", "2 note(s) held"]);
    // A fresh Tally: the count above does not carry over; the parameters reach the judge.
    expect(run([compact], [note("ok"), note("ok"), note("ok")], { limit: 1 }).results["x/notes"]).toEqual(["pass", "1 note(s) held"]);
    expect(run([compact], []).results["x/notes"]![0]).toBe("incomplete");
  });

  it("makes the Tally while the evaluation creates the check, so a violation is told live", () => {
    const { results, live } = run([compact], [note("bad")]);
    expect(results["x/notes"]![0]).toBe("fail");
    expect(live).toEqual(["x/notes: a bad note"]);
  });

  it("takes options between the id and the judge", () => {
    const optional = check("x/optional", { notApplicableWhen: ["dialogs"] }, (t) => ({ observe: tap(["note"], () => {}), finish: () => t.outcome("held", "nothing seen") }));
    expect(run([optional], [note("absent", { topic: "dialogs", reason: "no dialogs offered" })]).results["x/optional"]).toEqual(["skip", "not applicable: no dialogs offered"]);
    expect(run([optional], [note("absent", { topic: "other", reason: "r" })]).results["x/optional"]![0]).toBe("incomplete");
  });
});

describe("endThen", () => {
  it("ends the hooks before the outcome is taken, so what the end reports counts", () => {
    const t = new Tally();
    const observe = tap(["note"], () => t.ok());
    const o = endThen({ observe, end: () => t.fail("an answer", "a request left unanswered") }, () => t.outcome("held", "nothing seen"));
    expect(o.observe).toBe(observe);
    expect(o.finish().verdict).toBe("fail");
  });
});
