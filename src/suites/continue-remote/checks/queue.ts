/** §3.2 and §3.9: accepting messages, idle or busy; FIFO order; an honest willInterrupt. */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { isMessageLabel, NOTE, TOPIC } from "../labels.js";
import { forgetLost, MessageTracker, freshEntries } from "./messages.js";
import {
  all,
  describe,
  evidenceOf,
  excerpt,
  judgeExchanges,
  keyOf,
  loose,
  onNote,
  onStates,
  sentText,
  serverCheck,
  stateEvidence,
  where,
  type Exchange,
} from "./support.js";
import { StoppedTurns, turnStart } from "./turns.js";
import { listFirst } from "../../../core/list-text.js";

/** The probes' "sending" notes: whether each valid message went out while the server was busy. */
function sentWhileBusy(fn: (busy: Map<string, boolean>) => void) {
  const busy = new Map<string, boolean>();
  fn(busy);
  return onNote(NOTE.sending, (v) => {
    const n = v as { label?: unknown; busy?: unknown } | null;
    if (n && typeof n.label === "string") busy.set(n.label, n.busy === true);
  });
}

const INTERRUPT_TOLERANCE_MS = 2000;

export const MESSAGE_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/message/accepted-shape", (t, ctx) => {
    let busy = new Map<string, boolean>();
    const observe = all(
      sentWhileBusy((m) => (busy = m)),
      judgeExchanges(
        t,
        (x) => isMessageLabel(x.label) && busy.get(x.label) === false,
        (x) => {
          const r = x.status === 200 && x.isJson ? ctx.validate("message-response", x.json) : undefined;
          if (r?.ok) t.ok();
          else
            t.fail(
              "200 {queued:true, position ≥ 1}",
              `${describe(x)} (${x.label}): ${r ? formatSchemaErrors(r.errors) : x.status === 200 ? "not JSON" : `status ${x.status}`}`,
              evidenceOf(x),
            );
        },
      ),
    );
    return {
      observe,
      finish: () => t.outcome(`${t.count} message(s) sent while idle were accepted with a valid body`, "no valid message was sent while idle"),
    };
  }),
  serverCheck("continue-remote/queue/position-while-processing", (t) => {
    let busy = new Map<string, boolean>();
    const observe = all(
      sentWhileBusy((m) => (busy = m)),
      judgeExchanges(
        t,
        (x) => isMessageLabel(x.label) && busy.get(x.label) === true,
        (x) => {
          const position = (x.json as { position?: unknown } | undefined)?.position;
          if (x.status === 200 && typeof position === "number" && Number.isInteger(position) && position >= 1) t.ok();
          else
            t.fail(
              "200 with position ≥ 1",
              `${describe(x)} (${x.label}) sent while busy: ${x.status === 200 ? `position ${JSON.stringify(position)}` : `status ${x.status}`}`,
              evidenceOf(x),
            );
        },
      ),
    );
    return { observe, finish: () => t.outcome(`${t.count} message(s) sent while busy were queued`, "no message was sent while the server was busy") };
  }),
  serverCheck("continue-remote/queue/fifo", (t, ctx) => {
    const tr = new MessageTracker();
    const stopped = new StoppedTurns();
    const observe = all(
      tr.observe,
      stopped.observe,
      onStates(ctx, {
        state(next, prev) {
          stopped.seen(next, prev);
          const started = tr.started(next, prev, true);
          for (const lost of forgetLost(tr, next)) t.knockOn("continue-remote/processing/message-not-lost", `${lost.x.label} (${lost.x.id})`);
          for (const s of started) {
            // An entry recognised by order alone says nothing about the order.
            if (!s.msg || s.fallback) continue;
            if (s.overtook > 0) {
              t.fail(
                `the oldest waiting message first`,
                `${where(next)}: ${JSON.stringify(s.msg.text.slice(0, 40))} (${s.msg.x.label}) started before ${s.overtook} message(s) accepted earlier`,
                stateEvidence(next, s.entry.raw),
              );
              continue;
            }

            const before = next.entries[s.entry.index - 1];
            const previousTurn = turnStart(next.entries, s.entry.index - 1);
            const open =
              before &&
              previousTurn >= 0 &&
              !s.msg.willInterrupt &&
              !stopped.turns.has(previousTurn) &&
              (before.streaming || before.kind === "tool-start" || before.states.some((st) => ["generating", "generated", "calling"].includes(st.status)));
            if (open)
              t.fail(
                "the previous turn ended before the next user entry",
                `${where(next)}: ${s.msg.x.label}'s user entry appeared while entry ${before.index} was still ${before.streaming ? "streaming" : "unresolved"}`,
                stateEvidence(next, before.raw),
              );
            else t.ok();
          }
        },
      }),
    );
    return { observe, finish: () => t.outcome(`${t.count} message(s) started in POST order`, "no posted message was seen to start") };
  }),
  serverCheck("continue-remote/queue/will-interrupt-honoured", { only: "seed", notApplicableWhen: [TOPIC.willInterrupt] }, (t, ctx) => {
    /**
     * `base`: the history's length in the first poll sent after the answer. An entry a poll sent earlier did not
     * show may have come before the server read the message (a poll is a snapshot, not a log); only an entry
     * beyond `base` is certainly the turn's after the interrupt.
     */
    let watch:
      | { x: Exchange; text: string; answered: number; base?: number; deadline: number; found?: { index: number; keys: string[] } }
      | undefined;
    const observe = all(
      judgeExchanges(
        t,
        (x) => x.method === "POST" && isMessageLabel(x.label) && (x.json as { willInterrupt?: unknown } | undefined)?.willInterrupt === true,
        (x) => {
          const text = sentText(x);
          const answered = (x.end ?? x.request).t;
          if (text !== undefined) watch = { x, text, answered, deadline: answered + INTERRUPT_TOLERANCE_MS };
        },
      ),
      onStates(ctx, {
        state(next, prev) {
          const w = watch;
          if (!w) return;
          if (!w.found) {
            const entry = freshEntries(next, prev).find((e) => e.kind === "user" && loose(e.content) === loose(w.text));
            const sentAfter = next.x.request.t >= w.answered;
            if (entry) {
              // Entries of the interrupted turn after the answer (another message's turn that started meanwhile aside).
              const from = Math.max(w.base ?? entry.index, turnStart(next.entries, entry.index - 1) + 1);
              const went = next.entries.slice(from, entry.index).filter((e) => e.kind !== "tool-error");
              if (went.length) {
                t.fail(
                  "no new entry of the interrupted turn",
                  `${where(next)}: after willInterrupt:true (${w.x.label}) the turn appended ${listFirst(went, (e) => `${e.kind} ${excerpt(e.content, 30)}`)} before the new message ran`,
                  stateEvidence(next, went[0]!.raw),
                );
                watch = undefined;
                return;
              }
              w.found = { index: entry.index, keys: next.entries.slice(0, entry.index).map(keyOf) };
              t.ok();
            } else if (sentAfter && w.base === undefined) {
              w.base = next.entries.length;
            }
            if (!entry && next.at > w.deadline) {
              t.fail(
                `the new message's user entry within ${INTERRUPT_TOLERANCE_MS} ms`,
                `${where(next)}: ${Math.round(next.at - w.deadline + INTERRUPT_TOLERANCE_MS)} ms after willInterrupt:true (${w.x.label}) its user entry has not appeared`,
                stateEvidence(next, next.entries.at(-1)?.raw),
              );
              watch = undefined;
            }
            return;
          }
          const changed = w.found.keys.findIndex((k, i) => next.entries[i] === undefined || keyOf(next.entries[i]!) !== k);
          if (changed >= 0) {
            t.fail(
              "the interrupted turn frozen",
              `${where(next)}: entry ${changed} of the interrupted turn changed after the new message started`,
              stateEvidence(next, next.entries[changed]?.raw),
            );
            watch = undefined;
          }
        },
      }),
    );
    return {
      observe,
      finish: () => t.outcome(`${t.count} interrupt(s) stopped the turn and ran the new message`, "no message was answered with willInterrupt:true"),
    };
  }),
];
