/** §2 and §3.4–3.6 [seed]: tool-start, -result and -error entries, their names and how starts resolve. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { freshEntries } from "./messages.js";
import { IdleWatch } from "./turns.js";
import { all, NAME_TABLE, onStates, sameTool, serverCheck, stateEvidence, toolLabel, where, type Entry, type State } from "./support.js";
import { ownEntry } from "../../../core/checks/check-helpers.js";
import { listFirst } from "../../../core/list-text.js";

const VARIANT: Record<string, string> = { "tool-start": "tool-start-entry", "tool-result": "tool-result-entry", "tool-error": "tool-error-entry" };

export const TOOLS_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/tools/entry-format", { only: "seed" }, (t, ctx) => {
    const kinds = new Map<string, number>();
    const observe = onStates(ctx, {
      state(next, prev) {
        for (const e of freshEntries(next, prev)) {
          const variant = VARIANT[e.kind];
          if (!variant) continue;
          kinds.set(e.kind, (kinds.get(e.kind) ?? 0) + 1);
          const r = ctx.validate(variant, e.raw);
          if (r.ok) t.ok();
          else
            t.fail(
              `entry ${e.index} a valid ${variant}`,
              `${where(next)}: ${e.kind} entry ${e.index}: ${formatSchemaErrors(r.errors)}`,
              stateEvidence(next, e.raw),
            );
        }
      },
    });
    return {
      observe,
      finish: () => t.outcome(`every tool entry validated its variant (${[...kinds].map(([k, n]) => `${k} ×${n}`).join(", ")})`, "no tool entry was seen"),
    };
  }),
  serverCheck("continue-remote/tools/result-legacy-content", { only: "seed" }, (t, ctx) => {
    const observe = onStates(ctx, {
      state(next, prev) {
        for (const e of freshEntries(next, prev)) {
          if (e.kind !== "tool-result") continue;
          const label = toolLabel(e.content);
          if (label && label.arg === undefined)
            t.fail("`● <Display>(<arg>)`", `${where(next)}: entry ${e.index} is the legacy ${JSON.stringify(e.content)}`, stateEvidence(next, e.raw));
          else t.ok();
        }
      },
    });
    return { observe, finish: () => t.outcome(`every tool-result (${t.count}) repeats its argument`, "no tool-result was seen") };
  }),
  serverCheck("continue-remote/tools/name-map", { only: "seed" }, (t, ctx) => {
    const unknown = new Set<string>();
    const observe = onStates(ctx, {
      state(next, prev) {
        for (const e of freshEntries(next, prev)) {
          if (e.kind !== "tool-start" && e.kind !== "tool-result") continue;
          const display = toolLabel(e.content)?.display;
          if (display === undefined) continue;
          const want = ownEntry(NAME_TABLE, display);
          if (want === undefined) {
            unknown.add(`${excerpt(display)} → ${excerpt(e.toolName ?? "(none)")}`);
            continue;
          }
          if (e.toolName === want) t.ok();
          else
            t.fail(
              `toolName "${want}" for ${display}`,
              `${where(next)}: ${e.kind} entry ${e.index} ${JSON.stringify(e.content.slice(0, 40))} has toolName ${JSON.stringify(e.toolName ?? null)}`,
              stateEvidence(next, e.raw),
            );
        }
      },
    });
    const listed = () => (unknown.size ? `; outside the table: ${listFirst(unknown)}` : "");
    return {
      observe,
      finish: () => {
        const o = t.outcome(
          `every tool entry of a table tool (${t.count}) carried its table name${listed()}`,
          `no tool entry of a table tool was seen${listed()}`,
        );
        return o;
      },
    };
  }),
  serverCheck("continue-remote/tools/start-resolves", { only: "seed" }, (t, ctx) => {
    /** Starts seen and not yet judged resolved, by index. */
    const open = new Map<number, { entry: Entry; at: State }>();
    /** Indices already judged (a start stays in place once its result follows it). */
    const judged = new Set<number>();
    /** An idle snapshot with an unresolved start last fails once settled; if its turn went on, isProcessing lied (true-while-handling's). */
    const watch = new IdleWatch<{ i: number; start: Entry }>((fate, s, { i, start }) => {
      if (fate === "went-on") t.knockOn("continue-remote/processing/true-while-handling", where(s));
      else
        t.fail(
          `the unresolved start at ${i} (${JSON.stringify(start.content)}) last with isProcessing true`,
          `${where(s)}: isProcessing false while it is unresolved, and the turn did not go on`,
          stateEvidence(s, start.raw),
        );
    });
    const observe = all(
      watch.observe,
      onStates(ctx, {
        state(next) {
          watch.next(next);
          for (const e of next.entries) if (e.kind === "tool-start" && !open.has(e.index) && !judged.has(e.index)) open.set(e.index, { entry: e, at: next });
          for (const [i, { entry: start, at: first }] of open) {
            const now = next.entries[i];
            const after = next.entries[i + 1];
            if (!now) {
              open.delete(i);
              continue;
            }
            if (now.kind !== "tool-start" || after || !next.isProcessing) judged.add(i);
            if (now.kind === "tool-result" && (sameTool(now.toolName, start.toolName) || start.toolName === undefined)) {
              open.delete(i);
              t.ok();
            } else if (now.kind !== "tool-start") {
              // Rewritten into something that is not its result: poll/append-only judges the change.
              open.delete(i);
            } else if (after) {
              open.delete(i);
              const pairs =
                (after.kind === "tool-result" || after.kind === "tool-error") && (after.toolName === undefined || sameTool(after.toolName, start.toolName));
              if (pairs) t.ok();
              else
                t.fail(
                  `entry ${i + 1} the tool-result or tool-error of ${JSON.stringify(start.content)} (toolName ${start.toolName ?? "none"})`,
                  `${where(next)}: the start at ${i} (seen first at ${where(first)}) is followed by a ${after.kind} entry ${JSON.stringify(after.content.slice(0, 60))}${after.toolName ? ` (toolName ${after.toolName})` : ""}`,
                  stateEvidence(next, after.raw),
                );
            } else if (!next.isProcessing) {
              open.delete(i);
              watch.hold(next, { i, start });
            }
          }
        },
      }),
    );
    return {
      observe,
      finish: () => {
        watch.finish();
        return t.outcome(`every tool-start (${t.count}) resolved as §3.5 says`, "no tool-start was seen resolve");
      },
    };
  }),
  serverCheck("continue-remote/tools/result-pairs-start", { only: "seed" }, (t, ctx) => {
    let unseen = 0;
    const observe = onStates(ctx, {
      state(next, prev) {
        for (const e of freshEntries(next, prev)) {
          if (e.kind !== "tool-result") continue;
          const before = next.entries[e.index - 1];
          const replaced = prev?.entries[e.index];
          const start = replaced?.kind === "tool-start" ? replaced : before?.kind === "tool-start" ? before : undefined;
          if (!start) {
            unseen++;
            continue;
          }
          const s = toolLabel(start.content);
          const r = toolLabel(e.content);
          if (!s || !r) {
            // Content that is no `○ T(arg)` / `● T(arg)` at all is tools/entry-format's failure.
            t.knockOn("continue-remote/tools/entry-format", `${where(next)}, entry ${s ? e.index : start.index}`);
            continue;
          }
          const ok = !!s && !!r && s.display === r.display && (r.arg === undefined || r.arg === s.arg);
          if (ok) t.ok();
          else
            t.fail(
              `a result repeating ${JSON.stringify(start.content.replace(/^○/, "●"))}`,
              `${where(next)}: entry ${e.index} ${JSON.stringify(e.content.slice(0, 60))} answers the start ${JSON.stringify(start.content.slice(0, 60))}`,
              stateEvidence(next, e.raw),
            );
        }
      },
    });
    return {
      observe,
      finish: () =>
        t.outcome(
          `every tool-result with a seen start (${t.count}) repeated it${unseen ? `; ${unseen} result(s) whose start fell between polls were not judged` : ""}`,
          unseen ? `${unseen} tool-result(s) appeared without a start the poller saw` : "no tool-result was seen",
        ),
    };
  }),
];

