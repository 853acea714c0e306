/** Runs of the pi-web suite against its mock, as the fault and profile proofs make them. */
import type { CheckResult, RunResult } from "../../src/core/result.js";
import { runSuite } from "../../src/core/runner.js";
import { piWeb } from "../../src/suites/pi-web/index.js";
import { serverSide } from "./run-results.js";

/** Fast chunks, a token (so conn/token-401 is tested) and a 10 s cap on every wait. */
export const FAULT_RUN = { chunkDelayMs: 5, timeout: 10_000, token: "s3cret" } as const;

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

/** The whole result of a run against the mock (exit code included). */
export async function runMock(o: MockRun = {}): Promise<RunResult> {
  return runSuite(piWeb, {
    timeout: FAULT_RUN.timeout,
    token: FAULT_RUN.token,
    ...(o.profile ? { profile: o.profile } : {}),
    ...(o.params ? { params: o.params } : {}),
    ...(o.strict ? { strict: true } : {}),
    mock: {
      faults: o.faults ?? [],
      chunkDelayMs: FAULT_RUN.chunkDelayMs,
      settings: { token: FAULT_RUN.token, ...(o.mockProfile ? { profile: o.mockProfile } : {}), ...o.settings },
    },
  });
}

/** Runs `jobs` with at most `n` at a time. */
export async function pool<T>(jobs: (() => Promise<T>)[], n: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}
