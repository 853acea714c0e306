/**
 * Markdown for CI summaries ($GITHUB_STEP_SUMMARY) and pull-request comments: a table of counts
 * per run, then each failure with its rule, the contract sentence, expected vs actual, the first
 * evidence and the command that replays it. Passing checks are only counted.
 */
import { contractPlace } from "./names.js";
import type { CheckResult, RunResult } from "../verdicts/result.js";
import { formatEvidence } from "./console.js";
import { replayCommand } from "./reproduce.js";

const ICON: Record<CheckResult["verdict"], string> = { pass: "✅", fail: "❌", warn: "⚠️", info: "ℹ️", skip: "⏭️", incomplete: "⏸️" };

export function formatMarkdown(results: readonly RunResult[]): string {
  const out: string[] = [];
  const exit = results.some((r) => r.exitCode === 1) ? 1 : results.some((r) => r.exitCode === 3) ? 3 : 0;
  out.push(`## agentwire ${exit === 0 ? "✅ passed" : exit === 1 ? "❌ failed" : "⏸️ incomplete"}`, "");
  out.push("| protocol | side | target | pass | fail | warn | info | skip | incomplete | exit |");
  out.push("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of results) {
    const s = r.summary;
    out.push(`| ${cell(r.protocol)} | ${r.side} | ${cell(r.target)} | ${s.pass} | ${s.fail} | ${s.warn} | ${s.info} | ${s.skip} | ${s.incomplete} | ${r.exitCode} |`);
  }
  out.push("");
  for (const r of results) {
    if (r.error) out.push(`> **${r.protocol}:** ${inline(r.error)}`, "");
    for (const p of r.baseline?.problems ?? []) out.push(`- ❌ **baseline:** ${inline(p)}`);
    const known = r.checks.filter((c) => c.baseline?.status === "known" && c.verdict === "fail");
    if (known.length) out.push(`- ${known.length} known failure(s) accepted by ${code(r.baseline?.file ?? "the baseline")}: ${known.map((c) => code(c.id)).join(", ")}`);
    if (r.baseline?.problems.length || known.length) out.push("");
    const shown = r.checks.filter((c) => (c.verdict === "fail" && c.baseline?.status !== "known") || c.verdict === "warn");
    if (shown.length === 0) continue;
    out.push(`### ${r.protocol} (${r.side}): ${shown.length} to look at`, "");
    for (const c of shown) out.push(...failure(c, r), "");
  }
  const incomplete = results.flatMap((r) => r.checks.filter((c) => c.verdict === "incomplete"));
  if (incomplete.length) {
    out.push(`<details><summary>${incomplete.length} check(s) could not be judged</summary>`, "");
    for (const c of incomplete) out.push(`- ${code(c.id)}: ${inline(c.message)}`);
    out.push("", "</details>", "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

function failure(c: CheckResult, r: RunResult): string[] {
  const lines = [`#### ${ICON[c.verdict]} ${code(c.id)} [${c.level}]`, "", inline(c.message), "", `- **rule:** ${inline(c.rule)}`];
  lines.push(`- **contract:** “${inline(c.ref.quote)}” (${inline(contractPlace(c))})`);
  if (c.expected !== undefined) lines.push(`- **expected:** ${inline(c.expected)}`);
  if (c.actual !== undefined) lines.push(`- **actual:** ${inline(c.actual)}`);
  const e = c.evidence[0];
  if (e) lines.push(`- **evidence:** ${inline(formatEvidence(e))}`);
  lines.push("", "```sh", replayCommand(r, c), "```");
  return lines;
}

/** Markdown-safe text on one line (tables and list items). */
function inline(s: string): string {
  const one = s.replace(/\r?\n/g, " ");
  return (one.length > 600 ? `${one.slice(0, 600)}…` : one).replace(/([\\`*_[\]<>|])/g, "\\$1");
}

const cell = (s: string) => inline(s);
const code = (s: string) => `\`${s.replace(/`/g, "ˋ")}\``;
