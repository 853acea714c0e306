/**
 * `openai-chat/client/finishes-after-done`: a client must not wait for the server to close the
 * connection once `[DONE]` arrived. Judged from the mock's side, on streams the mock holds open
 * after `[DONE]` (the hold-open-after-done fault, the open-after-done framing): the client either
 * closes that connection or sends the next request of that conversation, promptly. Only evidence
 * about the held stream counts: a request of another conversation (a title request, a second
 * chat) says nothing of it, and a stream still open when the server ends it was waited on.
 * Once the kit stopped the run, a held stream whose limit had already run out fails (the client was late by then);
 * one still within its limit is not judged, whatever closes it afterwards (the stop ends the client).
 */
import { listFirst } from "../../../core/list-text.js";
import { at, Violations, type CheckDef, type CheckObserver, type Evidence } from "../../../core/checks/check.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { AFTER_DONE_NOTE } from "../../../mocks/openai-chat/after-done.js";
import { isCompletionRequest } from "./traffic-checks.js";
import { scaleMs, TIME_SCALE_KEY, timeScaleOf } from "../../../core/client-cases/time-scale.js";
import { canonicalJson } from "../../../core/client-cases/compare.js";
import { SEED } from "../labels.js";
import { checkMaker } from "../../../core/checks/define-check.js";
import { emittedCallsOf } from "./emitted.js";
import { historyCalls, isObject, tryJson, type Json } from "./history.js";
import { RunStop } from "../../../core/checks/run-stop.js";

const clientCheck = checkMaker({ seed: SEED, side: "client" });

/** How long after [DONE] the client may take (the contract's 2 s, as for client-parse/termination). */
export const AFTER_DONE_LIMIT_MS = 2000;
/** Held streams tracked at once; older ones are dropped (constant memory). */
const MAX_HELD = 256;

type HttpRequest = Extract<TranscriptEvent, { kind: "http-request" }>;

/** A held stream: its limit, what identifies its conversation, and what happened so far. */
interface Held {
  limit: number;
  /** The conversation so far, without system/developer messages (clients rebuild those each turn). */
  turns: { count: number; hash: string };
  /** Ids of the calls the answer carries: a request echoing one follows up on it. */
  calls: string[];
  /** The [DONE] note, once it went out. */
  done?: TranscriptEvent;
  /** The next request of the conversation came before [DONE] was written: the client had moved on. */
  movedOn?: boolean;
}

/** The messages that carry the conversation: system and developer prompts are left out. */
function turnsOf(body: Json | undefined): unknown[] {
  const messages = body && Array.isArray(body.messages) ? body.messages : [];
  return messages.filter((m) => !(isObject(m) && (m.role === "system" || m.role === "developer")));
}

/** FNV-1a of a text, with its length: a fingerprint of a conversation prefix. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `${text.length}:${(h >>> 0).toString(16)}`;
}

function bodyOf(req: HttpRequest): Json | undefined {
  const parsed = tryJson(req.body ?? "");
  return parsed && isObject(parsed.value) ? parsed.value : undefined;
}

/**
 * Whether a request is the next turn of a held stream's conversation: it echoes one of the
 * answer's calls, or its conversation starts with the held request's and goes on with an
 * assistant message (the answer, as the client kept it).
 */
function followsUp(echoed: ReadonlySet<unknown>, turns: unknown[], prefix: (count: number) => string, h: Held): boolean {
  if (h.calls.some((id) => echoed.has(id))) return true;
  const next = turns[h.turns.count];
  return isObject(next) && next.role === "assistant" && prefix(h.turns.count) === h.turns.hash;
}

export const finishesAfterDoneCheck: CheckDef = clientCheck({
  id: "openai-chat/client/finishes-after-done",
  create(): CheckObserver {
    const v = new Violations();
    let judged = 0;
    /** Streams the mock holds open after [DONE], by exchange, until judged. */
    const held = new Map<string, Held>();
    const late = (exchange: string, limit: number, ms: number, how: string, ev: Evidence) =>
      v.add(`the response finished within ${limit} ms of [DONE]`, `exchange ${exchange}: ${how} ${Math.round(ms)} ms after [DONE] while the server held the connection open`, ev);
    const stop = new RunStop();
    /** Held streams the kit's stop came to within their limit: not judged. */
    const cut: string[] = [];
    /**
     * Whether the stop decides a held stream an event would settle at `t`: past its limit when the kit stopped, it
     * fails; within it, it is not judged. Either way it is settled.
     */
    const settledByStop = (exchange: string, h: Held & { done: TranscriptEvent }, t: number): boolean => {
      if (!stop.hadStopped(t) || !stop.cuts(h.done.t + h.limit)) return false;
      held.delete(exchange);
      cut.push(exchange);
      return true;
    };
    return {
      observe(event) {
        if (event.kind === "note") stop.observe(event);
        if (isCompletionRequest(event)) {
          const body = bodyOf(event);
          const turns = turnsOf(body);
          const echoed = new Set(historyCalls(body).map((c) => c.id));
          const prefixes = new Map<number, string>();
          const prefix = (count: number) => {
            let p = prefixes.get(count);
            if (p === undefined) prefixes.set(count, (p = hash(canonicalJson(turns.slice(0, count)))));
            return p;
          };
          // The next request of a held stream's conversation finishes that stream, and only that one.
          for (const [exchange, h] of held) {
            if (h.movedOn || !followsUp(echoed, turns, prefix, h)) continue;
            if (!h.done) {
              h.movedOn = true;
              continue;
            }
            if (settledByStop(exchange, h as Held & { done: TranscriptEvent }, event.t)) continue;
            held.delete(exchange);
            judged++;
            const ms = event.t - h.done.t;
            if (ms > h.limit) late(exchange, h.limit, ms, "the client sent the next request of that conversation only", at(event));
          }
          const hold = event.meta?.holdAfterDoneMs;
          // A mock that shortens its waits (a quick test run) shortens the limit with them.
          const limit = scaleMs(AFTER_DONE_LIMIT_MS, timeScaleOf(event.meta?.[TIME_SCALE_KEY]));
          // Only a stream ends with [DONE]; a JSON answer is over when its body is.
          if (typeof hold === "number" && hold > limit && event.meta?.stream !== false) {
            const calls = emittedCallsOf(event)?.calls.map((c) => c.id) ?? [];
            held.set(event.exchange, { limit, turns: { count: turns.length, hash: prefix(turns.length) }, calls });
            if (held.size > MAX_HELD) held.delete(held.keys().next().value as string);
          }
          return;
        }
        if (event.kind !== "note" || event.name !== AFTER_DONE_NOTE) return;
        const n = event.value as { exchange?: string; event?: string; by?: string };
        const exchange = typeof n.exchange === "string" ? n.exchange : undefined;
        const h = exchange === undefined ? undefined : held.get(exchange);
        if (!h || exchange === undefined) return;
        if (n.event === "done") {
          h.done = event;
          if (h.movedOn) {
            // Its next request went out before [DONE] was even written.
            held.delete(exchange);
            judged++;
          }
          return;
        }
        if (n.event !== "closed" || !h.done) return;
        if (settledByStop(exchange, h as Held & { done: TranscriptEvent }, event.t)) return;
        held.delete(exchange);
        judged++;
        const ms = event.t - h.done.t;
        if (n.by !== "client") late(exchange, h.limit, ms, "the client waited for the server to close the connection,", at(event));
        else if (ms > h.limit) late(exchange, h.limit, ms, "the client closed the connection only", at(event));
      },
      finish() {
        const unfinished: string[] = [];
        for (const [exchange, h] of held) {
          if (!h.done) continue;
          // Still held when the kit stopped the run, already past its limit: late by then.
          if (stop.at !== undefined && !stop.cuts(h.done.t + h.limit)) {
            judged++;
            late(exchange, h.limit, stop.at - h.done.t, `the client still held the connection when ${stop.said},`, at(h.done));
          } else if (stop.at !== undefined) cut.push(exchange);
          else unfinished.push(exchange);
        }
        const untested = cut.length
          ? `not exercised: ${stop.said} while the client held ${listFirst(cut)} open after [DONE], before its time to finish was up`
          : unfinished.length
          ? `not exercised: the run ended while the client still held ${listFirst(unfinished)} open after [DONE]`
          : "not exercised: no stream was held open after [DONE] (the hold-open-after-done fault or the open-after-done framing creates the case)";
        return v.outcome({ pass: `the client finished ${judged} held-open response(s) promptly after [DONE]`, exercised: judged > 0, untested });
      },
    };
  },
});
