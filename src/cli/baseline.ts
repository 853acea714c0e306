/** --baseline FILE (known failures) for the commands that judge, and `agentwire baseline write`. */
import { readFileSync, writeFileSync } from "node:fs";
import type { Baseline } from "../core/verdicts/baseline.js";
import type { ProtocolDef } from "../core/run/protocol.js";
import type { CheckResult, RunResult } from "../core/verdicts/result.js";
import { checkWritableFile } from "./options.js";
import { UsageError } from "./errors.js";

/** Reads and checks a baseline file before anything runs (yaml and zod load only here). */
export async function loadBaselineOption(path: string | undefined, protocols: readonly ProtocolDef[]): Promise<Baseline | undefined> {
  if (path === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`--baseline ${path} cannot be read: ${code === "ENOENT" ? "no such file (agentwire baseline write creates one)" : code === "EISDIR" ? "it is a folder" : (e as Error).message}`);
  }
  const { parseBaseline, checkBaselineIds } = await import("../core/verdicts/baseline.js");
  const baseline = parseBaseline(path, text);
  checkBaselineIds(baseline, protocols);
  return baseline;
}

export async function withBaseline(results: RunResult[], baseline: Baseline | undefined): Promise<RunResult[]> {
  if (!baseline) return results;
  const { applyBaseline } = await import("../core/verdicts/baseline.js");
  return results.map((r) => applyBaseline(r, baseline));
}

/** Adds a verdict's baseline entry to it (for the reports that stream verdicts before the run ends). */
export async function baselineMarker(baseline: Baseline | undefined): Promise<((c: CheckResult) => CheckResult) | undefined> {
  if (!baseline) return undefined;
  const { markCheck } = await import("../core/verdicts/baseline.js");
  return (c) => {
    const mark = markCheck(baseline, c);
    return mark ? { ...c, baseline: mark } : c;
  };
}

/** Writes the runs' current failures as a baseline file; says what it wrote. */
export async function writeBaseline(results: RunResult[], output: string): Promise<number> {
  // A run that judged nothing (target down, every check incomplete) has no failures to list, which
  // is not "nothing fails": an empty baseline from it would hide every failure of the next real run.
  const unjudged = results.filter((r) => r.checks.every((c) => c.verdict === "skip" || c.verdict === "incomplete") && r.summary.incomplete > 0);
  if (unjudged.length) {
    for (const r of unjudged) {
      const why = r.error ?? r.checks.find((c) => c.verdict === "incomplete")?.message ?? "";
      process.stderr.write(`agentwire: ${r.protocol}: no check could be judged (${r.summary.incomplete} incomplete)${why ? `: ${why}` : ""}\n`);
    }
    process.stderr.write(`agentwire: ${output} not written: a baseline needs a run that judged the checks; fix the target or --url and run again\n`);
    return 3;
  }
  checkWritableFile(output, "--output");
  const { baselineYaml } = await import("../core/verdicts/baseline.js");
  writeFileSync(output, baselineYaml(results));
  const failing = results.flatMap((r) => r.checks.filter((c) => c.verdict === "fail").map((c) => c.id));
  for (const id of failing) process.stdout.write(`${id}\n`);
  const unjudgedChecks = results.reduce((n, r) => n + r.summary.incomplete, 0);
  process.stderr.write(
    `agentwire: ${output}: ${failing.length ? `${failing.length} failing check(s) listed; give each a reason` : "no check fails: the baseline is empty"}` +
      `${unjudgedChecks ? ` (${unjudgedChecks} incomplete check(s) could not be judged and are not listed)` : ""}\n`,
  );
  return 0;
}
