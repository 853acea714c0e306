/**
 * The cn-session turn (§3.15, §6 cn template): complete assistant items appended once, their tool
 * states changing in place (generated → calling → done | errored | canceled). Partial text is never shown.
 */
import type { ChatHistoryItem, MessageUsage, SessionUsage, ToolCall, ToolCallState } from "../../generated/continue-remote.js";
import { CANCELLED_RESULT, DENIED_RESULT } from "./scenarios.js";
import { wait, type TurnContext, type TurnSteps } from "./turn.js";

export interface CnTurnOptions extends TurnContext {
  history: ChatHistoryItem[];
  usage: SessionUsage;
  /** The next `call_n` id. */
  nextCallId: () => string;
}

const PROMPT_TOKENS = 120;
const COMPLETION_TOKENS = 24;
const COST_CENTS = 0.05;

export function* cnTurn(o: CnTurnOptions): TurnSteps {
  const { scenario: s, pacing: p, history } = o;
  yield wait(p.thinkMs);
  if (s.llmError) {
    history.push({ message: { role: "assistant", content: `Error: ${s.llmError}` }, contextItems: [] });
    return;
  }
  let denied = false;
  for (const [i, round] of s.rounds.entries()) {
    if (i > 0) yield wait(p.thinkMs);
    const t = round.tool;
    const toolCall: ToolCall = {
      id: o.nextCallId(),
      type: "function",
      function: { name: t.display, arguments: JSON.stringify(t.args) },
    };
    const state: ToolCallState = { toolCallId: toolCall.id, toolCall, status: "generated", parsedArgs: { ...t.args } };
    history.push({
      message: { role: "assistant", content: round.preamble ?? "", toolCalls: [toolCall], usage: messageUsage(o) },
      contextItems: [],
      toolCallStates: [state],
    });
    if (denied) {
      yield wait(p.gapMs);
      finish(state, "canceled", CANCELLED_RESULT);
      continue;
    }
    if (t.ask) {
      const approved = yield { ask: { toolName: t.display, toolArgs: t.args, cn: true } };
      if (!approved) {
        denied = true;
        finish(state, "canceled", DENIED_RESULT);
        continue;
      }
    } else yield wait(p.gapMs);
    state.status = "calling";
    yield wait(p.toolMs);
    if (t.result === undefined) finish(state, "errored", t.error ?? "failed");
    else finish(state, "done", t.result);
  }
  if (s.rounds.length) yield wait(p.thinkMs);
  if (s.endsAtTool) return;
  history.push({
    message: { role: "assistant", content: denied && s.deniedFinal ? s.deniedFinal : s.final, usage: messageUsage(o) },
    contextItems: [],
  });
}

function finish(state: ToolCallState, status: ToolCallState["status"], content: string): void {
  state.status = status;
  state.output = [{ content, name: "Tool Result", description: "Tool execution result" }];
}

/** One LLM call's usage (snake_case), added to the session's total (camelCase). */
function messageUsage(o: CnTurnOptions): MessageUsage {
  o.usage.promptTokens += PROMPT_TOKENS;
  o.usage.completionTokens += COMPLETION_TOKENS;
  o.usage.totalCost = Math.round((o.usage.totalCost + COST_CENTS / 100) * 1e6) / 1e6;
  return {
    prompt_tokens: PROMPT_TOKENS,
    completion_tokens: COMPLETION_TOKENS,
    total_tokens: PROMPT_TOKENS + COMPLETION_TOKENS,
    model: "mock-model",
    cost_cents: COST_CENTS,
  };
}
