/** Writes reports where the user asked, and picks the process exit code for several runs. */
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { Side } from "../core/checks/check.js";
import { colourWanted } from "../core/reporters/colour.js";
import { formatReport } from "../core/reporters/index.js";
import { NEEDS_CONTEXT } from "../core/reporters/names.js";
import { ndjsonRun, ndjsonSummary, ndjsonVerdict, ndjsonViolation } from "../core/reporters/ndjson.js";
import type { CheckResult, LiveViolation, RunResult, ViolationListener } from "../core/verdicts/result.js";
import type { ReportTarget } from "./options.js";

/** Corrects what a report says to run (a command the reporters cannot know in full), e.g. adds an option the rerun needs. */
export type CommandFix = (text: string) => string;

export function writeReports(results: RunResult[], targets: ReportTarget[], fix: CommandFix = (t) => t): void {
  for (const t of targets) {
    const text = fix(formatReport(t.reporter, results, { colour: !t.output && colourWanted(process.stdout) }));
    if (t.output) {
      mkdirSync(dirname(t.output), { recursive: true });
      writeFileSync(t.output, text);
    } else process.stdout.write(text);
  }
}

/** What the runs need to know of the reports before they start, and the writing at the end. */
export interface ReportSession {
  /** Streams each verdict to the ndjson reports as it is decided. */
  onVerdict?: (check: CheckResult, run: { protocol: string; side: Side }) => void;
  /** Streams each violation to the ndjson reports the moment a check sees it. */
  onViolation?: ViolationListener;
  /** Some report shows the events around each failure. */
  context: boolean;
  /** Writes every report (the ndjson ones: the closing lines). */
  finish(results: RunResult[]): void;
  /** The run ended in an error: closes the streaming reports and removes their files, which hold half a run. */
  abandon(): void;
}

/**
 * Opens the streaming reports (ndjson), so their verdict lines go out while the runs go on;
 * `mark` adds what the verdict lines carry besides the check (its baseline entry); `fix` corrects the
 * commands the other reports suggest.
 */
export function openReports(targets: ReportTarget[], mark: (c: CheckResult) => CheckResult = (c) => c, fix?: CommandFix): ReportSession {
  // Runs still going when another one threw write nothing more after abandon(): the files are gone.
  let state: "open" | "finished" | "abandoned" = "open";
  const streams = targets
    .filter((t) => t.reporter === "ndjson")
    .map((t) => {
      if (!t.output) return { write: (s: string) => void process.stdout.write(s), close: () => undefined, remove: () => undefined };
      const path = t.output;
      // Opened (and so truncated) at the first line: by then the run has started, every option accepted.
      let fd: number | undefined;
      const opened = (): number => {
        if (fd === undefined) {
          mkdirSync(dirname(path), { recursive: true });
          fd = openSync(path, "w");
        }
        return fd;
      };
      return {
        write: (s: string) => void (state !== "abandoned" && writeSync(opened(), s)),
        close: () => void (fd !== undefined && closeSync(fd)),
        remove: () => void (fd !== undefined && rmSync(path, { force: true })),
      };
    });
  const rest = targets.filter((t) => t.reporter !== "ndjson");
  return {
    ...(streams.length
      ? {
          onVerdict: (c: CheckResult, run: { protocol: string; side: Side }) => streams.forEach((s) => s.write(ndjsonVerdict(mark(c), run))),
          onViolation: (v: LiveViolation, run: { protocol: string; side: Side }) => streams.forEach((s) => s.write(ndjsonViolation(v, run))),
        }
      : {}),
    context: targets.some((t) => NEEDS_CONTEXT.has(t.reporter)),
    finish(results) {
      state = "finished";
      for (const s of streams) {
        s.write(results.map(ndjsonRun).join("") + ndjsonSummary(results));
        s.close();
      }
      writeReports(results, rest, fix);
    },
    abandon() {
      if (state !== "open") return;
      state = "abandoned";
      for (const s of streams) {
        s.close();
        s.remove();
      }
    },
  };
}

/** Runs `work` with the reports open; when it throws (a usage error found late), no half-written report stays behind. */
export async function withReports<T>(reports: ReportSession, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    reports.abandon();
    throw e;
  }
}

export function combinedExitCode(results: RunResult[]): number {
  if (results.some((r) => r.exitCode === 1)) return 1;
  if (results.some((r) => r.exitCode === 3)) return 3;
  return 0;
}
