/**
 * Builders for the messages of a mock conversation (contract §2.3 agent-message, §6 model), and
 * the character count behind `get_context_usage`.
 */
import type {
  AgentMessage,
  AssistantContent,
  AssistantMessage,
  ImageContent,
  Json,
  StopReason,
  TextContent,
  ToolResultMessage,
  Usage,
  UserInput,
  UserMessage,
} from "./types.js";

export const CONTEXT_WINDOW = 32_000;

export const MOCK_MODEL: Json = {
  id: "mock-model",
  name: "Mock Model",
  api: "mock",
  provider: "mock",
  baseUrl: "http://127.0.0.1/mock",
  reasoning: true,
  input: ["text", "image"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: CONTEXT_WINDOW,
  maxTokens: 4096,
};

export function zeroUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

export function usageOf(input: number, output: number): Usage {
  const u = zeroUsage();
  u.input = input;
  u.output = output;
  u.totalTokens = input + output;
  return u;
}

/** User content as the agent builds it: the text part first, then the images unchanged. */
export function userContent(input: UserInput): (TextContent | ImageContent)[] {
  return [{ type: "text", text: input.text }, ...input.images.map((i) => ({ ...i }))];
}

export function userMessage(input: UserInput, timestamp = Date.now()): UserMessage {
  return { role: "user", content: userContent(input), timestamp };
}

/** The start snapshot of an assistant message: empty content, zero usage, `stop`. */
export function assistantSkeleton(timestamp = Date.now()): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "mock",
    provider: "mock",
    model: "mock-model",
    usage: zeroUsage(),
    stopReason: "stop",
    timestamp,
  };
}

export function finalAssistant(
  skeleton: AssistantMessage,
  content: AssistantContent[],
  stopReason: StopReason,
  inputTokens: number,
  errorMessage?: string,
): AssistantMessage {
  return {
    ...skeleton,
    content,
    usage: usageOf(inputTokens, Math.ceil(contentChars(content) / 4)),
    stopReason,
    ...(errorMessage !== undefined ? { errorMessage } : {}),
  };
}

export function toolResultMessage(
  toolCallId: string,
  toolName: string,
  text: string,
  isError: boolean,
  timestamp = Date.now(),
): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName, content: [{ type: "text", text }], isError, timestamp };
}

function contentChars(content: readonly unknown[]): number {
  let n = 0;
  for (const part of content) {
    const p = part as Json;
    if (p.type === "text" && typeof p.text === "string") n += p.text.length;
    else if (p.type === "thinking" && typeof p.thinking === "string") n += p.thinking.length;
    else if (p.type === "toolCall") n += JSON.stringify(p.arguments ?? {}).length + String(p.name ?? "").length;
  }
  return n;
}

/** Characters of a history, the base of the mock's token estimate (§6: ceil(chars / 4)). */
export function historyChars(messages: readonly AgentMessage[]): number {
  let n = 0;
  for (const m of messages) {
    if (typeof m.content === "string") n += m.content.length;
    else n += contentChars(m.content);
  }
  return n;
}

/** The plain text of a message (text parts only), for session summaries. */
export function textOf(m: AgentMessage): string {
  if (typeof m.content === "string") return m.content;
  return (m.content as unknown as readonly Json[])
    .filter((p) => p.type === "text" && typeof p.text === "string")
    .map((p) => p.text as string)
    .join("");
}
