/** Fields of a validated ChatCompletionRequest (request.ts validates; this module loads no zod). */
import type { ChatMessageT, ChatRequest } from "./request.js";

export function offeredNames(request: ChatRequest): string[] {
  return (request.tools ?? []).map((t) => t.function.name);
}

/** The function a named `tool_choice` forces, if any. */
export function forcedFunction(request: ChatRequest): string | undefined {
  const c = request.tool_choice;
  return typeof c === "object" && c !== null ? c.function.name : undefined;
}

export function includeUsage(request: ChatRequest): boolean {
  return request.stream === true && request.stream_options?.include_usage === true;
}

/** The text of a message's content: a string, or its text parts joined with newlines. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .filter((p): p is { type: "text"; text: string } => p?.type === "text" && typeof p.text === "string")
      .map((p) => p.text)
      .join("\n");
  }
  return "";
}

/** The text of the last `role: "user"` message ("" when there is none). */
export function lastUserText(request: ChatRequest): string {
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i] as ChatMessageT;
    if (m.role === "user") return contentText(m.content);
  }
  return "";
}

/** A lenient stand-in for a request that failed validation (the accepts-bad-input fault). */
export function fallbackRequest(body: string, model: string): ChatRequest {
  let raw: Record<string, unknown> = {};
  try {
    const v = JSON.parse(body) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) raw = v as Record<string, unknown>;
  } catch {
    // Malformed: nothing to keep.
  }
  return {
    model: typeof raw.model === "string" && raw.model ? raw.model : model,
    messages: [{ role: "user", content: "" }],
    stream: raw.stream === true,
  };
}
