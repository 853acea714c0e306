/**
 * Tally.failLate: an answer read past a rule's limit fails, unless a hold-up of the kit itself right before the read
 * could explain the excess (the answer may have waited unread); then that instance is left unjudged.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, Tally, tap, type CheckDef } from "../../src/core/checks/check.js";
import { KIT_STALL_NOTE } from "../../src/core/checks/kit-stalls.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import { TranscriptBus, type NewEvent, type TranscriptEvent } from "../../src/core/transcript/transcript.js";

const LIMIT = 1_000;

/** Each `answer` note is an answer read at the event's time, `value` ms after its request. */
const latency: CheckDef = {
  id: "t/latency",
  level: "MUST",
  side: "server",
  title: "answers in time",
  rule: "answers within 1 s",
  ref: { seed: "s.txt", section: "§1", quote: "q" },
  probes: [],
  create() {
    const t = new Tally();
    return {
      observe: tap(["note"], (e) => {
        if (e.kind !== "note" || e.name !== "answer") return;
        const ms = e.value as number;
        if (ms <= LIMIT) t.ok();
        else t.failLate(e.t, ms - LIMIT, `an answer within ${LIMIT} ms`, `after ${ms} ms`);
      }),
      finish: () => t.outcome("every answer came in time", "no answer"),
    };
  },
};

function judge(list: { at: number; e: NewEvent }[]) {
  const events: TranscriptEvent[] = [];
  const bus = new TranscriptBus();
  bus.subscribe((e) => events.push(e));
  for (const { e } of list) bus.emit(e);
  list.forEach(({ at }, i) => Object.assign(events[i]!, { t: at }));
  const evaluation = new Evaluation([latency], { protocol: "t", profile: DEFAULT_PROFILE, params: {}, validate: () => ({ ok: true }) as never });
  for (const e of events) evaluation.observe(e);
  const [r] = evaluation.finish();
  return `${r!.outcome}: ${r!.message}`;
}

const answer = (at: number, ms: number) => ({ at, e: { kind: "note", probe: "p", name: "answer", value: ms } as NewEvent });
const stall = (at: number, from: number, to: number) => ({ at, e: { kind: "note", probe: "kit", name: KIT_STALL_NOTE, value: { from, to } } as NewEvent });

describe("Tally.failLate", () => {
  it("fails a late answer when the kit was not held up", () => {
    expect(judge([answer(2_000, 1_300)])).toBe("fail: after 1300 ms");
  });

  it("leaves an answer unjudged when a hold-up right before its read covers the excess, even one noted after it", () => {
    expect(judge([answer(2_000, 1_300), stall(2_010, 1_500, 1_995)])).toMatch(/^incomplete: not exercised: the kit itself was held up 495 ms right before it read an answer 300 ms too late/);
  });

  it("fails when the hold-up is shorter than the excess, or was not right before the read", () => {
    expect(judge([stall(1_900, 1_800, 1_900), answer(2_000, 1_300)])).toBe("fail: after 1300 ms");
    expect(judge([stall(1_500, 1_000, 1_500), answer(2_000, 1_300)])).toBe("fail: after 1300 ms");
  });

  it("still passes the answers in time, and an unjudged late one does not hide a failing one", () => {
    expect(judge([answer(500, 200), answer(2_000, 1_300), stall(2_010, 1_500, 1_995)])).toBe("pass: every answer came in time");
    expect(judge([answer(2_000, 1_300), stall(2_010, 1_500, 1_995), answer(5_000, 1_400)])).toBe("fail: after 1400 ms");
  });

  it("fails at once outside an evaluation, where no hold-ups are known", () => {
    const t = new Tally();
    t.failLate(2_000, 300, "in time", "late");
    expect(t.failures).toBe(1);
  });
});
