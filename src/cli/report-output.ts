/** Writes reports where the user asked, and picks the process exit code for several runs. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { formatReport } from "../core/reporters/index.js";
import type { RunResult } from "../core/result.js";
import type { ReportTarget } from "./options.js";

export function writeReports(results: RunResult[], targets: ReportTarget[]): void {
  for (const t of targets) {
    const text = formatReport(t.reporter, results, { colour: !t.output && process.stdout.isTTY === true });
    if (t.output) {
      mkdirSync(dirname(t.output), { recursive: true });
      writeFileSync(t.output, text);
    } else process.stdout.write(text);
  }
}

export function combinedExitCode(results: RunResult[]): number {
  if (results.some((r) => r.exitCode === 1)) return 1;
  if (results.some((r) => r.exitCode === 3)) return 3;
  return 0;
}
