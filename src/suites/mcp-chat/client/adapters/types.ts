/**
 * The client-parse adapter contract: a function that consumes one `/chat/stream` response the way
 * a client under test would, and reports what that client assembled. The kit compares the report
 * with the result the scenario should give.
 */
import type { Adapter } from "../../../../core/client-cases/run-cases.js";
import { OUTCOMES, type CaseOutcome } from "../../../../core/client-cases/compare.js";

/** One tool card as the client shows it. */
export interface AdapterTool {
  id: string;
  name: string;
  /** The arguments the card shows; a client that does not keep them leaves this out, and it is then not compared. */
  args?: unknown;
  /** A matching `tool_end` completed the card. */
  ended: boolean;
}

export interface AdapterResult {
  /** The answer text as displayed. */
  text: string;
  tools: AdapterTool[];
  /** "done": `[DONE]` seen; "error": `[ERROR]` or a non-2xx answer; "truncated": EOF without a sentinel. */
  outcome: CaseOutcome;
  /** With outcome "error": the message the client shows. */
  error?: string;
}

/**
 * Consumes one chat response. A non-2xx response gives outcome "error" with the error message.
 * Adapters must stop reading (and cancel the body) once they consider the stream finished.
 */
export type McpChatAdapter = Adapter<AdapterResult>;

export { OUTCOMES };
