/**
 * The toolbar's chat mutations, each checked in the order of §3 r12 before anything changes: unknown ids
 * (NOT_FOUND) → working gate (CONFLICT) → non-active chat → tool-call state → the agent's hooks (FORBIDDEN). Input
 * shape is checked earlier, by the router. A rejection changes and emits nothing.
 */
import type {
  ApproveToolCallInput,
  ChatIdInput,
  CreateChatInput,
  DeleteMessageInput,
  ReportToolResultInput,
  SendMessageInput,
  UpdateChatTitleInput,
  UserChatMessage,
} from "../../generated/stagewise-chat.js";
import type { ChatAgent } from "./chat-agent.js";
import { Rejection } from "./rejection.js";
import { awaitsApproval, awaitsToolbarResult, toolCallStatus } from "./tool-calls.js";
import type { Verdict } from "./types.js";

function requireChat(agent: ChatAgent, chatId: string): void {
  if (!agent.store.chat(chatId)) throw new Rejection("chat-not-found", `no chat "${chatId}"`);
}

function gate(agent: ChatAgent): void {
  if (agent.store.state.isWorking) throw new Rejection("agent-working", "agent is working: wait for isWorking:false or call chat.stop");
}

function requireActive(agent: ChatAgent, chatId: string): void {
  if (agent.store.state.activeChatId !== chatId) throw new Rejection("chat-not-active", `chat "${chatId}" is not the active chat`);
}

function requireToolCall(agent: ChatAgent, chatId: string, toolCallId: string) {
  const status = toolCallStatus(agent.store.messages(chatId), toolCallId);
  if (!status) throw new Rejection("tool-call-not-found", `no tool call "${toolCallId}" in chat "${chatId}"`);
  return status;
}

/** A hook's refusal (false) becomes FORBIDDEN; `reject()` inside it throws its own rejection. */
async function ask<T>(hook: (() => T | Promise<T>) | undefined): Promise<T | undefined> {
  if (!hook) return undefined;
  const answer = await hook();
  if ((answer as Verdict) === false) throw new Rejection("rejected-by-agent", "rejected by the agent");
  return answer;
}

export async function createChat(agent: ChatAgent, input: CreateChatInput): Promise<string> {
  agent.flush();
  gate(agent);
  const requested = input?.title ?? agent.defaultChatTitle;
  const answer = await ask(agent.hooks.onCreateChat && (() => agent.hooks.onCreateChat!({ title: requested })));
  const title = typeof answer === "string" ? answer : requested;
  if (title.length < 1 || title.length > 256) throw new Error(`onCreateChat returned a title of ${title.length} characters (1..256)`);
  // The state may have moved while the hook ran.
  gate(agent);
  return agent.createNow(title);
}

export async function switchChat(agent: ChatAgent, { chatId }: ChatIdInput): Promise<void> {
  agent.flush();
  requireChat(agent, chatId);
  const from = agent.store.state.activeChatId;
  if (from === chatId) return;
  gate(agent);
  await ask(agent.hooks.onSwitchChat && (() => agent.hooks.onSwitchChat!({ fromChatId: from, toChatId: chatId })));
  requireChat(agent, chatId);
  gate(agent);
  if (agent.store.state.activeChatId !== chatId) agent.switchNow(chatId);
}

export async function deleteChat(agent: ChatAgent, { chatId }: ChatIdInput): Promise<void> {
  agent.flush();
  requireChat(agent, chatId);
  gate(agent);
  await ask(agent.hooks.onDeleteChat && (() => agent.hooks.onDeleteChat!({ chatId })));
  requireChat(agent, chatId);
  gate(agent);
  agent.emit({ type: "chat-deleted", chatId });
}

export function updateChatTitle(agent: ChatAgent, { chatId, title }: UpdateChatTitleInput): void {
  requireChat(agent, chatId);
  agent.emit({ type: "chat-title-updated", chatId, title });
}

export function deleteMessageAndSubsequent(agent: ChatAgent, { chatId, messageId }: DeleteMessageInput): void {
  agent.flush();
  requireChat(agent, chatId);
  const messages = agent.store.messages(chatId);
  const at = messages.findIndex((m) => m.id === messageId);
  if (at < 0) throw new Rejection("message-not-found", `no message "${messageId}" in chat "${chatId}"`);
  gate(agent);
  agent.emit({ type: "messages-deleted", chatId, fromMessageId: messageId, deletedCount: messages.length - at });
}

export function sendMessage(agent: ChatAgent, input: SendMessageInput): string {
  agent.flush();
  requireChat(agent, input.chatId);
  // Sending while working is the agent's policy (r11); this adapter refuses rather than queues.
  gate(agent);
  requireActive(agent, input.chatId);
  const message: UserChatMessage = { id: agent.newMessageId(), role: "user", createdAt: new Date().toISOString(), content: input.content, metadata: input.metadata };
  agent.emit({ type: "message-added", chatId: input.chatId, message });
  agent.startTurn(input.chatId, message);
  return message.id;
}

export function approveToolCall(agent: ChatAgent, input: ApproveToolCallInput): void {
  agent.flush();
  requireChat(agent, input.chatId);
  const status = requireToolCall(agent, input.chatId, input.toolCallId);
  requireActive(agent, input.chatId);
  if (!awaitsApproval(status)) throw new Rejection("tool-call-not-pending", `tool call "${input.toolCallId}" awaits no approval`);
  const part = { type: "tool-approval" as const, toolCallId: input.toolCallId, approved: input.approved, ...(input.reason !== undefined ? { reason: input.reason } : {}) };
  const message: UserChatMessage = { id: agent.newMessageId(), role: "user", createdAt: new Date().toISOString(), content: [part], metadata: input.metadata };
  agent.emit({ type: "message-added", chatId: input.chatId, message });
  const answer = input.reason !== undefined ? { approved: input.approved, reason: input.reason } : { approved: input.approved };
  agent.settleApproval(input.toolCallId, answer);
  if (agent.hooks.onToolApproval) agent.guard(() => agent.hooks.onToolApproval!({ chatId: input.chatId, toolCallId: input.toolCallId, ...answer }));
}

export function reportToolResult(agent: ChatAgent, input: ReportToolResultInput): void {
  agent.flush();
  requireChat(agent, input.chatId);
  const status = requireToolCall(agent, input.chatId, input.toolCallId);
  requireActive(agent, input.chatId);
  if (!awaitsToolbarResult(status)) throw new Rejection("tool-call-not-pending", `tool call "${input.toolCallId}" awaits no result from the toolbar`);
  const isError = input.isError === true;
  agent.storeResult(input.chatId, status, input.output, isError);
  agent.settleToolbarResult(input.toolCallId, { output: input.output, isError });
  const call = status.call;
  if (agent.hooks.onToolResult) agent.guard(() => agent.hooks.onToolResult!({ chatId: input.chatId, toolCallId: call.toolCallId, toolName: call.toolName, output: input.output, isError }));
}

export function stop(agent: ChatAgent): void {
  agent.stop();
}
