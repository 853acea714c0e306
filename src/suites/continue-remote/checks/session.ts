/** §2 and §3.15 [cn]: the Session, its items and their tool call states. */
import type { CheckDef } from "../../../core/checks/check.js";
import { freshEntries } from "./messages.js";
import { canon, isObject, onStates, serverCheck, stateEvidence, Tally, TERMINAL, where } from "./support.js";

const RANK: Record<string, number> = { generating: 0, generated: 1, calling: 2, done: 3, errored: 3, canceled: 3 };

export const SESSION_CHECKS: CheckDef[] = [
  serverCheck({
    id: "continue-remote/session/id-stable",
    level: "MUST",
    only: "cn",
    title: "sessionId is non-empty and constant",
    rule: "[cn] `session.sessionId` is a non-empty string and the same in every snapshot.",
    ref: ["§3.17 Snapshot consistency", "A new `sessionId` is judged by `session/id-stable` only."],
    probes: ["every poll"],
    create(ctx) {
      const t = new Tally();
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
    },
  }),
  serverCheck({
    id: "continue-remote/session/tool-state-per-call",
    level: "MUST",
    only: "cn",
    title: "One tool state per tool call, and no other",
    rule: "[cn] In each item, every `toolCalls[].id` has exactly one `toolCallStates` entry with that `toolCallId`, and every state belongs to one of its calls.",
    ref: ["§2 Messages", "In cn-session a tool call is `toolCalls[i]` on an assistant item, paired with the `toolCallStates` entry that has the same id."],
    probes: ["turn", "queue"],
    create(ctx) {
      const t = new Tally();
      const observe = onStates(ctx, {
        state(next, prev) {
          for (const e of freshEntries(next, prev)) {
            if (!e.calls.length && !e.states.length) continue;
            const problems: string[] = [];
            for (const c of e.calls) {
              const n = e.states.filter((s) => s.id === c.id).length;
              if (n !== 1) problems.push(`call ${c.id} has ${n} state(s)`);
            }
            for (const s of e.states) if (!e.calls.some((c) => c.id === s.id)) problems.push(`state ${s.id} has no call`);
            if (problems.length) t.fail("one state per call", `${where(next)}: item ${e.index}: ${problems.join(", ")}`, stateEvidence(next, e.raw));
            else t.ok();
          }
        },
      });
      return { observe, finish: () => t.outcome(`${t.count} item version(s) paired every call with one state`, "no item with tool calls was seen") };
    },
  }),
  serverCheck({
    id: "continue-remote/session/tool-status-forward",
    level: "MUST",
    only: "cn",
    title: "Tool status only moves forward",
    rule: "[cn] A tool call's status only moves forward (generating → generated → calling → done|errored|canceled), and a terminal status never changes.",
    ref: ["§3.15 cn turn", "Its tool states change in place: `generated` → `calling` → `done`, `errored` or `canceled`, gaining `output`."],
    probes: ["turn", "queue"],
    create(ctx) {
      const t = new Tally();
      const status = new Map<string, { status: string; where: string }>();
      const observe = onStates(ctx, {
        state(next) {
          for (const e of next.entries) {
            for (const s of e.states) {
              const before = status.get(s.id);
              status.set(s.id, { status: s.status, where: where(next) });
              if (!before || before.status === s.status) continue;
              const back = (RANK[s.status] ?? -1) < (RANK[before.status] ?? -1);
              if (back || TERMINAL.has(before.status))
                t.fail(
                  `${s.id} to move forward from ${before.status}`,
                  `${where(next)}: ${s.id} went ${before.status} → ${s.status} (was ${before.status} at ${before.where})`,
                  stateEvidence(next, e.raw),
                );
              else t.ok();
            }
          }
        },
      });
      return { observe, finish: () => t.outcome(`${t.count} status change(s) moved forward`, "no tool status was seen to change") };
    },
  }),
  serverCheck({
    id: "continue-remote/session/tool-state-content",
    level: "SHOULD",
    only: "cn",
    title: "Terminal states carry output; arguments parse to parsedArgs",
    rule: "[cn] A `done` or `errored` state has a non-empty `output` of `{content, name, description}` (a `canceled` one, if it has output, the same shape), and each call's `arguments` is JSON that equals its state's `parsedArgs`.",
    ref: [
      "§2 Messages",
      "ToolCallState | `tool-call-state.schema.json` | `toolCallId`; `toolCall`; `status`; `parsedArgs`: object; `output`?: `[{content, name, description}]`",
    ],
    probes: ["turn", "queue"],
    create(ctx) {
      const t = new Tally();
      const goodOutput = (o: unknown) =>
        Array.isArray(o) &&
        o.length > 0 &&
        o.every((c) => isObject(c) && typeof c.content === "string" && typeof c.name === "string" && typeof c.description === "string");
      const observe = onStates(ctx, {
        state(next, prev) {
          for (const e of freshEntries(next, prev)) {
            for (const s of e.states) {
              const needs = s.status === "done" || s.status === "errored";
              if ((needs || (s.status === "canceled" && s.output !== undefined)) && !goodOutput(s.output)) {
                t.fail(
                  "a non-empty output [{content, name, description}]",
                  `${where(next)}: ${s.id} is ${s.status} with output ${JSON.stringify(s.output ?? null).slice(0, 80)}`,
                  stateEvidence(next, e.raw),
                );
              } else if (TERMINAL.has(s.status)) t.ok();
              const call = e.calls.find((c) => c.id === s.id);
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
                  `${where(next)}: call ${call.id} has arguments ${JSON.stringify(call.arguments).slice(0, 80)}`,
                  stateEvidence(next, e.raw),
                );
              else if (canon(parsed) !== canon(s.parsedArgs))
                t.fail(
                  "parsedArgs equal to the parsed arguments",
                  `${where(next)}: call ${call.id}: arguments ${canon(parsed).slice(0, 60)} but parsedArgs ${canon(s.parsedArgs).slice(0, 60)}`,
                  stateEvidence(next, e.raw),
                );
              else t.ok();
            }
          }
        },
      });
      return { observe, finish: () => t.outcome(`${t.count} tool state(s) and argument(s) were well-formed`, "no tool state was seen") };
    },
  }),
  serverCheck({
    id: "continue-remote/session/no-system-items",
    level: "SHOULD",
    only: "cn",
    title: "No system items in the history",
    rule: '[cn] No history item has `message.role:"system"` (the system prompt stays private).',
    ref: ["§3.15 cn turn", "System items are filtered out, and `session.usage` accumulates."],
    probes: ["every poll"],
    create(ctx) {
      const t = new Tally();
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
    },
  }),
];
