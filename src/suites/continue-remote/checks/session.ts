/** §2 and §3.15 [cn]: the Session, its items and their tool call states. */
import { excerptJson, type CheckDef, type Evidence } from "../../../core/checks/check.js";
import { freshEntries } from "./messages.js";
import { canon, isObject, onStates, serverCheck, stateEvidence, TERMINAL, where, type Entry, type State } from "./support.js";
import { ownEntry } from "../../../core/checks/check-helpers.js";
import { listFirst } from "../../../core/list-text.js";

/** An entry's evidence, made once however many of its calls fail: it excerpts the whole entry, which may hold thousands. */
function evidenceOnce(s: State, e: Entry): () => Evidence {
  let made: Evidence | undefined;
  return () => (made ??= stateEvidence(s, e.raw));
}

const RANK: Record<string, number> = { generating: 0, generated: 1, calling: 2, done: 3, errored: 3, canceled: 3 };

export const SESSION_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/session/id-stable", { only: "cn" }, (t, ctx) => {
    let first: { id: unknown; where: string } | undefined;
    const observe = onStates(ctx, {
      state(next) {
        const id = next.sessionId;
        if (typeof id !== "string" || id === "")
          t.fail("a non-empty sessionId", `${where(next)}: sessionId ${JSON.stringify(id ?? null)}`, stateEvidence(next, id ?? null));
        else if (first && first.id !== id) {
          t.fail(`sessionId ${String(first.id)} (from ${first.where})`, `${where(next)}: sessionId ${id}`, stateEvidence(next, id));
          first = { id, where: where(next) };
        } else t.ok();
        first ??= { id, where: where(next) };
      },
    });
    return { observe, finish: () => t.outcome(`sessionId ${String(first?.id)} in all ${t.count} snapshot(s)`, "no snapshot was read") };
  }),
  serverCheck("continue-remote/session/tool-state-per-call", { only: "cn" }, (t, ctx) => {
    const observe = onStates(ctx, {
      state(next, prev) {
        for (const e of freshEntries(next, prev)) {
          if (!e.calls.length && !e.states.length) continue;
          // States counted by call id in one pass: an item may carry thousands of calls.
          const states = new Map<unknown, number>();
          for (const s of e.states) states.set(s.id, (states.get(s.id) ?? 0) + 1);
          const calls = new Set<unknown>(e.calls.map((c) => c.id));
          const problems: string[] = [];
          for (const c of e.calls) {
            const n = states.get(c.id) ?? 0;
            if (n !== 1) problems.push(`call ${c.id} has ${n} state(s)`);
          }
          for (const s of e.states) if (!calls.has(s.id)) problems.push(`state ${s.id} has no call`);
          if (problems.length) t.fail("one state per call", `${where(next)}: item ${e.index}: ${listFirst(problems)}`, stateEvidence(next, e.raw));
          else t.ok();
        }
      },
    });
    return { observe, finish: () => t.outcome(`${t.count} item version(s) paired every call with one state`, "no item with tool calls was seen") };
  }),
  serverCheck("continue-remote/session/tool-status-forward", { only: "cn" }, (t, ctx) => {
    const status = new Map<string, { status: string; where: string }>();
    const observe = onStates(ctx, {
      state(next) {
        for (const e of next.entries) {
          if (e.states.length === 0) continue;
          const proof = evidenceOnce(next, e);
          for (const s of e.states) {
            const before = status.get(s.id);
            status.set(s.id, { status: s.status, where: where(next) });
            if (!before || before.status === s.status) continue;
            const back = (ownEntry(RANK, s.status) ?? -1) < (ownEntry(RANK, before.status) ?? -1);
            if (back || TERMINAL.has(before.status))
              t.fail(
                `${s.id} to move forward from ${before.status}`,
                `${where(next)}: ${s.id} went ${before.status} → ${s.status} (was ${before.status} at ${before.where})`,
                proof(),
              );
            else t.ok();
          }
        }
      },
    });
    return { observe, finish: () => t.outcome(`${t.count} status change(s) moved forward`, "no tool status was seen to change") };
  }),
  serverCheck("continue-remote/session/tool-state-content", { only: "cn" }, (t, ctx) => {
    const goodOutput = (o: unknown) =>
      Array.isArray(o) &&
      o.length > 0 &&
      o.every((c) => isObject(c) && typeof c.content === "string" && typeof c.name === "string" && typeof c.description === "string");
    const observe = onStates(ctx, {
      state(next, prev) {
        for (const e of freshEntries(next, prev)) {
          if (e.states.length === 0) continue;
          const proof = evidenceOnce(next, e);
          const calls = new Map(e.calls.map((c) => [c.id, c]));
          for (const s of e.states) {
            const needs = s.status === "done" || s.status === "errored";
            if ((needs || (s.status === "canceled" && s.output !== undefined)) && !goodOutput(s.output)) {
              t.fail(
                "a non-empty output [{content, name, description}]",
                `${where(next)}: ${s.id} is ${s.status} with output ${excerptJson(s.output ?? null, 80)}`,
                proof(),
              );
            } else if (TERMINAL.has(s.status)) t.ok();
            const call = calls.get(s.id);
            if (!call) continue;
            let parsed: unknown;
            try {
              parsed = typeof call.arguments === "string" ? JSON.parse(call.arguments) : undefined;
            } catch {
              parsed = undefined;
            }
            if (!isObject(parsed))
              t.fail(
                "arguments that parse to an object",
                `${where(next)}: call ${call.id} has arguments ${excerptJson(call.arguments, 80)}`,
                proof(),
              );
            else if (canon(parsed) !== canon(s.parsedArgs))
              t.fail(
                "parsedArgs equal to the parsed arguments",
                `${where(next)}: call ${call.id}: arguments ${canon(parsed).slice(0, 60)} but parsedArgs ${canon(s.parsedArgs).slice(0, 60)}`,
                proof(),
              );
            else t.ok();
          }
        }
      },
    });
    return { observe, finish: () => t.outcome(`${t.count} tool state(s) and argument(s) were well-formed`, "no tool state was seen") };
  }),
  serverCheck("continue-remote/session/no-system-items", { only: "cn" }, (t, ctx) => {
    const observe = onStates(ctx, {
      state(next, prev) {
        for (const e of freshEntries(next, prev)) {
          if (e.role === "system")
            t.fail(
              "no system items",
              `${where(next)}: item ${e.index} is a system message ${JSON.stringify(e.content.slice(0, 60))}`,
              stateEvidence(next, e.raw),
            );
          else t.ok();
        }
      },
    });
    return { observe, finish: () => t.outcome(`none of ${t.count} item version(s) was a system item`, "no history item was seen") };
  }),
];
