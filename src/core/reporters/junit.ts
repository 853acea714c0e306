/** JUnit XML: one testsuite per run, one testcase per check. */
import { contractPlace } from "./names.js";
import type { RunResult } from "../verdicts/result.js";
import { formatEvidence } from "./console.js";

export function formatJunit(result: RunResult): string {
  return formatJunitRuns([result]);
}

/** Several runs (every protocol, or a proxy's two sides) in one document: a testsuite each, totals at the root. */
export function formatJunitRuns(results: RunResult[]): string {
  const suites = results.map(junitSuite);
  const sum = (k: "tests" | "failures" | "skipped") => suites.reduce((n, x) => n + x[k], 0);
  const ms = results.reduce((n, r) => n + r.durationMs, 0);
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="agentwire" tests="${sum("tests")}" failures="${sum("failures")}" skipped="${sum("skipped")}" time="${seconds(ms)}">`,
    ...suites.map((x) => x.xml),
    `</testsuites>`,
    "",
  ].join("\n");
}

function junitSuite(result: RunResult): { xml: string; tests: number; failures: number; skipped: number } {
  const s = result.summary;
  const cases = result.checks.map((c) => {
    const name = attr(c.id);
    const cls = attr(`${result.protocol}.${c.side}`);
    const body = [
      `${c.message}`,
      `rule: ${c.rule}`,
      `contract: "${c.ref.quote}" (${contractPlace(c)})`,
      ...(c.expected !== undefined ? [`expected: ${c.expected}`] : []),
      ...(c.actual !== undefined ? [`actual: ${c.actual}`] : []),
      ...c.evidence.map((e) => `evidence: ${formatEvidence(e)}`),
    ].join("\n");
    let inner = "";
    if (c.verdict === "fail" && c.baseline?.status === "known") inner = `<skipped message="${attr(`known failure (baseline ${c.baseline.entry}): ${c.baseline.reason}`)}"/>`;
    else if (c.verdict === "fail") inner = `<failure message="${attr(c.message)}" type="${c.level}">${text(body)}</failure>`;
    else if (c.verdict === "skip" || c.verdict === "incomplete")
      inner = `<skipped message="${attr(`${c.verdict}: ${c.message}`)}"/>`;
    else if (c.verdict === "warn" || c.verdict === "info") inner = `<system-out>${text(`${c.verdict}: ${body}`)}</system-out>`;
    return `    <testcase name="${name}" classname="${cls}" time="${seconds(c.durationMs ?? 0)}">${inner}</testcase>`;
  });
  // Known failures (baseline) are reported as skipped; stale or expired entries as failures of their own.
  const known = result.checks.filter((c) => c.verdict === "fail" && c.baseline?.status === "known").length;
  const problems = (result.baseline?.problems ?? []).map(
    (p, i) => `    <testcase name="${attr(`baseline ${i + 1}`)}" classname="${attr(`${result.protocol}.baseline`)}" time="0"><failure message="${attr(p)}" type="baseline">${text(p)}</failure></testcase>`,
  );
  const tests = result.checks.length + problems.length;
  const failures = s.fail - known + problems.length;
  const skipped = s.skip + s.incomplete + known;
  const xml = [
    `  <testsuite name="${attr(`${result.protocol} (${result.side})`)}" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" timestamp="${result.startedAt}" time="${seconds(result.durationMs)}">`,
    `    <properties><property name="target" value="${attr(result.target)}"/><property name="profile" value="${attr(result.profile)}"/></properties>`,
    ...cases,
    ...problems,
    `  </testsuite>`,
  ].join("\n");
  return { xml, tests, failures, skipped };
}

/** JUnit times are seconds; milliseconds to three decimals. */
const seconds = (ms: number): string => (Math.round(ms) / 1000).toFixed(3);

function attr(s: string): string {
  return text(s).replace(/"/g, "&quot;").replace(/\n/g, "&#10;");
}

function text(s: string): string {
  // XML 1.0 forbids most control characters even when escaped, U+FFFE and U+FFFF, and a lone surrogate
  // (a server's body may hold any of them; a CI's JUnit reader refuses the whole file).
  return s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
}
