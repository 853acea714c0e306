/**
 * Reads the conversation a request carries: the tool results that end it (for the follow-up
 * answer) and the history problems the client checks care about (orphan results, unanswered
 * calls, duplicate ids). Problems are recorded and, with `rejectInvalidHistory`, answered 400.
 */
import { contentText } from "./request-fields.js";
import type { ChatMessageT, ChatRequest } from "./request.js";

export interface ToolResult {
  id: string;
  name: string;
  chars: number;
}

export interface HistoryProblem {
  message: string;
  /** Dotted path of the offending message. */
  param: string;
}

type Assistant = Extract<ChatMessageT, { role: "assistant" }>;

/** The tool messages at the end of the conversation, with the names of the calls they answer. */
export function trailingToolResults(request: ChatRequest): ToolResult[] {
  const msgs = request.messages as ChatMessageT[];
  let start = msgs.length;
  while (start > 0 && msgs[start - 1]?.role === "tool") start--;
  const names = new Map<string, string>();
  const owner = msgs[start - 1];
  if (owner?.role === "assistant") {
    for (const c of (owner as Assistant).tool_calls ?? []) names.set(c.id, c.function.name);
  }
  return msgs.slice(start).map((m) => {
    const t = m as Extract<ChatMessageT, { role: "tool" }>;
    return { id: t.tool_call_id, name: names.get(t.tool_call_id) ?? "unknown tool", chars: [...contentText(t.content)].length };
  });
}

export function isFollowUp(request: ChatRequest): boolean {
  return request.messages[request.messages.length - 1]?.role === "tool";
}

export function historyProblems(request: ChatRequest): HistoryProblem[] {
  const msgs = request.messages as ChatMessageT[];
  const problems: HistoryProblem[] = [];
  const seen = new Set<string>();
  let open: { ids: Map<string, number>; at: number } | null = null;

  const closeOpen = () => {
    if (!open) return;
    for (const [id, n] of open.ids) {
      if (n === 0) problems.push({ message: `Tool call '${id}' has no tool message answering it`, param: `messages.${open.at}` });
    }
    open = null;
  };

  msgs.forEach((m, i) => {
    if (m.role === "tool") {
      const slot: { ids: Map<string, number>; at: number } | null = open;
      const n = slot?.ids.get(m.tool_call_id);
      if (!slot || n === undefined) {
        problems.push({
          message: `Tool message answers '${m.tool_call_id}', which is not a call of the preceding assistant message`,
          param: `messages.${i}.tool_call_id`,
        });
      } else {
        if (n >= 1) problems.push({ message: `Tool call '${m.tool_call_id}' is answered twice`, param: `messages.${i}.tool_call_id` });
        slot.ids.set(m.tool_call_id, n + 1);
      }
      return;
    }
    closeOpen();
    if (m.role === "assistant" && m.tool_calls) {
      open = { ids: new Map(), at: i };
      for (const c of m.tool_calls) {
        if (seen.has(c.id)) problems.push({ message: `Tool call id '${c.id}' is used twice`, param: `messages.${i}.tool_calls` });
        seen.add(c.id);
        open.ids.set(c.id, 0);
      }
    }
  });
  closeOpen();
  return problems;
}
