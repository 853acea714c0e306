/**
 * The signals that stop a command and leave it to report: Ctrl-C (SIGINT) and SIGTERM (a CI job's time limit, a
 * process manager). Every command that runs until stopped, or that a stop cuts short, takes them from here, so they
 * are named alike and their handlers go when the command is done (a run inside another process leaves none behind).
 */
import type { RunResult } from "../core/verdicts/result.js";

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** How reports and messages name the signal that stopped a command. */
export function signalName(signal: NodeJS.Signals): string {
  return signal === "SIGINT" ? "Ctrl-C" : signal;
}

/**
 * Calls `stop` with the name of the first SIGINT or SIGTERM. The handlers go then: a second signal ends the process
 * as it would without them (a second Ctrl-C while a report is being written is not ignored). Returns the function
 * that removes them before any signal came.
 */
export function onStopSignal(stop: (by: string) => void): () => void {
  const off = () => {
    for (const s of STOP_SIGNALS) process.off(s, handler);
  };
  const handler = (signal: NodeJS.Signals) => {
    off();
    stop(signalName(signal));
  };
  for (const s of STOP_SIGNALS) process.on(s, handler);
  return off;
}

/**
 * Runs `run` with a signal that a stop signal aborts, with the signal's name as its reason (the run notes who stopped
 * it); `stoppedBy` names the stop when one came.
 */
export async function interruptible<T>(run: (signal: AbortSignal) => Promise<T>): Promise<{ value: T; stoppedBy?: string }> {
  const abort = new AbortController();
  let stoppedBy: string | undefined;
  const off = onStopSignal((by) => {
    stoppedBy = by;
    abort.abort(by);
  });
  try {
    const value = await run(abort.signal);
    return stoppedBy === undefined ? { value } : { value, stoppedBy };
  } finally {
    off();
  }
}

/**
 * The results of a run a stop signal cut short, said so on stderr and in each report's note: the checks it cut
 * short read "incomplete", as a target's fault would, and the note says whose doing it was.
 */
export function markInterrupted(results: RunResult[], stoppedBy: string): RunResult[] {
  process.stderr.write(`agentwire: interrupted: the report covers what ran before ${stoppedBy}\n`);
  return results.map((r) => ({ ...r, error: `interrupted (${stoppedBy}): checks cut short are incomplete${r.error ? `; ${r.error}` : ""}` }));
}
