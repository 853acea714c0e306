/** The seed turn (§3.4–§3.7, §6 seed template): DisplayMessages appended, the streaming one growing by appending. */
import type { DisplayMessage } from "../../generated/continue-remote.js";
import { CANCELLED_RESULT, DENIED_RESULT, TOOL_NAMES, type ToolUse } from "./scenarios.js";
import { chunksOf, wait, type TurnContext, type TurnSteps } from "./turn.js";

export interface SeedTurnOptions extends TurnContext {
  history: DisplayMessage[];
  resultMode: "append" | "replace";
  chatMessageType: boolean;
}

export function* seedTurn(o: SeedTurnOptions): TurnSteps {
  const { scenario: s, pacing: p, history } = o;
  const chat = o.chatMessageType ? { messageType: "chat" as const } : {};
  yield wait(p.thinkMs);
  if (s.llmError) {
    history.push({ role: "assistant", content: `Error: ${s.llmError}`, ...chat });
    return;
  }
  let denied = false;
  for (const round of s.rounds) {
    if (round.preamble) {
      yield* stream(o, round.preamble);
      yield wait(p.gapMs);
    }
    const t = round.tool;
    const toolName = TOOL_NAMES[t.display] ?? t.display.toLowerCase();
    const start = history.length;
    history.push({ role: "system", content: `○ ${t.display}(${t.arg})`, messageType: "tool-start", toolName });
    let result: string | undefined = t.result;
    if (denied) {
      result = CANCELLED_RESULT;
      yield wait(p.gapMs);
    } else if (t.ask) {
      const approved = yield { ask: { toolName, toolArgs: t.args, cn: false } };
      if (!approved) {
        denied = true;
        result = DENIED_RESULT;
      } else yield wait(p.toolMs);
    } else yield wait(p.toolMs);
    resolve(o, start, t, toolName, result);
    yield wait(p.thinkMs);
  }
  if (s.endsAtTool) return;
  yield* stream(o, denied && s.deniedFinal ? s.deniedFinal : s.final, s.dropStreamingFlag);
}

/** Appends the result after its start, or puts it in the start's place (§3.5 a/b). Errors are always appended. */
function resolve(o: SeedTurnOptions, start: number, t: ToolUse, toolName: string, result: string | undefined): void {
  if (result === undefined) {
    o.history.push({ role: "system", content: `✗ Tool error: ${t.error ?? "failed"}`, messageType: "tool-error", toolName });
    return;
  }
  const legacy = o.scenario.legacyReplace === true;
  const entry: DisplayMessage = {
    role: "system",
    content: legacy ? `● ${t.display}` : `● ${t.display}(${t.arg})`,
    messageType: "tool-result",
    toolName,
    toolResult: result,
  };
  if (legacy || o.resultMode === "replace") o.history[start] = entry;
  else o.history.push(entry);
}

/** One streaming assistant entry: first chunk, then growth by appending, then frozen. */
function* stream(o: SeedTurnOptions, text: string, dropFlag = false): TurnSteps {
  const { scenario: s, pacing: p } = o;
  const chunks = chunksOf(text, p, s.chunkCount);
  const entry: DisplayMessage = {
    role: "assistant",
    content: chunks[0] as string,
    ...(o.chatMessageType ? { messageType: "chat" as const } : {}),
    isStreaming: true,
  };
  o.history.push(entry);
  const gap = p.chunkMs * (s.chunkFactor ?? 1);
  for (const c of chunks.slice(1)) {
    yield wait(gap);
    entry.content += c;
  }
  yield wait(gap);
  if (dropFlag) delete entry.isStreaming;
  else entry.isStreaming = false;
}
