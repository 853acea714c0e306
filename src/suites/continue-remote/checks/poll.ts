/** §3.17 Snapshot consistency: the history only grows, and entries change only as §3.17 allows. */
import type { CheckDef } from "../../../core/checks/check.js";
import { L } from "../labels.js";
import { all, excerpt, fixedOf, onExchanges, sameEntry, onStates, sameTool, serverCheck, stateEvidence, tookIt, where, type Entry, type State } from "./support.js";

/** Why `n` may not replace `p` at the same index, or undefined when §3.17 allows it. */
export function changeProblem(p: Entry, n: Entry, cn: boolean): string | undefined {
  if (sameEntry(p, n)) return undefined;
  if (cn) return fixedOf(p) === fixedOf(n) ? undefined : "its role, content or toolCalls changed";
  if (p.streaming) return n.role === "assistant" ? undefined : `a streaming entry became a ${n.role || "?"} entry`;
  if (p.kind === "tool-start") {
    if (n.kind === "tool-result" && sameTool(n.toolName, p.toolName)) return undefined;
    return n.kind === "tool-result" ? `a tool-start (${p.toolName}) became a result of ${n.toolName ?? "no tool"}` : `a tool-start became a ${n.kind} entry`;
  }
  return "a finished entry changed";
}

/**
 * May `e`, the last entry, vanish once after an interrupt or a pause (§3.17)? A streaming entry
 * (seed) or an empty assistant item (cn); an interrupt may also drop a trailing tool-start (§4).
 */
const mayVanish = (e: Entry, cn: boolean): boolean => (cn ? e.role === "assistant" && e.content === "" : e.streaming || e.kind === "tool-start");

export const POLL_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/poll/append-only", (t, ctx) => {
    let mayDrop = false;
    const observe = all(
      onExchanges((x) => {
        if (!tookIt(x)) return;
        if (x.label === L.pauseBusy && (x.json as { success?: unknown } | undefined)?.success === true) mayDrop = true;
        if (x.method === "POST" && (x.json as { willInterrupt?: unknown } | undefined)?.willInterrupt === true) mayDrop = true;
      }),
      onStates(ctx, {
        state(next, prev) {
          if (!prev) return;
          const drop = mayDrop;
          mayDrop = false;
          let base = prev.entries;
          const last = base.at(-1);
          if (drop && last && mayVanish(last, next.cn)) {
            const same = next.entries[last.index];
            if (!same || changeProblem(last, same, next.cn)) base = base.slice(0, -1);
          }
          const problem = compare(base, next);
          if (problem) t.fail(problem.expected, `${where(next)} after ${where(prev)}: ${problem.actual}`, stateEvidence(next, problem.what));
          else t.ok();
        },
      }),
    );
    return { observe, finish: () => t.outcome(`${t.count} consecutive snapshot pair(s) kept the history append-only`, "fewer than two snapshots were read") };
  }),
];

function compare(base: Entry[], next: State): { expected: string; actual: string; what: unknown } | undefined {
  if (next.entries.length < base.length) {
    return {
      expected: `at least ${base.length} entries`,
      actual: `the history shrank from ${base.length} to ${next.entries.length} entries`,
      what: next.entries.at(-1)?.raw ?? [],
    };
  }
  for (const p of base) {
    const n = next.entries[p.index]!;
    const why = changeProblem(p, n, next.cn);
    if (why) {
      return {
        expected: `entry ${p.index} unchanged (${excerpt(p.raw, 80)}) or changed as §3.17 allows`,
        actual: `entry ${p.index}: ${why} (now ${excerpt(n.raw, 80)})`,
        what: n.raw,
      };
    }
  }
  return undefined;
}
