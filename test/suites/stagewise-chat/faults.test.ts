/**
 * Proof that the server checks can fail: for each fault of the reference mock, the checks whose outcome is "fail"
 * are the ones the fault names (§7), corrected by two tables of known differences on the checks' side. The mock
 * keeps the self-test pace; waits are capped at 10 s, and shorter for the faults that would wait them out; the runs
 * go ten at a time.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { STAGEWISE_FAULTS } from "../../../src/mocks/stagewise-chat/index.js";
import { stagewiseChat } from "../../../src/suites/stagewise-chat/index.js";
import { explain, failedIds, pool, runReplayed, serverSide } from "../../helpers/run-results.js";

const P = "stagewise-chat/";

/** Faults not run here (none at present). */
const LEFT_OUT: Record<string, string> = {};

/**
 * Parameters of a fault's run. The PING after 35 s of silence is proved against the mock's quick keep-alive (1 s):
 * the probes wait 3 s for it instead, and the check judges by the limit they waited for.
 *
 * Faults that withhold what the probes wait for would wait out the kit's limits again and again; the checks judge
 * what arrived, not how long the kit waited, and the mock at the self-test pace answers within milliseconds. So a
 * behaviour that never comes is awaited 3 s (not the 10 s cap), a missing snapshot 1 s (not 2 s).
 */
const SHORT_BEHAVIOUR_WAIT = { behaviourMs: 3_000 };
const PARAMS: Record<string, Record<string, unknown>> = {
  "no-ping": { slow: true, pingAfterMs: 3_000 },
  // Every resubscription is awaited in vain (a snapshot ends with its agent-state), and the turns' snapshots with them.
  "snapshot-first-subscribe-only": { ...SHORT_BEHAVIOUR_WAIT, updateWaitMs: 1_000 },
  // No snapshot ever ends: each is awaited in full.
  "snapshot-replays-last-update": { updateWaitMs: 1_000 },
  // The turn never shows isWorking, so the turn and tool phases wait for it to start.
  "no-working-state": SHORT_BEHAVIOUR_WAIT,
  // The chat switched to never arrives in full, so the phases after the switch wait for it.
  "switch-without-full-sync": SHORT_BEHAVIOUR_WAIT,
};

/**
 * Checks of a fault's list that do not fail although the mock shows the deviation (reported to the suite; an entry
 * here makes the test fail once the check catches it, so it gets removed).
 */
const NOT_CAUGHT: Record<string, string[]> = {};

/**
 * Checks a fault trips besides its own: the check judges what the fault's own check already failed on instead of
 * knocking on to it, or the probes build on the broken behaviour (reported to the suite; remove an entry once the
 * check knocks on).
 */
const KNOCK_ONS: Record<string, string[]> = {};

/** An INFO report, "fail" on every run: the mock, like tRPC's adapter and the real agents, accepts any Origin (§7: no fault). */
const ALWAYS_REPORTED = [`${P}security/ws-foreign-origin`];

const expected = (name: string, violates: readonly string[]) =>
  [...violates.filter((id) => !(NOT_CAUGHT[name] ?? []).map((s) => P + s).includes(id)), ...(KNOCK_ONS[name] ?? []).map((s) => P + s)].sort();

const results = new Map<string, CheckResult[]>();
const RUN = STAGEWISE_FAULTS.filter((f) => !Object.hasOwn(LEFT_OUT, f.name));

/** Runs that wait out their limits more than once (6–12 s each against ~3 s for most): they start first, the rest fit beside them. */
const SLOW_RUNS = ["snapshot-first-subscribe-only", "no-working-state", "switch-without-full-sync", "snapshot-replays-last-update"];
const slowFirst = (name: string) => (SLOW_RUNS.includes(name) ? 0 : 1);

/** The mock that pings, judged with the shortened PING wait: run beside the faults. */
const PINGING = "(no fault, short PING wait)";

beforeAll(async () => {
  const faults = [...RUN].sort((a, b) => slowFirst(a.name) - slowFirst(b.name)).map((f) => [f.name, PARAMS[f.name], [f.name]] as const);
  // The runs mostly wait, but not more at once: a turn at the self-test pace is short, and the probes that must act
  // while it runs (chat/reject-while-working's gated calls) fall behind it on a crowded machine.
  await pool(
    [...faults, [PINGING, PARAMS["no-ping"], []] as const].map(([key, params, names]) => async () =>
      results.set(key, serverSide(await runReplayed(stagewiseChat, { timeout: 10_000, params, mock: { faults: [...names] } }, stagewiseChat.faults.filter((f) => (names as readonly string[]).includes(f.name)).flatMap((f) => f.violates)))),
    ),
    10,
  );
}, 900_000);

describe("stagewise-chat faults trip their checks", () => {
  it.each(RUN.map((f) => [f.name, f.violates] as const))("%s", (name, violates) => {
    const checks = results.get(name)!;
    const wanted = expected(name, violates);
    expect(
      failedIds(checks).filter((id) => !ALWAYS_REPORTED.includes(id)),
      `fault ${name}:\n${explain(checks, (c) => c.outcome === "fail" || wanted.includes(c.id))}`,
    ).toEqual(wanted);
  });

  it("the shortened PING wait passes the mock that pings", () => {
    const ping = results.get(PINGING)!.find((c) => c.id === `${P}trpc/keepalive-ping`)!;
    expect(ping.verdict, explain([ping])).toBe("pass");
  });

  it("lists differences only for faults that exist", () => {
    const names = new Set(STAGEWISE_FAULTS.map((f) => f.name));
    expect([...Object.keys(LEFT_OUT), ...Object.keys(PARAMS), ...Object.keys(NOT_CAUGHT), ...Object.keys(KNOCK_ONS), ...SLOW_RUNS].filter((n) => !names.has(n))).toEqual([]);
  });
});
