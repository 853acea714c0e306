/**
 * client-parse/done-terminates from the mock's side: on the open-after-done case the mock holds the
 * connection open long after `[DONE]`, and a client that finishes at `[DONE]` lets go of it first
 * (it reports the case, closes the connection or sends its next request). One that reads on until
 * the mock ends the body finished at the end of the body, not at `[DONE]`, whatever it reported.
 * Once the kit stopped the run, nothing the client or the mock does with the stream counts: a client still holding it
 * then had not been shown to finish either way.
 */
import { at, type Evidence } from "../../../core/checks/check.js";
import type { CaseWitness, WitnessVerdict } from "../../../core/client-cases/judge.js";
import type { AfterDoneNote } from "../../../core/mock/after-done.js";
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { RunStop } from "../../../core/checks/run-stop.js";
import { AFTER_DONE_NOTE } from "../../../mocks/mcp-chat/after-done.js";
import { findCase, isCaseRequest } from "./cases.js";
import { CLIENT_PROBE } from "./traffic-checks.js";

/** The case whose stream the mock holds open after `[DONE]`. */
export const HELD_CASE = "open-after-done";

const EXPECTED = "the client finishes at [DONE] (reports the case, closes the connection or sends its next request) while the mock still holds the connection open";

export function heldStreamWitness(): CaseWitness {
  const c = findCase(HELD_CASE)!;
  /** The case's requests still open: exchange → the note that its [DONE] went out (undefined before). */
  const open = new Map<string, TranscriptEvent | undefined>();
  let finished = 0;
  let failures = 0;
  let first: { diff: string[]; actual: string; evidence: Evidence } | undefined;
  const stop = new RunStop();
  /** The client moved on: every held stream whose [DONE] went out is finished. */
  const movedOn = () => {
    for (const [exchange, done] of open) {
      if (done === undefined) continue;
      finished++;
      open.delete(exchange);
    }
  };
  return {
    observe(event) {
      if (event.kind === "note") stop.observe(event);
      // Its connection closing, its body ended by the mock's close, a report flushed as it exits: the stop's doing.
      if (stop.hadStopped(event.t)) return;
      if (event.kind === "http-request") {
        if (event.probe !== CLIENT_PROBE) return;
        movedOn();
        if (isCaseRequest(c, event.path, event.body)) open.set(event.exchange, undefined);
        return;
      }
      if (event.kind === "client-result") {
        if (event.case === HELD_CASE) movedOn();
        return;
      }
      if (event.kind !== "note" || event.name !== AFTER_DONE_NOTE) return;
      const note = event.value as Partial<AfterDoneNote> | null;
      const exchange = note?.exchange;
      if (typeof exchange !== "string" || !open.has(exchange)) return;
      if (note!.event === "done") {
        open.set(exchange, event);
        return;
      }
      const done = open.get(exchange);
      if (note!.event !== "closed" || done === undefined) return;
      open.delete(exchange);
      if (note!.by === "client") {
        finished++;
        return;
      }
      failures++;
      if (first) return;
      const actual = `the client was still reading when the mock ended the body ${Math.round(event.t - done.t)} ms after [DONE] (exchange ${exchange}): it finished at the end of the body, not at [DONE]`;
      first = { diff: [actual], actual, evidence: at(event, { note: `case ${HELD_CASE}: ${actual}` }) };
    },
    verdicts() {
      const out = new Map<string, WitnessVerdict>();
      if (first) {
        const more = failures > 1 ? ` (${failures} such requests)` : "";
        out.set(HELD_CASE, { ok: false, diff: [first.diff[0]! + more], expected: EXPECTED, actual: first.actual, evidence: first.evidence });
      } else if (finished === 0) {
        const waiting = [...open.values()].some((done) => done !== undefined);
        out.set(HELD_CASE, {
          ok: "unjudged",
          reason: waiting
            ? `the run ended${stop.at !== undefined ? ` (${stop.said})` : ""} while the client still held the stream open after [DONE], without reporting, closing the connection or sending another request`
            : "the mock noted no [DONE] going out on the case's held stream, so when the client finished could not be judged",
        });
      }
      return out;
    },
  };
}
