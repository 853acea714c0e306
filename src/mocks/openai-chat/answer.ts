/**
 * What the mock answers to one request, before it is rendered as a stream or a JSON body: optional
 * reasoning, text pieces (generated lazily, so a long answer costs no memory), tool calls, a finish
 * reason, or an in-stream / HTTP error. Scenarios, the answer rules and the scenario script all
 * produce an Answer; plan-level faults rewrite it; chunks.ts and completion.ts render it.
 */
import type { ApiError, ErrorObject } from "./errors.js";
import type { OpenaiChatPacing } from "./pacing.js";

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "function_call";

export interface PlannedCall {
  id: string;
  name: string;
  /** The JSON text of the arguments, exactly as it is sent. */
  arguments: string;
}

/** Which rule of protocol doc §6 "Choosing the answer" decided (recorded for client checks). */
export type AnswerRule =
  | "script"
  | "follow-up"
  | "scenario"
  | "no-tools"
  | "forced"
  | "directive"
  | "required"
  | "default"
  | "refused";

export interface Answer {
  rule: AnswerRule;
  /** Reasoning text streamed before the answer ("" for none). */
  reasoning: string;
  /** Text pieces, each cut into `textFragment`-sized deltas. Iterated once. */
  text: Iterable<string>;
  calls: PlannedCall[];
  finish: FinishReason;
  /** An in-stream error ending the stream after the text (500 with this body when not streaming). */
  streamError?: ErrorObject;
  /** The whole answer is an HTTP error. */
  httpError?: ApiError;
  /** Pacing the scenario imposes (above the start options, below per-request overrides). */
  pacing?: Partial<OpenaiChatPacing>;
  /** Pacing the scenario suggests (below the start options). */
  pacingDefaults?: Partial<OpenaiChatPacing>;
}

export const TEXT_ONLY_TEXT = 'Hello from the agentwire mock. Send: call read_file {"filepath":"README.md"}';

export function textAnswer(text: string | Iterable<string>, rule: AnswerRule, finish: FinishReason = "stop"): Answer {
  return { rule, reasoning: "", text: typeof text === "string" ? [text] : text, calls: [], finish };
}

export function callsAnswer(calls: PlannedCall[], rule: AnswerRule): Answer {
  return { rule, reasoning: "", text: [], calls, finish: calls.length ? "tool_calls" : "stop" };
}

const SURROGATE = /[\ud800-\udfff]/;

/** Code-point-safe fragments of `size` characters (size ≤ 0: the whole string). */
export function* fragments(text: string, size: number): Generator<string> {
  if (text === "") return;
  // Never more code points than code units: a text this short is one piece.
  if (size <= 0 || text.length <= size) {
    yield text;
    return;
  }
  if (!SURROGATE.test(text)) {
    // Every code point one code unit: slices are the same pieces, without a concat per character.
    for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
    return;
  }
  let piece = "";
  let n = 0;
  for (const ch of text) {
    piece += ch;
    if (++n === size) {
      yield piece;
      piece = "";
      n = 0;
    }
  }
  if (piece) yield piece;
}
