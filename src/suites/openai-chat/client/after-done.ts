/**
 * `openai-chat/client/finishes-after-done`: a client must not wait for the server to close the
 * connection once `[DONE]` arrived. Judged from the mock's side, on streams the mock holds open
 * after `[DONE]` (the hold-open-after-done fault, the open-after-done framing): the client either
 * closes the connection or sends its next request, promptly.
 */
import { at, Violations, type CheckDef, type CheckObserver, type Evidence } from "../../../core/checks/check.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { AFTER_DONE_NOTE } from "../../../mocks/openai-chat/after-done.js";
import { isCompletionRequest } from "./traffic-checks.js";
import { scaleMs, TIME_SCALE_KEY, timeScaleOf } from "../../../core/client-cases/time-scale.js";
import { SEED } from "../labels.js";
import { checkMaker } from "../../../core/checks/define-check.js";

const clientCheck = checkMaker({ seed: SEED, side: "client" });

/** How long after [DONE] the client may take (the contract's 2 s, as for client-parse/termination). */
export const AFTER_DONE_LIMIT_MS = 2000;
/** Held streams tracked at once; older ones are dropped (constant memory). */
const MAX_HELD = 256;

export const finishesAfterDoneCheck: CheckDef = clientCheck({
  id: "openai-chat/client/finishes-after-done",
  create(): CheckObserver {
    const v = new Violations();
    let judged = 0;
    let unfinished: string | undefined;
    /** Streams the mock holds open after [DONE] → the limit, scaled as the mock scaled its hold. */
    const held = new Map<string, number>();
    /** Held streams whose [DONE] went out: exchange → the note and the limit. */
    const waiting = new Map<string, { done: TranscriptEvent; limit: number }>();
    const late = (exchange: string, limit: number, ms: number, how: string, ev: Evidence) =>
      v.add(`the response finished within ${limit} ms of [DONE]`, `exchange ${exchange}: ${how} ${Math.round(ms)} ms after [DONE] while the server held the connection open`, ev);
    return {
      observe(event) {
        if (isCompletionRequest(event)) {
          // A next request finishes every response still waiting: the client has moved on.
          for (const [exchange, { done, limit }] of waiting) {
            judged++;
            const ms = event.t - done.t;
            if (ms > limit) late(exchange, limit, ms, "the client sent its next request only", at(event));
          }
          waiting.clear();
          const hold = event.meta?.holdAfterDoneMs;
          // A mock that shortens its waits (a quick test run) shortens the limit with them.
          const limit = scaleMs(AFTER_DONE_LIMIT_MS, timeScaleOf(event.meta?.[TIME_SCALE_KEY]));
          if (typeof hold === "number" && hold > limit) {
            held.set(event.exchange, limit);
            if (held.size > MAX_HELD) held.delete(held.keys().next().value as string);
          }
          return;
        }
        if (event.kind !== "note" || event.name !== AFTER_DONE_NOTE) return;
        const n = event.value as { exchange?: string; event?: string; by?: string };
        const heldLimit = typeof n.exchange === "string" ? held.get(n.exchange) : undefined;
        if (heldLimit === undefined) return;
        const exchange = n.exchange as string;
        if (n.event === "done") {
          waiting.set(exchange, { done: event, limit: heldLimit });
          return;
        }
        const w = waiting.get(exchange);
        if (n.event !== "closed" || !w) return;
        waiting.delete(exchange);
        held.delete(exchange);
        judged++;
        const ms = event.t - w.done.t;
        if (n.by !== "client") late(exchange, w.limit, ms, "the client waited for the server to close the connection,", at(event));
        else if (ms > w.limit) late(exchange, w.limit, ms, "the client closed the connection only", at(event));
      },
      finish() {
        if (waiting.size) unfinished = [...waiting.keys()].join(", ");
        const untested = unfinished
          ? `not exercised: the run ended while the client still held ${unfinished} open after [DONE]`
          : "not exercised: no stream was held open after [DONE] (the hold-open-after-done fault or the open-after-done framing creates the case)";
        return v.outcome({ pass: `the client finished ${judged} held-open response(s) promptly after [DONE]`, exercised: judged > 0, untested });
      },
    };
  },
});
