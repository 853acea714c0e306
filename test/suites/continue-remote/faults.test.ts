/**
 * Proof that every server check can fail: for each fault of the mock, run through the suite against
 * the mock (in the profile the fault belongs to), the checks whose outcome is "fail" are exactly
 * the ones the fault names. Faults run a few at a time in beforeAll, then each gets its assertion.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/result.js";
import { runSuite } from "../../../src/core/runner.js";
import { FAULTS, type ContinueRemoteFault } from "../../../src/mocks/continue-remote/faults.js";
import { CONTINUE_REMOTE_FAULTS } from "../../../src/mocks/continue-remote/index.js";
import { CONTINUE_REMOTE_SERVER_CHECKS, continueRemote } from "../../../src/suites/continue-remote/index.js";
import { explain, failedIds, pool, serverSide } from "../../helpers/run-results.js";

const SUITE_IDS = new Set(CONTINUE_REMOTE_SERVER_CHECKS.map((c) => c.id));

/**
 * Faults kept out of the proof, each with the reason. A fault whose checks are not in the suite yet
 * cannot be proved by it; the rest are faults that are right per the contract's §7 while the check
 * does not (yet) judge them as it says.
 */
const NOT_PROVED: Record<string, string> = {};

/** Faults whose checks the suite has, and that are not kept out. */
const PROVED = FAULTS.filter((f) => !(f.name in NOT_PROVED) && f.violates.every((id) => SUITE_IDS.has(id)));

const results = new Map<string, CheckResult[]>();

function run(f: ContinueRemoteFault): Promise<CheckResult[]> {
  return runSuite(continueRemote, {
    ...(f.profile === "cn-session" ? { profile: "cn-session" } : {}),
    mock: { faults: [f.name] },
  }).then(serverSide);
}

beforeAll(async () => {
  await pool(
    PROVED.map((f) => async () => results.set(f.name, await run(f))),
    8,
  );
}, 300_000);

describe("continue-remote faults trip exactly their checks", () => {
  it.each(PROVED.map((f) => [f.name, f.violates] as const))("%s", (name, violates) => {
    const checks = results.get(name)!;
    const wanted = [...violates].sort();
    expect(failedIds(checks), `fault ${name}:\n${explain(checks, (c) => c.outcome === "fail" || wanted.includes(c.id))}`).toEqual(wanted);
  });

  it("lists every fault in the ProtocolDef", () => {
    expect(continueRemote.faults).toEqual(CONTINUE_REMOTE_FAULTS);
  });

  it("keeps out only faults that exist", () => {
    expect(Object.keys(NOT_PROVED).filter((name) => !FAULTS.some((f) => f.name === name))).toEqual([]);
  });
});
