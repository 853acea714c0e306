/** §3.3, §3.8 and §3.16: accepted messages run, `isProcessing` tells the truth, turns end properly. */
import type { CheckDef } from "../../../core/checks/check.js";
import { L, NOTE } from "../labels.js";
import { readParams } from "../params.js";
import { forgetLost, MessageTracker, type Accepted } from "./messages.js";
import {
  all,
  excerpt,
  onExchanges,
  onNote,
  onStates,
  openSigns,
  TERMINAL,
  UNSETTLED,
  serverCheck,
  stateEvidence,
  tookIt,
  where,
  type State,
} from "./support.js";
import { IdleWatch, notAnEnding, openTurnSigns, StoppedTurns, turnStart } from "./turns.js";

/** Stops a check's judging once POST /exit was accepted (the queue is then cleared on purpose). */
function afterExit(off: () => void) {
  return onExchanges((x) => {
    if (x.label === L.postExit && tookIt(x)) off();
  });
}

export const PROCESSING_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/processing/message-not-lost", (t, ctx) => {
    const tr = new MessageTracker();
    let exited = false;
    /** The oldest waiting message, missing from one idle snapshot: lost when the next poll is idle without it too. */
    let suspect: Accepted | undefined;
    const observe = all(
      tr.observe,
      afterExit(() => (exited = true)),
      onStates(ctx, {
        state(next, prev) {
          for (const s of tr.started(next, prev, true)) if (s.msg && !s.fallback) t.ok();
          if (exited || tr.waiting.length === 0 || next.isProcessing || (next.queue ?? 0) >= 1) {
            suspect = undefined;
            return;
          }
          // A server may dequeue a moment after answering the POST: one idle poll is not yet a loss.
          if (suspect !== tr.waiting[0]) {
            suspect = tr.waiting[0];
            return;
          }
          suspect = undefined;
          const lost = tr.waiting.shift()!;
          t.fail(
            `isProcessing true or a queue ≥ 1 until the user entry of ${JSON.stringify(lost.text.slice(0, 40))} appears`,
            `${where(next)}: idle, messageQueueLength ${next.queue ?? "absent"}, and no user entry for the message accepted by ${lost.x.label} (${lost.x.id})`,
            stateEvidence(next, { isProcessing: next.isProcessing, messageQueueLength: next.queue, entries: next.entries.length }),
          );
        },
      }),
    );
    return { observe, finish: () => t.outcome(`each of ${t.count} accepted message(s) got its user entry`, "no accepted message was followed by snapshots") };
  }),
  serverCheck("continue-remote/processing/true-while-handling", (t, ctx) => {
    let after: State | undefined;
    const watch = new IdleWatch<string[]>((fate, s, signs) => {
      if (fate === "went-on")
        t.fail(
          `isProcessing true while ${signs[0]}`,
          `${where(s)} said isProcessing:false while ${signs.join(", ")}, and the turn went on (${after ? where(after) : "later"})`,
          stateEvidence(s, { isProcessing: false, last: s.entries.at(-1)?.raw }),
        );
    });
    const observe = all(
      watch.observe,
      onStates(ctx, {
        state(next) {
          after = next;
          watch.next(next);
          const signs = openTurnSigns(next);
          if (next.isProcessing && signs.length) t.ok();
          else if (!next.isProcessing && signs.length) watch.hold(next, signs);
        },
      }),
    );
    return {
      observe,
      finish: () => (watch.finish(), t.outcome(`${t.count} snapshot(s) of an open turn said isProcessing:true`, "no snapshot showed a turn in progress")),
    };
  }),
  serverCheck("continue-remote/processing/false-when-done", (t, ctx) => {
    const limit = readParams(ctx.params).turnTimeoutMs;
    let busySince: State | undefined;
    const observe = all(
      onNote(NOTE.turnTimeout, (v) => {
        const n = v as { phase?: unknown; waitedMs?: unknown };
        t.fail(
          `isProcessing false within ${limit} ms`,
          `the ${String(n.phase)} phase still saw isProcessing:true after ${String(n.waitedMs)} ms${busySince ? ` (busy since ${where(busySince)})` : ""}`,
        );
        busySince = undefined;
      }),
      onStates(ctx, {
        state(next) {
          if (next.isProcessing) {
            busySince ??= next;
            return;
          }
          if (!busySince) return;
          const took = next.at - busySince.at;
          if (took <= limit) t.ok();
          else
            t.failLate(next.at, took - limit, `isProcessing false within ${limit} ms`, `busy from ${where(busySince)} to ${where(next)}: ${Math.round(took)} ms`, stateEvidence(next));
          busySince = undefined;
        },
      }),
    );
    return { observe, finish: () => t.outcome(`${t.count} busy period(s) ended within ${limit} ms`, "no busy period was seen to end") };
  }),
  serverCheck("continue-remote/processing/idle-invariants", (t, ctx) => {
    /** Tool calls once seen terminal: one shown unsettled again regressed (session/tool-status-forward). */
    const ended = new Set<string>();
    const judge = (s: State) => {
      const regressed = s.entries.flatMap((e) => e.states).find((st) => UNSETTLED.has(st.status) && ended.has(st.id));
      if (regressed) {
        t.knockOn("continue-remote/session/tool-status-forward", `${where(s)}, ${regressed.id}`);
        return;
      }
      const signs = openSigns(s);
      if (s.queue !== undefined && s.queue > 0) signs.push(`messageQueueLength is ${s.queue}`);
      if (signs.length)
        t.fail(
          "an idle snapshot with nothing in progress",
          `${where(s)}: isProcessing:false while ${signs.join(", ")}`,
          stateEvidence(s, s.entries.at(-1)?.raw),
        );
      else t.ok();
    };
    const watch = new IdleWatch<null>((fate, s) => {
      if (fate === "settled") judge(s);
    });
    const observe = all(
      watch.observe,
      onStates(ctx, {
        state(next) {
          watch.next(next);
          for (const e of next.entries) for (const st of e.states) if (TERMINAL.has(st.status)) ended.add(st.id);
          if (!next.isProcessing) watch.hold(next, null);
        },
      }),
    );
    return {
      observe,
      finish: () => {
        watch.finish();
        return t.outcome(`${t.count} settled idle snapshot(s) showed nothing in progress`, "no idle snapshot was seen");
      },
    };
  }),
  serverCheck("continue-remote/processing/user-entry-verbatim", (t, ctx) => {
    const tr = new MessageTracker();
    const observe = all(
      tr.observe,
      onStates(ctx, {
        state(next, prev) {
          const started = tr.started(next, prev, true);
          forgetLost(tr, next);
          for (const s of started) {
            if (!s.msg) continue;
            if (s.exact) t.ok();
            else
              t.fail(
                `the user entry ${excerpt(s.msg.text, 60)}`,
                `${where(next)}: entry ${s.entry.index} reads ${excerpt(s.entry.content, 60)} for the message sent by ${s.msg.x.label}`,
                stateEvidence(next, s.entry.raw),
              );
          }
        },
      }),
    );
    return { observe, finish: () => t.outcome(`${t.count} user entr(y/ies) matched the posted text exactly`, "no posted message's user entry was seen") };
  }),
  serverCheck("continue-remote/processing/turn-ends-with-assistant", (t, ctx) => {
    const stopped = new StoppedTurns();
    const judged = new Set<number>();
    let stoppedCount = 0;
    const judge = (s: State, start: number, end: number) => {
      if (start < 0 || judged.has(start)) return;
      judged.add(start);
      if (stopped.turns.has(start)) {
        stoppedCount++;
        return;
      }
      const why = end > start ? notAnEnding(s.entries[end], s.cn) : notAnEnding(s.entries[start], s.cn);
      if (why)
        t.fail("a non-empty assistant entry ending the turn", `${where(s)}: the turn of user entry ${start}: ${why}`, stateEvidence(s, s.entries[end]?.raw));
      else t.ok();
    };
    const watch = new IdleWatch<null>((fate, s) => {
      if (fate === "settled") judge(s, turnStart(s.entries), s.entries.length - 1);
    });
    const observe = all(
      stopped.observe,
      watch.observe,
      onStates(ctx, {
        state(next, prev) {
          watch.next(next);
          stopped.seen(next, prev);
          for (const e of next.entries) {
            if (e.kind !== "user" || (prev && prev.entries[e.index]?.kind === "user")) continue;
            if (e.index > 0) judge(next, turnStart(next.entries, e.index - 1), e.index - 1);
          }
          if (!next.isProcessing) watch.hold(next, null);
        },
      }),
    );
    return {
      observe,
      finish: () => {
        watch.finish();
        const note = stoppedCount ? `; ${stoppedCount} paused or interrupted turn(s) exempt` : "";
        return t.outcome(`${t.count} turn(s) ended with a non-empty assistant entry${note}`, `no turn was seen to end${note}`);
      },
    };
  }),
];
