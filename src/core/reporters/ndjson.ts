/**
 * NDJSON: one JSON line per violation the moment a check sees it, one per verdict as the run decides it, one line per finished run, and a
 * closing summary line (schemas/report-line.schema.json). The CLI streams the verdict lines while
 * the runs go on; formatNdjson gives the same lines for finished runs.
 */
import type { Side } from "../checks/check.js";
import { emptySummary, type CheckResult, type LiveViolation, type RunResult } from "../verdicts/result.js";

export function ndjsonVerdict(check: CheckResult, run: { protocol: string; side: Side }): string {
  return `${JSON.stringify({ type: "verdict", protocol: run.protocol, ...check, side: check.side ?? run.side })}\n`;
}

/** A violation the moment a check sees it; the check's verdict line follows when the run ends. */
export function ndjsonViolation(violation: LiveViolation, run: { protocol: string; side: Side }): string {
  return `${JSON.stringify({ type: "violation", protocol: run.protocol, ...violation })}\n`;
}

export function ndjsonRun(result: RunResult): string {
  const { checks: _checks, exchanges: _exchanges, rerun: _rerun, ...run } = result;
  return `${JSON.stringify({ type: "run", ...run })}\n`;
}

export function ndjsonSummary(results: readonly RunResult[]): string {
  const summary = emptySummary();
  for (const r of results) for (const k of Object.keys(summary) as (keyof typeof summary)[]) summary[k] += r.summary[k];
  const exitCode = results.some((r) => r.exitCode === 1) ? 1 : results.some((r) => r.exitCode === 3) ? 3 : 0;
  return `${JSON.stringify({ type: "summary", runs: results.length, protocols: results.map((r) => r.protocol), summary, exitCode })}\n`;
}

export function formatNdjson(results: readonly RunResult[]): string {
  return (
    results.map((r) => r.checks.map((c) => ndjsonVerdict(c, r)).join("") + ndjsonRun(r)).join("") + ndjsonSummary(results)
  );
}
