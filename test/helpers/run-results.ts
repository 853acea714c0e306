/** Small views of a RunResult for assertions and readable failure messages. */
import type { CheckResult, RunResult } from "../../src/core/result.js";

export const serverSide = (r: RunResult): CheckResult[] => r.checks.filter((c) => c.side === "server");

/** Ids of the checks whose observer concluded "fail" (an INFO check's report included), sorted. */
export const failedIds = (checks: CheckResult[]): string[] => checks.filter((c) => c.outcome === "fail").map((c) => c.id).sort();

export const byId = (checks: CheckResult[], id: string): CheckResult => {
  const c = checks.find((x) => x.id === id);
  if (!c) throw new Error(`no result for ${id}`);
  return c;
};

/** One line per check, for assertion messages: "fail mcp-chat/sse/lf-only: <message>". */
export function explain(checks: CheckResult[], filter: (c: CheckResult) => boolean = () => true): string {
  return checks
    .filter(filter)
    .map((c) => `${c.verdict}/${c.outcome} ${c.id}: ${c.message}${c.evidence[0]?.excerpt ? `\n      evidence: ${c.evidence[0].excerpt}` : ""}`)
    .join("\n");
}

/** Runs `jobs` with at most `n` at a time. */
export async function pool<T>(jobs: (() => Promise<T>)[], n: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}
