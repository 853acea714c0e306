/**
 * Known failures: a YAML file of check ids (or id prefixes) expected to fail, each with a reason,
 * optionally a link and an expiry date. A listed failure does not fail the run; a listed check that
 * passes now, or an entry past its date, does — the entry has done its job and must go. Loaded
 * only when a command is given --baseline (yaml and zod stay out of the other paths).
 */
import { LineCounter, parseDocument, stringify, type Node } from "yaml";
import { z } from "zod";
import type { ProtocolDef } from "../run/protocol.js";
import { exitCodeFor, type BaselineMark, type CheckResult, type RunResult } from "./result.js";
import { UsageError } from "../run/usage-error.js";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A day that exists: Date.parse rolls 2027-02-31 over to March 3rd, so the day must read back the same. */
function isCalendarDate(d: string): boolean {
  const t = Date.parse(`${d}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d;
}

const Entry = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+\/[a-z0-9/._-]*$/, "must be a check id or an id prefix, e.g. mcp-chat/sse/lf-only or mcp-chat/sse/"),
    reason: z.string().trim().min(1, "must say why the failure is accepted"),
    link: z.string().url("must be a URL").optional(),
    expires: z
      .string()
      .regex(DATE, "must be a date written YYYY-MM-DD")
      .refine(isCalendarDate, "is not a calendar date")
      .optional(),
  })
  .strict();

const File = z.object({ failures: z.array(Entry).default([]) }).strict();

export interface BaselineEntry extends z.infer<typeof Entry> {
  /** Line of the entry in the file, for messages. */
  line: number;
}

export interface Baseline {
  file: string;
  entries: BaselineEntry[];
}

/** Parses and checks a baseline file's text; every problem is a usage error naming its line. */
export function parseBaseline(file: string, text: string): Baseline {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0].line ?? lines.linePos(e.pos[0]).line;
    throw new UsageError(`${file}:${line}: not valid YAML: ${e.message.split("\n")[0]}`);
  }
  const value: unknown = doc.toJS() ?? {};
  const parsed = File.safeParse(value);
  const lineOf = (path: readonly PropertyKey[]): number => {
    // The deepest node that exists on the path (a missing key is reported at its entry).
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n) as (string | number)[], true) as Node | undefined;
      if (node && typeof node === "object" && "range" in node && node.range) return lines.linePos(node.range[0]).line;
    }
    return 1;
  };
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    const where = i.path.length ? i.path.join(".") : "the file";
    const what =
      i.code === "unrecognized_keys"
        ? `unknown key ${i.keys.map((k) => `"${k}"`).join(", ")} (an entry has id, reason, link, expires; the file has failures)`
        : i.code === "invalid_type" && i.path.length === 0
          ? `must be a mapping with a "failures" list`
          : i.message;
    throw new UsageError(`${file}:${lineOf(i.path)}: ${where}: ${what}`);
  }
  const seen = new Map<string, number>();
  const entries = parsed.data.failures.map((e, i) => {
    const line = lineOf(["failures", i]);
    const before = seen.get(e.id);
    if (before !== undefined) throw new UsageError(`${file}:${line}: "${e.id}" is listed twice (first at line ${before})`);
    seen.set(e.id, line);
    return { ...e, line };
  });
  return { file, entries };
}

/**
 * Entries about the protocols of this run must name checks they have: a typo would otherwise
 * accept nothing, silently. Entries about other protocols are left for the runs that test them.
 */
export function checkBaselineIds(baseline: Baseline, protocols: readonly ProtocolDef[]): void {
  for (const e of baseline.entries) {
    const p = protocols.find((x) => e.id.startsWith(`${x.id}/`));
    if (p && !p.checks.some((c) => c.id.startsWith(e.id))) {
      throw new UsageError(`${baseline.file}:${e.line}: no check of ${p.id} matches "${e.id}"; see "agentwire list ${p.id}"`);
    }
  }
}

/** The entry that covers a check: the most specific one whose id is the check's id or a prefix of it. */
function entryFor(baseline: Baseline, id: string): BaselineEntry | undefined {
  let best: BaselineEntry | undefined;
  for (const e of baseline.entries) if (id.startsWith(e.id) && (!best || e.id.length > best.id.length)) best = e;
  return best;
}

const isExpired = (e: BaselineEntry, today: string) => e.expires !== undefined && e.expires < today;

export const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/** How the baseline applies to one check (undefined: not listed). */
export function markCheck(baseline: Baseline, check: CheckResult, today = todayUtc()): BaselineMark | undefined {
  const e = entryFor(baseline, check.id);
  if (!e) return undefined;
  const status: BaselineMark["status"] = isExpired(e, today)
    ? "expired"
    : check.outcome === "fail"
      ? "known"
      : check.verdict === "pass"
        ? "fixed"
        : "listed";
  return { entry: e.id, reason: e.reason, ...(e.link ? { link: e.link } : {}), ...(e.expires ? { expires: e.expires } : {}), status };
}

/**
 * The run as the baseline reads it: listed failures marked and left out of the exit code; entries
 * whose checks all pass now, and entries past their date, turned into problems that fail the run.
 */
export function applyBaseline(result: RunResult, baseline: Baseline, today = todayUtc()): RunResult {
  const checks = result.checks.map((c) => {
    const mark = markCheck(baseline, c, today);
    return mark ? { ...c, baseline: mark } : c;
  });
  const problems: string[] = [];
  for (const e of baseline.entries) {
    const covered = checks.filter((c) => c.baseline?.entry === e.id);
    if (covered.length === 0) continue;
    const where = `${baseline.file}:${e.line}`;
    if (isExpired(e, today)) {
      problems.push(`baseline entry "${e.id}" expired on ${e.expires} (${where}): fix the failure, or remove the entry (or give it a later date)`);
    } else if (!covered.some((c) => c.outcome === "fail") && covered.some((c) => c.verdict === "pass")) {
      problems.push(`baseline entry "${e.id}" now passes (${where}): remove the entry`);
    }
  }
  const accepted = (c: CheckResult) => c.baseline?.status === "known";
  const counted = { ...result.summary, fail: checks.filter((c) => c.verdict === "fail" && !accepted(c)).length };
  const base = exitCodeFor(counted);
  const known = checks.filter((c) => accepted(c) && c.verdict === "fail").length;
  return {
    ...result,
    checks,
    exitCode: problems.length ? 1 : base,
    baseline: { file: baseline.file, known, problems },
  };
}

/** A baseline file listing a run's current failures, to start from (`agentwire baseline write`). */
export function baselineYaml(results: readonly RunResult[], today = todayUtc()): string {
  const failures = results.flatMap((r) =>
    r.checks
      .filter((c) => c.verdict === "fail")
      .map((c) => ({ id: c.id, reason: `failing on ${today}: ${c.message.length > 160 ? `${c.message.slice(0, 160)}…` : c.message}` })),
  );
  const head = [
    "# Known failures: agentwire test --baseline <this file> does not fail on these.",
    "# Give each a real reason, and a link and an expiry date (expires: YYYY-MM-DD) where you can.",
    "# A listed check that passes again, or an entry past its date, fails the run until it is removed.",
  ].join("\n");
  return `${head}\n${stringify({ failures }, { lineWidth: 0 })}`;
}
