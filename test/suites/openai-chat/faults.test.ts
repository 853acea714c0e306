/**
 * Proof that every openai-chat server check can fail: for each fault of the mock, the checks whose
 * outcome is "fail" are exactly the ones the fault names (an INFO check counts by its outcome).
 * The faults run twelve at a time in beforeAll (the one that holds streams open first), each on
 * its own mock at the self-test pace; each then gets its own assertion.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { OPENAI_CHAT_FAULTS } from "../../../src/mocks/openai-chat/index.js";
import { OPENAI_CHAT_SERVER_CHECKS } from "../../../src/suites/openai-chat/checks/index.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { explain, failedIds, pool, runReplayed, serverSide } from "../../helpers/run-results.js";

const results = new Map<string, CheckResult[]>();
/** Waits out the close timeout on every stream: started first so it overlaps the rest. */
const SLOW = ["hold-open-after-done"];

beforeAll(async () => {
  const order = [...OPENAI_CHAT_FAULTS].sort((a, b) => Number(SLOW.includes(b.name)) - Number(SLOW.includes(a.name)));
  await pool(
    order.map((f) => async () => results.set(f.name, serverSide(await runReplayed(openaiChat, { mock: { faults: [f.name] } }, f.violates)))),
    12,
  );
}, 120_000);

describe("openai-chat faults trip exactly their checks", () => {
  it.each(OPENAI_CHAT_FAULTS.map((f) => [f.name, f.violates] as const))("%s", (name, violates) => {
    const checks = results.get(name)!;
    const wanted = [...violates].sort();
    expect(failedIds(checks), `fault ${name}:\n${explain(checks, (c) => c.outcome === "fail" || wanted.includes(c.id))}`).toEqual(wanted);
  });

  it("names only server checks that exist", () => {
    const ids = new Set(OPENAI_CHAT_SERVER_CHECKS.map((c) => c.id));
    const unknown = OPENAI_CHAT_FAULTS.flatMap((f) => f.violates).filter((id) => !ids.has(id));
    expect(unknown).toEqual([]);
  });

  it("names knock-on effects instead of leaving them incomplete", () => {
    const knock = (fault: string, id: string) => results.get(fault)!.find((c) => c.id === `openai-chat/${id}`)!;
    expect(knock("reject-null-assistant-content", "turn/follow-up-final-answer").message).toBe("not judged: openai-chat/turn/follow-up-accepted failed on follow-up-sync");
    expect(knock("usage-chunk-missing", "usage/only-final-chunk").outcome).not.toBe("incomplete");
    expect(knock("tool-id-changes", "tool-call/identity-once").outcome).toBe("pass");
    expect(knock("stream-reset", "done/present").message).toMatch(/^not judged: openai-chat\/request\/not-reset failed on /);
  });

  it("leaves no server check without a fault to prove it, except the report-only stream/profile", () => {
    const proved = new Set(OPENAI_CHAT_FAULTS.flatMap((f) => f.violates));
    const unproved = OPENAI_CHAT_SERVER_CHECKS.map((c) => c.id).filter((id) => !proved.has(id));
    expect(unproved).toEqual(["openai-chat/stream/profile"]);
  });
});
