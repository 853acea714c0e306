/**
 * The client-parse adapter contract (contract §4, "Client-side observation"): a function that
 * consumes one Chat Completions response, streamed or not, the way a client under test would, and
 * reports what that client assembled. The kit compares the report with what the mock sent.
 */
import type { Adapter } from "../../../../core/client-cases/run-cases.js";
import { OUTCOMES, type CaseOutcome } from "../../../../core/client-cases/compare.js";

/** One tool call as the client assembled it. */
export interface AssembledCall {
  id: string;
  name: string;
  /** The joined `function.arguments` text, exactly as assembled (not parsed). */
  arguments: string;
}

export interface AdapterUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/**
 * What a client assembled. `reasoning`, `finishReason` and `usage` are optional: a client that does
 * not keep one leaves it out, and the kit then does not compare it (a value reported, null
 * included, is compared).
 */
export interface AdapterResult {
  /** The answer text (content deltas joined). */
  text: string;
  /** Reasoning text (`reasoning_content` or `reasoning` deltas joined), kept out of `text`. */
  reasoning?: string;
  toolCalls: AssembledCall[];
  /** The choice's finish reason as the client saw it; null when none came. */
  finishReason?: string | null;
  /** The usage the client read (the usage chunk, or the completion's `usage`); null when none. */
  usage?: AdapterUsage | null;
  /**
   * "done": the response ended normally (`[DONE]`, EOF after a finish reason, or a JSON body);
   * "error": an HTTP error or an in-stream error; "truncated": EOF before any finish reason.
   */
  outcome: CaseOutcome;
  /** With outcome "error": the message the client surfaces. */
  error?: string;
}

/**
 * Consumes one chat completion response. A non-2xx response gives outcome "error" with the
 * ErrorResponse message. Adapters stop reading (and cancel the body) once they consider the
 * response finished.
 */
export type OpenaiChatAdapter = Adapter<AdapterResult>;

export { OUTCOMES };

/** The empty result every fold starts from (the kit's adapters report every field). */
export function emptyResult(): AdapterResult {
  return { text: "", reasoning: "", toolCalls: [], finishReason: null, usage: null, outcome: "done" };
}
