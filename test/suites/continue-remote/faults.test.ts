/**
 * Proof that every server check can fail: for each fault of the mock, run through the suite against
 * the mock, the checks whose outcome is "fail" are exactly the ones the fault names. A fault of one
 * profile runs in that profile, the others in both. Runs go a few at a time in beforeAll, then each
 * gets its assertion.
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

/**
 * Suite parameters for the runs of faults that hold a turn past the self-test's turn timeout: the
 * wait is lengthened so that only the rule the fault breaks fails, not the turn's timeout.
 */
const TUNING: Record<string, Record<string, unknown>> = {};

type Profile = "seed" | "cn-session";

interface Run {
  key: string;
  fault: ContinueRemoteFault;
  profile: Profile;
}

/** Each fault whose checks the suite has, and that is not kept out, in each profile it applies to. */
const RUNS: Run[] = FAULTS.filter((f) => !(f.name in NOT_PROVED) && f.violates.every((id) => SUITE_IDS.has(id))).flatMap((fault) =>
  (fault.profile ? [fault.profile] : (["seed", "cn-session"] as const)).map((profile) => ({ key: `${fault.name} (${profile})`, fault, profile })),
);

const results = new Map<string, CheckResult[]>();

function run({ fault, profile }: Run): Promise<CheckResult[]> {
  return runSuite(continueRemote, {
    ...(profile === "cn-session" ? { profile } : {}),
    ...(TUNING[fault.name] ? { params: TUNING[fault.name] } : {}),
    mock: { faults: [fault.name] },
  }).then(serverSide);
}

beforeAll(async () => {
  await pool(
    RUNS.map((r) => async () => results.set(r.key, await run(r))),
    8,
  );
}, 300_000);

describe("continue-remote faults trip exactly their checks", () => {
  it.each(RUNS.map((r) => [r.key, r.fault.violates] as const))("%s", (key, violates) => {
    const checks = results.get(key)!;
    const wanted = [...violates].sort();
    expect(failedIds(checks), `fault ${key}:\n${explain(checks, (c) => c.outcome === "fail" || wanted.includes(c.id))}`).toEqual(wanted);
  });

  it("lists every fault in the ProtocolDef", () => {
    expect(continueRemote.faults).toEqual(CONTINUE_REMOTE_FAULTS);
  });

  it("keeps out and tunes only faults that exist", () => {
    const names = [...Object.keys(NOT_PROVED), ...Object.keys(TUNING)];
    expect(names.filter((name) => !FAULTS.some((f) => f.name === name))).toEqual([]);
  });
});
