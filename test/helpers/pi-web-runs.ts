/** Runs of the pi-web suite against its mock, as the fault and profile proofs make them. */
import type { CheckResult, RunResult } from "../../src/core/verdicts/result.js";
import { piWeb } from "../../src/suites/pi-web/index.js";
import { runReplayed, serverSide } from "./run-results.js";

/** A token (so conn/token-401 is tested) and a 10 s cap on every wait; the mock keeps the self-test pace. */
export const FAULT_RUN = { timeout: 10_000, token: "s3cret" } as const;

interface Tuning {
  params?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  timeout?: number;
}

/**
 * Faults whose proof waits out a limit: for their run only, the limit they break is lowered (and
 * the mock's delay with it), so it is crossed in a fraction of the contract's seconds. The check
 * judges the same way; only checks the fault already fails read the lowered limit. (One entry
 * instead slows the mock, to keep a race out of the proof.)
 */
export const QUICK_PROOF: Record<string, Tuning> = {
  // Every query is held: 80 ms over a 30 ms limit instead of 3 s over 2 s, for ~30 queries in a row.
  "slow-queries": { params: { queryLatencyMs: 30 }, settings: { slowQueryDelay: 80 } },
  // Each abort is followed by a wait for an agent_end that never comes.
  "no-agent-end-after-abort": { params: { abortEndMs: 300 } },
  // Accepted prompts that start nothing: each waits for an agent_start.
  "prompt-no-run": { params: { firstEventMs: 300 } },
  // Commands never answered: each waits out the request timeout. Not lower: the cap bounds every
  // wait of the run, and on a loaded machine a queue run can outlast 1 s (its next prompt then
  // meets a busy agent and fails cmd/prompt-accepted besides the fault's own check).
  "drop-response": { timeout: 2_000 },
  "missing-type-silent": { timeout: 2_000 },
  // Not a limit but a race: the fault injects a queued follow-up at the next turn, so the probes'
  // abort must land before the running tool ends, or the queue it keeps is already empty and
  // queue/abort-keeps-queue fails too. Slower tools give a loaded machine room for that.
  "follow-up-as-steer": { settings: { toolDelay: 200 } },
};

/** The server checks after a run against the mock with `faults` (and the kit/mock profiles). */
export async function runAgainstMock(o: MockRun = {}): Promise<CheckResult[]> {
  return serverSide(await runMock(o));
}

export interface MockRun {
  faults?: string[];
  profile?: string;
  mockProfile?: string;
  /** Further mock settings (e.g. seedSessions: false). */
  settings?: Record<string, unknown>;
  /** Suite parameters over the defaults (e.g. other prompts). */
  params?: Record<string, unknown>;
  strict?: boolean;
}

/** The whole result of a run against the mock (exit code included), limits lowered as QUICK_PROOF says. */
export async function runMock(o: MockRun = {}): Promise<RunResult> {
  const faults = o.faults ?? [];
  const tuning = faults.map((f) => QUICK_PROOF[f] ?? {});
  return runReplayed(piWeb, {
    timeout: Math.min(FAULT_RUN.timeout, ...tuning.map((t) => t.timeout ?? FAULT_RUN.timeout)),
    token: FAULT_RUN.token,
    ...(o.profile ? { profile: o.profile } : {}),
    params: Object.assign({}, ...tuning.map((t) => t.params), o.params),
    ...(o.strict ? { strict: true } : {}),
    mock: {
      faults,
      settings: {
        token: FAULT_RUN.token,
        ...(o.mockProfile ? { profile: o.mockProfile } : {}),
        ...Object.assign({}, ...tuning.map((t) => t.settings)),
        ...o.settings,
      },
    },
  }, piWeb.faults.filter((f) => faults.includes(f.name)).flatMap((f) => f.violates));
}
