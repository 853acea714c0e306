/** The result of a run: what every reporter reads. Matches schemas/report.schema.json. */
import type { ContractRef, Evidence, Level, Outcome, Side, Verdict } from "../checks/check.js";

/** A violation as a check sees it, before the run ends (`--reporter ndjson` prints it at once). */
export interface LiveViolation {
  check: string;
  /** The check's level under the run's profile. */
  level: Level;
  side: Side;
  expected: string;
  actual: string;
  evidence: Evidence;
}

export type ViolationListener = (violation: LiveViolation, run: { protocol: string; side: Side }) => void;

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
  /** Wire time behind the check (its probes' span in the transcript), in ms. */
  durationMs?: number;
  /** Set when a baseline file lists the check. */
  baseline?: BaselineMark;
}

/** How a baseline entry applies to a check. */
export interface BaselineMark {
  /** The entry's id or prefix. */
  entry: string;
  reason: string;
  link?: string;
  expires?: string;
  /** known: it fails as listed; fixed: it passes now (remove the entry); expired: the entry is past its date. */
  status: "known" | "fixed" | "expired" | "listed";
}

/** One exchange (HTTP) or connection (WebSocket) a failure came from, as a report shows it. */
export interface ExchangeRecord {
  /** Exchange or connection id, as evidence names it. */
  id: string;
  kind: "http" | "ws";
  probe: string;
  label?: string;
  request?: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body?: string };
  error?: string;
  /** The events or frames around the offending ones. */
  events?: ExchangeEventLine[];
}

export interface ExchangeEventLine {
  seq: number;
  t: number;
  kind: string;
  text: string;
  offending?: boolean;
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
  /** The saved transcript of the run, or the file a replay read. */
  transcript?: string;
  /** Set when the run re-judged a saved transcript. */
  replay?: boolean;
  /** The server, when the run judged traffic relayed by `agentwire proxy` (its rerun goes through the proxy again). */
  proxied?: string;
  /** The exchanges the failures point at (reports that show them; not part of the JSON report). */
  exchanges?: ExchangeRecord[];
  /**
   * The options that shaped the run (faults, parameters, waits...), as the words of a command line,
   * credentials as placeholders: a failure's rerun command carries them (not part of the JSON report).
   */
  rerun?: string[];
  /** Baseline problems that fail the run (entries to remove), with the file they come from. */
  baseline?: { file: string; known: number; problems: string[] };
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
