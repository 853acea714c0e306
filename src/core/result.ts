/** The result of a run: what every reporter reads. Matches schemas/report.schema.json. */
import type { ContractRef, Evidence, Level, Outcome, Side, Verdict } from "./check.js";

export interface CheckResult {
  id: string;
  /** Effective level (after the profile). */
  level: Level;
  side: Side;
  title: string;
  rule: string;
  ref: ContractRef;
  verdict: Verdict;
  /** What the observer concluded before level mapping: "fail" means the rule was broken. */
  outcome: Outcome["verdict"];
  message: string;
  expected?: string;
  actual?: string;
  evidence: Evidence[];
}

export type Summary = Record<Verdict, number>;

export interface RunResult {
  protocol: string;
  /** URL tested, or a description of the client command. */
  target: string;
  side: Side;
  profile: string;
  strict: boolean;
  startedAt: string;
  durationMs: number;
  summary: Summary;
  checks: CheckResult[];
  /** 0 all selected required checks passed; 1 a check failed; 3 nothing failed but something was incomplete. */
  exitCode: 0 | 1 | 3;
  /** Set when the target could not be reached at all. */
  error?: string;
}

export function emptySummary(): Summary {
  return { pass: 0, fail: 0, warn: 0, info: 0, skip: 0, incomplete: 0 };
}

export function summarise(checks: CheckResult[]): Summary {
  const s = emptySummary();
  for (const c of checks) s[c.verdict]++;
  return s;
}

export function exitCodeFor(summary: Summary): 0 | 1 | 3 {
  if (summary.fail > 0) return 1;
  if (summary.incomplete > 0) return 3;
  return 0;
}
