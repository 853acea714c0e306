/**
 * Tool execution after an assistant message with tool calls (§3 rules 8, 17, 18): each call gets
 * tool_execution_start, cumulative updates, one tool_execution_end and a toolResult message.
 * Sequential by default (pi 0.54); a queued steer skips the calls after the running one; an
 * abort ends the running and pending calls with "Command aborted".
 */
import { sleep } from "../../core/mock/timing.js";
import { toolResultMessage } from "./messages.js";
import type { BlockPlan, ReplyPlan, ToolScript } from "./plan.js";
import type { Run } from "./run.js";
import type { AssistantMessage, Json, ToolCallContent, ToolResultMessage } from "./types.js";

export const SKIPPED_TEXT = "Skipped due to queued user message.";
export const TOOL_ABORTED_TEXT = "Command aborted";

interface Call {
  call: ToolCallContent;
  script: ToolScript;
}

export interface ToolsOutcome {
  results: ToolResultMessage[];
  aborted: boolean;
}

function callsOf(message: AssistantMessage, plan: ReplyPlan): Call[] {
  const scripts = new Map<string, ToolScript>();
  for (const b of plan.blocks as BlockPlan[]) if (b.type === "toolCall") scripts.set(b.id, b.result);
  return message.content
    .filter((c): c is ToolCallContent => c.type === "toolCall")
    .map((call) => ({ call, script: scripts.get(call.id) ?? { text: "" } }));
}

const partialResult = (text: string): Json => ({ content: text === "" ? [] : [{ type: "text", text }] });

export async function executeTools(run: Run, message: AssistantMessage, plan: ReplyPlan): Promise<ToolsOutcome> {
  const calls = callsOf(message, plan);
  const results: ToolResultMessage[] = [];
  const toolDelay = run.host.opts.toolDelay;

  const start = ({ call }: Call) =>
    run.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
  const progress = ({ call }: Call, text: string) =>
    run.emit({
      type: "tool_execution_update",
      toolCallId: call.id,
      toolName: call.name,
      args: call.arguments,
      partialResult: partialResult(text),
    });
  const end = ({ call }: Call, text: string, isError: boolean): ToolResultMessage => {
    run.emit({
      type: "tool_execution_end",
      toolCallId: call.id,
      toolName: call.name,
      result: { content: [{ type: "text", text }] },
      isError,
    });
    return toolResultMessage(call.id, call.name, text, isError);
  };
  const publish = (result: ToolResultMessage) => {
    if (run.hooks.tools?.noResultMessage) return;
    run.emit({ type: "message_start", message: result });
    run.record(result);
    run.emit({ type: "message_end", message: result });
    results.push(result);
  };
  const finish = (c: Call) =>
    run.aborted ? end(c, TOOL_ABORTED_TEXT, true) : end(c, c.script.text, c.script.isError === true);

  if (plan.parallelTools) {
    // Later upstream: all start, ends arrive in completion order (here: reversed), results in source order.
    for (const c of calls) {
      start(c);
      progress(c, "");
    }
    const ended = new Map<Call, ToolResultMessage>();
    for (const c of [...calls].reverse()) {
      await sleep((toolDelay * (c.script.duration ?? 1)) / 2, run.signal);
      if (run.silenced) return { results, aborted: true };
      ended.set(c, finish(c));
    }
    for (const c of calls) publish(ended.get(c) as ToolResultMessage);
    return { results, aborted: run.aborted };
  }

  let skipping = false;
  for (const c of calls) {
    if (run.silenced) return { results, aborted: true };
    start(c);
    if (run.aborted) {
      publish(end(c, TOOL_ABORTED_TEXT, true));
      continue;
    }
    if (skipping) {
      publish(end(c, SKIPPED_TEXT, true));
      continue;
    }
    const updates = c.script.updates ?? [""];
    const slice = (toolDelay * (c.script.duration ?? 1)) / Math.max(1, updates.length);
    for (const u of updates) {
      progress(c, u);
      await sleep(slice, run.signal);
      if (run.silenced) return { results, aborted: true };
      if (run.aborted) break;
    }
    publish(finish(c));
    if (run.steerPending() && !run.hooks.queue?.steerRunsAllTools) skipping = true;
  }
  return { results, aborted: run.aborted };
}
