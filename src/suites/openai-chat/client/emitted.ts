/**
 * The tool calls the mock sent, as its recorder reports them: each recorded chat completion
 * request carries, in `meta.expectedCalls`, the calls of the answer the mock is about to send
 * (id, name, complete arguments string), before stream-level faults reshape the deltas. This is
 * what `client/history-matches-sent` compares echoed histories with, and what the case routes use
 * to put the mock's own call ids into a case's expected result.
 */
import type { TranscriptEvent } from "../../../core/transcript/transcript.js";
import { isObject } from "./history.js";

export interface EmittedCall {
  id: string;
  name: string;
  /** The complete arguments string the mock sent (all fragments joined). */
  arguments: string;
}

export interface EmittedResponse {
  /** Exchange id of the request the calls answer. */
  exchange: string;
  calls: EmittedCall[];
}

/** The calls the mock planned for a recorded request, or undefined when the event says nothing. */
export function emittedCallsOf(event: TranscriptEvent): EmittedResponse | undefined {
  if (event.kind !== "http-request") return undefined;
  const calls = event.meta?.expectedCalls;
  if (!Array.isArray(calls)) return undefined;
  return {
    exchange: event.exchange,
    calls: calls.flatMap((c) =>
      isObject(c) && typeof c.id === "string" && typeof c.name === "string" && typeof c.arguments === "string"
        ? [{ id: c.id, name: c.name, arguments: c.arguments }]
        : [],
    ),
  };
}
