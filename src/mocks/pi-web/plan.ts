/**
 * What a scenario scripts: the assistant message of each turn (its content blocks, and for tool
 * calls what the tool returns), and how its updates are streamed.
 */
import type { Json } from "./types.js";

export interface ToolScript {
  /** Text of the final result. */
  text: string;
  isError?: boolean;
  /** Duration in units of the tool-delay knob (default 1). */
  duration?: number;
  /**
   * Cumulative partial results sent as tool_execution_update, evenly over the duration
   * ("" = `{content: []}`). Default: one update with no content.
   */
  updates?: string[];
}

export type BlockPlan =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "toolCall"; id: string; name: string; args: Json; result: ToolScript };

export interface StreamVariant {
  /** thinking_end 0 comes after two text_delta 1 (thinking-overlap). */
  overlap?: boolean;
  /** `start` and `done` updates bracket the blocks (lifecycle-updates). */
  lifecycle?: boolean;
  /** The text_start snapshot already holds the first chunk (snapshot-ahead). */
  snapshotAhead?: boolean;
  /** An abort leaves the open block without its _end (abort-open-block). */
  openBlockOnAbort?: boolean;
}

export interface ReplyPlan {
  blocks: BlockPlan[];
  /** A provider failure: no updates, content [], stopReason "error" with this errorMessage. */
  error?: string;
  /** After the failed run's agent_end, auto-retry once (error-retry). */
  retry?: { maxAttempts: number; delayMs: number };
  /** Tools start together and end in reverse order; results stay in source order. */
  parallelTools?: boolean;
  variant?: StreamVariant;
  /** After this many updates, the engine interrupts the run (switch-mid-run, server-shutdown). */
  interrupt?: { afterUpdates: number; action: "switch" | "shutdown" };
}

/** Why the model is asked for a message. */
export type Trigger = "prompt" | "tools" | "steer" | "followUp" | "retry";

export interface Turn {
  trigger: Trigger;
  /** The prompt text without its `scenario:<name>` prefix, or the injected message's text. */
  text: string;
  /** 0 for the first assistant message of a run. */
  index: number;
}

export const text = (t: string): BlockPlan => ({ type: "text", text: t });
export const thinking = (t: string): BlockPlan => ({ type: "thinking", thinking: t });
export const toolCall = (id: string, name: string, args: Json, result: ToolScript): BlockPlan => ({
  type: "toolCall",
  id,
  name,
  args,
  result,
});

/** Code-point chunks, so no delta splits a surrogate pair. */
export function chunksOf(s: string, size: number): string[] {
  const cps = Array.from(s);
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(""));
  return out;
}
