/**
 * Proof that every server check can fail: for each fault of the mock, run through the suite against
 * the mock, the checks whose outcome is "fail" are exactly the ones the fault names. A fault of one
 * profile runs in that profile, the others in both. Runs go a few at a time in beforeAll, then each
 * gets its assertion.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { FAULTS, type ContinueRemoteFault } from "../../../src/mocks/continue-remote/faults.js";
import { CONTINUE_REMOTE_FAULTS } from "../../../src/mocks/continue-remote/index.js";
import { CONTINUE_REMOTE_SERVER_CHECKS, continueRemote } from "../../../src/suites/continue-remote/index.js";
import { explain, failedIds, pool, runReplayed, serverSide } from "../../helpers/run-results.js";

const SUITE_IDS = new Set(CONTINUE_REMOTE_SERVER_CHECKS.map((c) => c.id));

/**
 * Runs kept out of the exact proof (by fault name, or "name (profile)" for one profile): the fault
 * is right per the contract's §7, but a check named here fails on it too where it should skip or
 * pass. These runs still have to trip their own checks (see the test below the proof).
 */
const NOT_PROVED: Record<string, string> = {};

interface Tuning {
  params?: Record<string, unknown>;
  settings?: Record<string, unknown>;
}

/**
 * Runs that need other conditions than the self-test's to show their fault, and only it: a
 * message that reaches the faulty code path, or a longer turn timeout (and a slower mock) for
 * faults that hold or slow every answer.
 */
const TUNING: Record<string, Tuning> = {
  // The self-test turns never fail a tool; this one does.
  "error-wrong-prefix": { params: { prompt: "#scenario:tool-error Read the missing file" } },
  // The default prompts are trimmed and NFC already: this one has spaces around it and an NFD é.
  "user-entry-trimmed": { params: { prompt: "  Read the README file, cafe\u0301 \n" } },
  // Each answer takes 5 s to settle and the permission phase answers two requests.
  "permission-sticky": { params: { turnTimeoutMs: 20_000 } },
  // The first turn never ends, so the run waits out the turn timeout once: 5 s is ample for a turn
  // at this pace on a loaded machine, and the verdicts do not depend on the wait's length.
  "processing-stuck": { params: { turnTimeoutMs: 5_000 } },
  // Polls 1.5 s apart: the turns are slowed down so that a poller still sees them go by.
  "slow-state": { params: { turnTimeoutMs: 30_000 }, settings: { speed: 30 } },
  // Every turn is over before the first poll, so timing/responsive takes any POST slower than
  // blockingMs for one that waited for its turn: on a loaded machine 50 ms is soon reached.
  "instant-turns": { params: { blockingMs: 1000 } },
  // A wrongly queued probe starts a turn while the probes are busy elsewhere: slower turns let the
  // poller see it go by, so timing/intermediate-visible has something to report.
  "accept-empty-message": { settings: { speed: 5 } },
  "accept-non-string": { settings: { speed: 5 } },
  "parse-any-content-type": { settings: { speed: 5 } },
};

type Profile = "seed" | "cn-session";

interface Run {
  key: string;
  fault: ContinueRemoteFault;
  profile: Profile;
}

/** Each fault, in each profile it applies to. */
const RUNS: Run[] = FAULTS.flatMap((fault) =>
  (fault.profile ? [fault.profile] : (["seed", "cn-session"] as const)).map((profile) => ({ key: `${fault.name} (${profile})`, fault, profile })),
);
const keptOut = (r: Run): string | undefined => NOT_PROVED[r.key] ?? NOT_PROVED[r.fault.name];
const PROOF = RUNS.filter((r) => !keptOut(r));

const results = new Map<string, CheckResult[]>();

/** The mock asks for a token, so security/no-auth (which the plain mock trips) is silent. */
const TOKEN = "s3cret";
/**
 * The mock's turns run at three times the self-test pace's length: on a loaded machine the poller
 * still sees each intermediate state (timing/intermediate-visible reports a turn it saw none of).
 * A run's time is its fixed waits; what slower turns cost is the polls that watch them (see POLL).
 */
const PACE = { speed: 3 };

/**
 * Polls 30 ms apart rather than the self-test's 10: the slowed turns still show every step to the
 * poller (every check's outcome is the same in every run), and each run sends, records and replays
 * far fewer snapshots, which are most of its CPU.
 */
const POLL = { pollIntervalMs: 30 };

/**
 * Runs of faults that are not about timing judge timing/responsive with room for a loaded machine
 * (ten runs go at once beside other test files): a slow answer there is the machine's, not the
 * fault's. The timing faults keep the contract's limits.
 */
const ROOMY_TIMING = { stateP95Ms: 2000, messageMaxMs: 3000, blockingMs: 1000 };

function run({ fault, profile }: Run): Promise<CheckResult[]> {
  const timing = fault.violates.includes("continue-remote/timing/responsive") ? {} : ROOMY_TIMING;
  return runReplayed(continueRemote, {
    ...(profile === "cn-session" ? { profile } : {}),
    params: { ...POLL, ...timing, ...TUNING[fault.name]?.params },
    token: TOKEN,
    mock: { faults: [fault.name], settings: { token: TOKEN, ...PACE, ...TUNING[fault.name]?.settings } },
  }, fault.violates).then(serverSide);
}

const slowFirst = (r: Run): number => (r.fault.name === "slow-state" ? 0 : 1);

beforeAll(async () => {
  await pool(
    // The slowest runs first (slow-state polls 1.5 s apart through slowed turns): the rest fit
    // beside them. The runs wait on timers, not the CPU, so ten go at once.
    [...RUNS].sort((a, b) => slowFirst(a) - slowFirst(b)).map((r) => async () => results.set(r.key, await run(r))),
    10,
  );
}, 300_000);

describe("continue-remote faults trip exactly their checks", () => {
  it.each(PROOF.map((r) => [r.key, r.fault.violates] as const))("%s", (key, violates) => {
    const checks = results.get(key)!;
    const wanted = [...violates].sort();
    expect(failedIds(checks), `fault ${key}:\n${explain(checks, (c) => c.outcome === "fail" || wanted.includes(c.id))}`).toEqual(wanted);
  });

  // Checks a fault keeps from judging name the rule that failed first, and do not fail the run
  // (§7's knock-ons are of this kind: never in `violates`).
  const stuck = /^not judged: continue-remote\/processing\/false-when-done failed on the turn phase$/;
  it.each<[string, Record<string, RegExp>]>([
    ["accept-empty-message (seed)", { "bad-input/server-survives": /^not judged: continue-remote\/bad-input\/missing-or-empty-message failed on bad-input:missing:\{"message":""\} \(200\)$/ }],
    ["accept-non-string (seed)", { "bad-input/server-survives": /^not judged: continue-remote\/bad-input\/non-string-message failed on bad-input:non-string:/ }],
    ["unknown-route-200 (seed)", { "bad-input/server-survives": /^not judged: continue-remote\/bad-input\/unknown-route failed on bad-input:route:/ }],
    ["permission-none-200 (seed)", { "bad-input/server-survives": /^not judged: continue-remote\/permission\/wrong-id failed on permission:idle \(200\)$/ }],
    [
      "processing-stuck (seed)",
      Object.fromEntries(["processing/turn-ends-with-assistant", "queue/position-while-processing", "permission/approve", "timing/intermediate-visible"].map((id) => [id, stuck])),
    ],
  ])("%s: the knock-on effects are named skips", (key, knocked) => {
    const checks = results.get(key)!;
    for (const [id, message] of Object.entries(knocked)) {
      const c = checks.find((x) => x.id === `continue-remote/${id}`)!;
      expect(`${c.verdict}: ${c.message}`, id).toMatch(new RegExp(`^skip: ${message.source.slice(1)}`));
    }
  });

  it.each(RUNS.filter(keptOut).map((r) => [r.key, r.fault.violates, keptOut(r)] as const))(
    "%s, kept out of the exact proof, still trips its own checks",
    (key, violates, _why) => {
      const checks = results.get(key)!;
      expect(failedIds(checks), `fault ${key}:\n${explain(checks, (c) => c.outcome === "fail")}`).toEqual(expect.arrayContaining([...violates]));
    },
  );

  it("slow-state (cn-session): a pause seen only through late answers is not timed, neither passed nor failed", () => {
    const pause = results.get("slow-state (cn-session)")!.find((c) => c.id === "continue-remote/pause/semantics")!;
    expect(pause.outcome).toBe("incomplete");
    expect(pause.message).toMatch(/GET \/state answered too slowly to time the 1000 ms stop/);
  });

  it("drop-queued-message: the queue count the lost message leaves short is message-not-lost's, not a second failure", () => {
    const queue = results.get("drop-queued-message (seed)")!.find((c) => c.id === "continue-remote/state/queue-length")!;
    expect(queue.outcome).not.toBe("fail");
  });

  it("names every server check in some fault, but the INFO report the plain mock trips", () => {
    const named = new Set(FAULTS.flatMap((f) => f.violates));
    expect([...SUITE_IDS].filter((id) => !named.has(id))).toEqual(["continue-remote/security/no-auth"]);
    expect(FAULTS.flatMap((f) => f.violates).filter((id) => !SUITE_IDS.has(id))).toEqual([]);
  });

  it("lists every fault in the ProtocolDef", () => {
    expect(continueRemote.faults).toEqual(CONTINUE_REMOTE_FAULTS);
  });

  it("keeps out and tunes only faults that exist", () => {
    const names = [...Object.keys(NOT_PROVED), ...Object.keys(TUNING)];
    expect(names.filter((name) => !RUNS.some((r) => r.fault.name === name || r.key === name))).toEqual([]);
  });
});
