/** Human report: one line per check, details under failures, a summary line; a recap at the end. */
import { contractPlace } from "./names.js";
import type { Evidence, Verdict } from "../checks/check.js";
import { emptySummary, type CheckResult, type RunResult, type Summary } from "../verdicts/result.js";
import { colours, type Colours } from "./colour.js";
import { curlCommand, exchangeOf, replayCommand } from "./reproduce.js";

const MARK: Record<Verdict, string> = {
  pass: "PASS",
  fail: "FAIL",
  warn: "WARN",
  info: "INFO",
  skip: "SKIP",
  incomplete: "INCOMPLETE",
};

const PAINT: Record<Verdict, (c: Colours, s: string) => string> = {
  pass: (c, s) => c.green(s),
  fail: (c, s) => c.red(s),
  warn: (c, s) => c.yellow(s),
  info: (c, s) => c.cyan(s),
  skip: (c, s) => c.gray(s),
  incomplete: (c, s) => c.magenta(s),
};

export function formatConsole(result: RunResult, opts: { colour?: boolean; verbose?: boolean } = {}): string {
  const c = colours(!!opts.colour);
  const paint = (v: Verdict, s: string) => PAINT[v](c, s);
  const lines: string[] = [];
  lines.push(c.bold(`agentwire ${result.protocol} (${result.side} side) — ${result.target}`));
  lines.push(`profile ${result.profile}${result.strict ? ", strict" : ""}`);
  if (result.error) lines.push(`note: ${result.error}`);
  lines.push("");
  for (const check of result.checks) {
    lines.push(`${paint(check.verdict, MARK[check.verdict].padEnd(10))} ${check.id} [${check.level}]${check.baseline ? c.dim(`  (${baselineNote(check.baseline)})`) : ""}`);
    if (check.verdict === "pass" && !opts.verbose) continue;
    lines.push(...details(check, result).map((l) => `           ${l}`));
  }
  lines.push("");
  lines.push(summaryLine(result.summary, `(${result.durationMs} ms) — exit ${result.exitCode}`, c, result.baseline?.known ?? 0));
  if (result.baseline) {
    lines.push(`baseline ${result.baseline.file}: ${result.baseline.known} known failure(s) accepted`);
    for (const p of result.baseline.problems) lines.push(c.red(`baseline problem: ${p}`));
  }
  return lines.join("\n");
}

/** "N passed, N failed, ..." with the non-zero counts that matter coloured. */
/** `known`: failures a baseline accepts (they do not fail the run, and the line says so). */
function summaryLine(s: Summary, tail: string, c: Colours, known = 0): string {
  const part = (n: number, text: string, v: Verdict) => (n > 0 && v !== "pass" && v !== "skip" ? PAINT[v](c, `${n} ${text}`) : `${n} ${text}`);
  const failed = known > 0 ? `failed (${known} known, accepted by the baseline)` : "failed";
  return `${part(s.pass, "passed", "pass")}, ${part(s.fail, failed, "fail")}, ${part(s.warn, "warnings", "warn")}, ${part(s.info, "info", "info")}, ${part(s.skip, "skipped", "skip")}, ${part(s.incomplete, "incomplete", "incomplete")} ${tail}`;
}

/**
 * What ends a console report: the failures again, one line each with the command that replays
 * them (as vitest recaps failed tests), and with several runs one overall line.
 */
export function formatRecap(results: readonly RunResult[], opts: { colour?: boolean } = {}): string {
  const c = colours(!!opts.colour);
  const lines: string[] = [];
  const failed = results.flatMap((r) => r.checks.filter((x) => x.verdict === "fail" && x.baseline?.status !== "known").map((x) => ({ r, x })));
  const problems = results.flatMap((r) => r.baseline?.problems ?? []);
  if (failed.length || problems.length) {
    const n = failed.length + problems.length;
    lines.push("", c.red(c.bold(`⎯⎯⎯⎯ ${n} failure${n === 1 ? "" : "s"} ⎯⎯⎯⎯`)));
    for (const { r, x } of failed) {
      lines.push(`${c.red("FAIL")} ${x.id} — ${x.message}`);
      lines.push(c.dim(`     ${replayCommand(r, x)}`));
    }
    for (const p of problems) lines.push(`${c.red("FAIL")} baseline — ${p}`);
  }
  if (results.length > 1) {
    const total = emptySummary();
    for (const r of results) for (const k of Object.keys(total) as Verdict[]) total[k] += r.summary[k];
    const exit = results.some((r) => r.exitCode === 1) ? 1 : results.some((r) => r.exitCode === 3) ? 3 : 0;
    // Runs of both sides (a proxy, a replay of its transcript) are told apart by their side.
    const sides = new Set(results.map((r) => r.side)).size > 1;
    const names = results.map((r) => (sides ? `${r.protocol} ${r.side}` : r.protocol));
    const known = results.reduce((n, r) => n + (r.baseline?.known ?? 0), 0);
    lines.push("", c.bold(`all ${results.length} runs (${names.join(", ")}): `) + summaryLine(total, `— exit ${exit}`, c, known));
  }
  return lines.join("\n");
}

function details(c: CheckResult, result: RunResult): string[] {
  const out = [`${c.message}`];
  if (c.verdict === "fail" || c.verdict === "warn") {
    out.push(`rule: ${c.rule}`);
    out.push(`contract: "${c.ref.quote}" (${contractPlace(c)})`);
    if (c.expected !== undefined) out.push(`expected: ${c.expected}`);
    if (c.actual !== undefined) out.push(`actual:   ${c.actual}`);
    // The first piece of evidence usually restates "actual"; show only where it was then.
    for (const e of c.evidence.slice(0, 3)) out.push(`evidence: ${formatEvidence(e.note === c.actual ? { ...e, note: undefined } : e)}`);
    out.push(...reproduce(c, result));
  }
  return out;
}

export function formatEvidence(e: Evidence): string {
  const where = [
    e.label ? `${e.label}` : e.probe,
    e.exchange ? `exchange ${e.exchange}` : undefined,
    e.index !== undefined ? `#${e.index}` : undefined,
    e.seq !== undefined ? `seq ${e.seq}` : undefined,
    e.at !== undefined ? `t=${Math.round(e.at)}ms` : undefined,
  ]
    .filter(Boolean)
    .join(", ");
  return [where, e.excerpt ? `"${e.excerpt}"` : undefined, e.note && e.note !== e.excerpt ? e.note : undefined]
    .filter(Boolean)
    .join(" — ");
}

/** The lines that end a failure: the request again (the kit's own HTTP requests), and the replay. */
export function reproduce(c: CheckResult, result: RunResult): string[] {
  const x = result.side === "server" ? exchangeOf(result, c) : undefined;
  const curl = x ? curlCommand(x) : undefined;
  return [...(curl ? [`resend:   ${curl}`] : []), `replay:   ${replayCommand(result, c)}`];
}

/** How a baseline entry reads next to its check. */
export function baselineNote(b: NonNullable<CheckResult["baseline"]>): string {
  const status = { known: "known failure", fixed: "listed in the baseline, passes now: remove the entry", expired: `baseline entry expired ${b.expires}`, listed: "listed in the baseline" }[b.status];
  return `${status}: ${b.reason}${b.link ? ` ${b.link}` : ""}`;
}
