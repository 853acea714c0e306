/**
 * Where a tool call stands (§3 r13), read from a chat's messages: its call part, the toolbar's approval and its
 * result. Reading the state, rather than keeping flags beside it, keeps a restarted agent's history meaningful.
 */
import type { ChatMessage, ToolApprovalPart, ToolCallPart, ToolResultPart } from "../../generated/stagewise-chat.js";

export interface ToolCallStatus {
  messageId: string;
  call: ToolCallPart;
  approval?: ToolApprovalPart;
  result?: ToolResultPart;
}

export function toolCallStatus(messages: readonly ChatMessage[], toolCallId: string): ToolCallStatus | undefined {
  let status: ToolCallStatus | undefined;
  for (const message of messages) {
    for (const part of message.content) {
      if (part.type === "tool-call" && part.toolCallId === toolCallId && !status) status = { messageId: message.id, call: part };
      else if (status && part.type === "tool-approval" && part.toolCallId === toolCallId) status.approval ??= part;
      else if (status && part.type === "tool-result" && part.toolCallId === toolCallId) status.result ??= part;
    }
  }
  return status;
}

/** Every tool call of the messages, with its status. */
export function toolCalls(messages: readonly ChatMessage[]): ToolCallStatus[] {
  const ids: string[] = [];
  for (const message of messages) for (const part of message.content) if (part.type === "tool-call") ids.push(part.toolCallId);
  return ids.map((id) => toolCallStatus(messages, id)!);
}

/** Waiting for the toolbar's approval: requires it and has neither approval nor result. */
export function awaitsApproval(s: ToolCallStatus): boolean {
  return s.call.requiresApproval && !s.approval && !s.result;
}

/** Waiting for the toolbar's result: a toolbar call, approved or needing no approval, without a result. */
export function awaitsToolbarResult(s: ToolCallStatus): boolean {
  return s.call.runtime === "toolbar" && !s.result && (!s.call.requiresApproval || s.approval?.approved === true);
}
