/** §3.14 `/pause` [cn]: a no-op while idle; while busy it stops the turn. */
import type { CheckDef } from "../../../core/checks/check.js";
import { formatSchemaErrors } from "../../../core/schemas/schema-registry.js";
import { L, PHASE, TOPIC } from "../labels.js";
import { notAnEnding } from "./turns.js";
import {
  all,
  answeredAt,
  describe,
  evidenceOf,
  excerpt,
  onExchanges,
  onPolls,
  onStates,
  serverCheck,
  stateChange,
  stateEvidence,
  stateOf,
  where,
  type Exchange,
  type RawSnapshot,
  type State,
} from "./support.js";

/** §4 pause/semantics: the turn stops within 1 s. */
const STOP_MS = 1000;

export const PAUSE_CHECKS: CheckDef[] = [
  serverCheck("continue-remote/pause/semantics", { only: "cn", notApplicableWhen: [TOPIC.pause] }, (t, ctx) => {
    let before: RawSnapshot | undefined;
    let idleAnswer: Exchange | undefined;
    let last: State | undefined;
    let busy: { x: Exchange; base: State; stopped?: State } | undefined;
    let raced: Exchange | undefined;
    let stoppedOne = false;
    // A stop seen only in a snapshot answered late cannot be timed: the turn stopped some time
    // between the last busy poll's request and this answer, which straddles the deadline.
    let untimed: string | undefined;
    const shape = (x: Exchange, success: boolean): boolean => {
      const r = x.status === 200 && x.isJson ? ctx.validate("cn-session/pause-response", x.json) : undefined;
      const got = (x.json as { success?: unknown } | undefined)?.success;
      if (r?.ok && got === success) return true;
      t.fail(
        `200 {success:${success}, message}`,
        `${describe(x)} (${x.label})${r && !r.ok ? `: ${formatSchemaErrors(r.errors)}` : `: success ${JSON.stringify(got)}`}`,
        evidenceOf(x),
      );
      return false;
    };
    const observe = all(
      onExchanges((x) => {
        if (x.label === L.pauseIdle && x.status !== undefined) {
          if (shape(x, false)) idleAnswer = x;
        }
        if (x.label === L.pauseBusy && x.status !== undefined && last) {
          // success:false may be honest: the turn can end between the kit's poll and its pause.
          if (x.status === 200 && (x.json as { success?: unknown } | undefined)?.success === false) raced = x;
          else if (shape(x, true)) busy = { x, base: last };
        }
      }),
      onPolls({
        snapshot(raw, n) {
          if (raw.x.label === L.poll(PHASE.beforePause)) before = raw;
          if (raw.x.label !== L.poll(PHASE.afterPause) || !before || !idleAnswer) return;
          if (stateOf(raw, true) === stateOf(before, true)) t.ok();
          else
            t.fail(
              "no change from POST /pause while idle",
              `${where({ n, x: raw.x })}: ${stateChange(before, raw, true)}`,
              stateEvidence(raw, excerpt(raw.json)),
            );
          idleAnswer = undefined;
        },
      }),
      onStates(ctx, {
        state(next) {
          if (raced) {
            const x = raced;
            raced = undefined;
            if (!next.isProcessing && !notAnEnding(next.entries.at(-1), true)) t.notApplicable("the turn had already ended when POST /pause arrived (success:false)");
            else shape(x, true);
          }
          last = next;
          const b = busy;
          if (!b) return;
          const paused = answeredAt(b.x);
          // A snapshot describes the server at some moment between its request and its answer.
          const since = next.at - paused;
          const sinceAsked = next.x.request.t - paused;
          const started = next.entries.slice(b.base.entries.length).some((e) => e.kind === "user");
          // The paused turn's reply: an assistant item without toolCalls appended after the pause, before any new user entry.
          const reply = next.entries
            .slice(b.base.entries.length)
            .find((e, i, rest) => e.role === "assistant" && e.calls.length === 0 && !rest.slice(0, i).some((r) => r.kind === "user"));
          if (reply) {
            t.fail(
              "no reply to the paused turn",
              `${where(next)}: the paused turn went on to ${excerpt(reply.content, 50)} after ${b.x.label} answered success:true`,
              stateEvidence(next, reply.raw),
            );
            busy = undefined;
          } else if (!b.stopped && (!next.isProcessing || started)) {
            b.stopped = next;
            stoppedOne = since <= STOP_MS;
            if (since <= STOP_MS) t.ok();
            else untimed ??= `${where(next)} showed the paused turn stopped, but was answered ${Math.round(since)} ms after the pause (asked after ${Math.round(sinceAsked)} ms): GET /state answered too slowly to time the ${STOP_MS} ms stop`;
          } else if (!b.stopped && sinceAsked > STOP_MS) {
            // Asked for after the deadline and still busy: certainly late.
            t.fail(
              `isProcessing false within ${STOP_MS} ms`,
              `${where(next)}: still busy when asked ${Math.round(sinceAsked)} ms after ${b.x.label} answered success:true`,
              stateEvidence(next),
            );
            busy = undefined;
          } else if (b.stopped && started) busy = undefined;
        },
      }),
    );
    return {
      observe,
      finish: () => {
        if (untimed && t.failures === 0) return { verdict: "incomplete", notExercised: true, message: `not exercised: ${untimed}` };
        return t.outcome(stoppedOne ? "POST /pause did nothing while idle and stopped the running turn" : "POST /pause did nothing while idle (no running turn was paused)", "POST /pause was not answered");
      },
    };
  }),
];
