/** Human report: one line per check, details under failures, a summary line. */
import type { Evidence, Verdict } from "../check.js";
import type { CheckResult, RunResult } from "../result.js";
import { curlCommand, exchangeOf, replayCommand } from "./reproduce.js";

const MARK: Record<Verdict, string> = {
  pass: "PASS",
  fail: "FAIL",
  warn: "WARN",
  info: "INFO",
  skip: "SKIP",
  incomplete: "INCOMPLETE",
};

const COLOUR: Record<Verdict, number> = { pass: 32, fail: 31, warn: 33, info: 36, skip: 90, incomplete: 35 };

export function formatConsole(result: RunResult, opts: { colour?: boolean; verbose?: boolean } = {}): string {
  const paint = (v: Verdict, s: string) => (opts.colour ? `\x1b[${COLOUR[v]}m${s}\x1b[0m` : s);
  const lines: string[] = [];
  lines.push(`agentwire ${result.protocol} (${result.side} side) — ${result.target}`);
  lines.push(`profile ${result.profile}${result.strict ? ", strict" : ""}`);
  if (result.error) lines.push(`note: ${result.error}`);
  lines.push("");
  for (const c of result.checks) {
    lines.push(`${paint(c.verdict, MARK[c.verdict].padEnd(10))} ${c.id} [${c.level}]${c.baseline ? `  (${baselineNote(c.baseline)})` : ""}`);
    if (c.verdict === "pass" && !opts.verbose) continue;
    lines.push(...details(c, result).map((l) => `           ${l}`));
  }
  lines.push("");
  const s = result.summary;
  lines.push(
    `${s.pass} passed, ${s.fail} failed, ${s.warn} warnings, ${s.info} info, ${s.skip} skipped, ${s.incomplete} incomplete` +
      ` (${result.durationMs} ms) — exit ${result.exitCode}`,
  );
  if (result.baseline) {
    lines.push(`baseline ${result.baseline.file}: ${result.baseline.known} known failure(s) accepted`);
    for (const p of result.baseline.problems) lines.push(`baseline problem: ${p}`);
  }
  return lines.join("\n");
}

function details(c: CheckResult, result: RunResult): string[] {
  const out = [`${c.message}`];
  if (c.verdict === "fail" || c.verdict === "warn") {
    out.push(`rule: ${c.rule}`);
    out.push(`contract: "${c.ref.quote}" (${c.ref.seed} ${c.ref.section})`);
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
