/** Small views of a RunResult for assertions and readable failure messages. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ProtocolDef } from "../../src/core/run/protocol.js";
import type { CheckResult, RunResult } from "../../src/core/verdicts/result.js";
import { replayTranscript, runSuite, type SuiteOptions } from "../../src/core/run/runner.js";

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

/**
 * A suite run whose saved transcript is re-judged at once (`agentwire replay`); it throws when the
 * replay gives any check another verdict or message than the live run. Fault proofs run through it,
 * so every fault proof is also a proof that replay agrees with the live run, and that no violation told live
 * belongs to a check that did not fail in the end.
 */
export async function runReplayed(protocol: ProtocolDef, opts: SuiteOptions = {}, mustJudge: readonly string[] = []): Promise<RunResult> {
  // A check that could not judge because the kit itself was held up (a loaded machine), or a check a fault must trip
  // that the run never got to judge, proves nothing either way: the run is made again, up to twice.
  const idle = (c: CheckResult) => heldUp(c) || (c.outcome === "incomplete" && mustJudge.includes(c.id));
  let r = await runReplayedOnce(protocol, opts);
  for (let again = 0; again < 2 && r.checks.some(idle); again++) r = await runReplayedOnce(protocol, opts);
  return r;
}

const heldUp = (c: CheckResult): boolean => c.outcome === "incomplete" && c.message.includes("the kit itself was held up");

async function runReplayedOnce(protocol: ProtocolDef, opts: SuiteOptions): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), "agentwire-proof-"));
  try {
    const told = new Set<string>();
    const live = await runSuite(protocol, { ...opts, saveTranscript: dir, onViolation: (v) => void told.add(v.check) });
    // A violation told while the run goes on (--reporter ndjson prints it at once) must never be taken back.
    const takenBack = live.checks.filter((c) => told.has(c.id) && c.outcome !== "fail").map((c) => `${c.id}: ${c.verdict}/${c.outcome} ${c.message}`);
    if (takenBack.length) throw new Error(`${protocol.id}: violations were told live for checks that did not fail:\n${takenBack.join("\n")}`);
    const file = readdirSync(dir).find((f) => f.endsWith(".jsonl"));
    if (!file) throw new Error(`${protocol.id}: the run saved no transcript`);
    const replay = await replayTranscript(protocol, readFileSync(join(dir, file), "utf8"), { file });
    const line = (c: CheckResult) => `${c.verdict}/${c.outcome}: ${c.message}`;
    const liveById = new Map(live.checks.map((c) => [c.id, line(c)]));
    const differ = replay.checks.filter((c) => liveById.get(c.id) !== line(c)).map((c) => `${c.id}\n  live:   ${liveById.get(c.id)}\n  replay: ${line(c)}`);
    if (differ.length || replay.checks.length !== live.checks.length) throw new Error(`${protocol.id}: the replay disagrees with the live run:\n${differ.join("\n")}`);
    return live;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
