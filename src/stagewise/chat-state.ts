/**
 * The toolbar's view of a stagewise-chat agent (§3 r4) and the normative reducer of `chat.getChatUpdates` (r7), plus
 * the sequence rules of r6. This is the one definition of what an update means: checks, the reference mock, the agent
 * adapter and client checks all reduce with it. Pure and browser-safe; states are never mutated, so a caller may keep
 * any previous state.
 */
import type {
  AssistantChatPart,
  Chat,
  ChatListItem,
  ChatMessage,
  ChatUpdate,
  MessagePartUpdate,
} from "../generated/stagewise-chat.js";
import { isRecord, joined, violation, type Reduced } from "./reduced.js";
import { copyJson } from "../core/json-depth.js";

/** One entry of the chat list, as `chat-list` carries it. */
export type ChatSummary = Readonly<ChatListItem>;

export interface ChatState {
  /** Every chat, in the agent's order. */
  readonly chats: readonly ChatSummary[];
  readonly activeChatId: string | null;
  /** The active chat's messages, in order (empty when no chat is active). */
  readonly messages: readonly ChatMessage[];
  readonly isWorking: boolean;
  readonly workingDescription?: string;
  /** Seq of the last update applied; null before the first. */
  readonly lastSeq: number | null;
  /** After `chat-switched` at `afterSeq`, the update at `afterSeq + 1` must be this chat's `chat-full-sync`. */
  readonly pendingFullSync: { readonly chatId: string; readonly afterSeq: number } | null;
}

/** The state before a subscription's snapshot. Every (re)subscription starts here: the snapshot replaces all. */
export function initialChatState(): ChatState {
  return { chats: [], activeChatId: null, messages: [], isWorking: false, lastSeq: null, pendingFullSync: null };
}

export type ChatReduced = Reduced<ChatState>;

const R7 = "r7";

/**
 * Applies one update carried with event id `seq` (r7). Returns the new state, or the clause the update broke; never
 * throws, whatever `update` holds (shape is the schema's job, so a malformed update is reported, not judged further).
 */
export function applyChatUpdate(state: ChatState, update: ChatUpdate, seq: number): ChatReduced {
  if (!Number.isSafeInteger(seq) || seq < 0) return violation("r6", "seq", "", `seq ${String(seq)} is not a non-negative integer`);
  if (!isRecord(update) || typeof update.type !== "string") return violation(R7, "update", "", "update is not an object with a type");
  try {
    const pending = state.pendingFullSync;
    if (pending) {
      const fullSyncOf = update.type === "chat-full-sync" && isRecord(update.chat) ? update.chat.id : undefined;
      if (fullSyncOf !== pending.chatId || seq !== pending.afterSeq + 1) {
        return violation(
          R7,
          "chat-switched.full-sync-next",
          update.type === "chat-full-sync" ? "/chat/id" : "/type",
          `chat-switched to "${pending.chatId}" at seq ${pending.afterSeq} must be followed by its chat-full-sync at seq ${pending.afterSeq + 1}, got ${update.type}${fullSyncOf !== undefined ? ` of "${String(fullSyncOf)}"` : ""} at seq ${seq}`,
        );
      }
    }
    // The copy only when there is a pending full sync to clear: reduce never changes the state it is given.
    const result = reduce(pending ? { ...state, pendingFullSync: null } : state, update, seq);
    return result.ok ? { ok: true, state: { ...result.state, lastSeq: seq } } : result;
  } catch (error) {
    // Only reachable with values no schema admits (e.g. getters that throw, uncloneable tool input).
    return violation(R7, "update", "", `update cannot be applied: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function reduce(state: ChatState, update: ChatUpdate, seq: number): ChatReduced {
  switch (update.type) {
    case "chat-list":
      return chatList(state, update.chats);
    case "chat-created":
      return chatCreated(state, update.chat);
    case "chat-deleted": {
      if (!findChat(state, update.chatId)) return unknownChat("chat-deleted", update.chatId);
      const wasActive = state.activeChatId === update.chatId;
      return ok({
        ...state,
        chats: state.chats.filter((chat) => chat.id !== update.chatId),
        activeChatId: wasActive ? null : state.activeChatId,
        messages: wasActive ? [] : state.messages,
      });
    }
    case "chat-switched": {
      if (!findChat(state, update.chatId)) return unknownChat("chat-switched", update.chatId);
      return ok({
        ...state,
        chats: state.chats.map((chat) => (chat.isActive === (chat.id === update.chatId) ? chat : { ...chat, isActive: !chat.isActive })),
        activeChatId: update.chatId,
        // The messages arrive with the chat-full-sync that must come next.
        messages: [],
        pendingFullSync: { chatId: update.chatId, afterSeq: seq },
      });
    }
    case "chat-full-sync":
      return chatFullSync(state, update.chat);
    case "chat-title-updated": {
      if (!findChat(state, update.chatId)) return unknownChat("chat-title-updated", update.chatId);
      if (typeof update.title !== "string") return violation(R7, "chat-title-updated.title", "/title", "title is not a string");
      return ok({ ...state, chats: patchChat(state.chats, update.chatId, { title: update.title }) });
    }
    case "agent-state": {
      if (typeof update.isWorking !== "boolean") return violation(R7, "agent-state.is-working", "/isWorking", "isWorking is not a boolean");
      const { workingDescription: _previous, ...rest } = state;
      const isWorking = update.isWorking;
      return ok(update.description === undefined ? { ...rest, isWorking } : { ...rest, isWorking, workingDescription: update.description });
    }
    case "message-added":
      return messageAdded(state, update.chatId, update.message);
    case "message-updated":
      return messageUpdated(state, update.chatId, update.update);
    case "messages-deleted":
      return messagesDeleted(state, update.chatId, update.fromMessageId, update.deletedCount);
    default:
      return violation(R7, "unknown-type", "/type", `unknown update type "${String((update as { type: unknown }).type)}"`);
  }
}

function chatList(state: ChatState, chats: unknown): ChatReduced {
  if (!Array.isArray(chats)) return violation(R7, "chat-list", "/chats", "chats is not an array");
  const seen = new Set<string>();
  let active: string | null = null;
  const list: ChatSummary[] = [];
  for (const [i, item] of chats.entries()) {
    if (!isRecord(item) || typeof item.id !== "string") return violation(R7, "chat-list", `/chats/${i}`, "not a chat list item");
    if (seen.has(item.id)) return violation(R7, "chat-list.unique-ids", `/chats/${i}/id`, `chat "${item.id}" is listed twice`);
    seen.add(item.id);
    if (item.isActive === true) {
      if (active !== null) {
        return violation(R7, "chat-list.at-most-one-active", `/chats/${i}/isActive`, `chats "${active}" and "${item.id}" are both active (r4: at most one)`);
      }
      active = item.id;
    }
    list.push({ ...(item as unknown as ChatListItem) });
  }
  // The list has no messages: keep the ones we hold only if the same chat stays active (a snapshot's
  // chat-full-sync follows anyway).
  const messages = active !== null && active === state.activeChatId ? state.messages : [];
  return ok({ ...state, chats: list, activeChatId: active, messages });
}

function chatCreated(state: ChatState, chat: unknown): ChatReduced {
  const bad = chatShape(chat);
  if (bad) return violation(R7, "chat-created", `/chat${bad.path}`, bad.message);
  const c = chat as Chat;
  if (findChat(state, c.id)) return violation(R7, "chat-created.new-id", "/chat/id", `chat "${c.id}" already exists`);
  const summary: ChatSummary = { id: c.id, title: c.title, createdAt: c.createdAt, isActive: c.isActive === true, messageCount: c.messages.length };
  if (!summary.isActive) return ok({ ...state, chats: [...state.chats, summary] });
  const dup = duplicateMessageId(c.messages);
  if (dup) return violation("r10", "unique-message-ids", `/chat/messages/${dup.index}/id`, `message id "${dup.id}" appears twice`);
  // An active new chat becomes the active one without a chat-switched.
  return ok({
    ...state,
    chats: [...state.chats.map((other) => (other.isActive ? { ...other, isActive: false } : other)), summary],
    activeChatId: c.id,
    messages: copyJson(c.messages),
  });
}

function chatFullSync(state: ChatState, chat: unknown): ChatReduced {
  const bad = chatShape(chat);
  if (bad) return violation(R7, "chat-full-sync", `/chat${bad.path}`, bad.message);
  const c = chat as Chat;
  if (state.activeChatId === null || c.id !== state.activeChatId) {
    return violation(R7, "chat-full-sync.active-only", "/chat/id", `chat "${c.id}" is not the active chat (${state.activeChatId === null ? "none is" : `"${state.activeChatId}" is`})`);
  }
  if (c.isActive !== true) return violation(R7, "chat-full-sync.active-only", "/chat/isActive", `full sync of the active chat "${c.id}" says isActive:false`);
  const dup = duplicateMessageId(c.messages);
  if (dup) return violation("r10", "unique-message-ids", `/chat/messages/${dup.index}/id`, `message id "${dup.id}" appears twice`);
  return ok({
    ...state,
    chats: patchChat(state.chats, c.id, { title: c.title, messageCount: c.messages.length }),
    messages: copyJson(c.messages),
  });
}

function messageAdded(state: ChatState, chatId: string, message: unknown): ChatReduced {
  const chat = findChat(state, chatId);
  if (!chat) return unknownChat("message-added", chatId);
  if (!isRecord(message) || typeof message.id !== "string") return violation(R7, "message-added", "/message", "not a message with an id");
  const chats = patchChat(state.chats, chatId, { messageCount: chat.messageCount + 1 });
  if (chatId !== state.activeChatId) return ok({ ...state, chats });
  const id = message.id;
  if (state.messages.some((m) => m.id === id)) return violation(R7, "message-added.new-id", "/message/id", `message "${id}" already exists in chat "${chatId}"`);
  return ok({ ...state, chats, messages: [...state.messages, copyJson(message) as unknown as ChatMessage] });
}

const PARTS_BY_ROLE: Record<string, ReadonlySet<string>> = {
  assistant: new Set(["text", "file", "reasoning", "tool-call", "tool-result"]),
  tool: new Set(["tool-result"]),
};

function messageUpdated(state: ChatState, chatId: string, update: unknown): ChatReduced {
  const clause = (name: string) => `message-updated.${name}`;
  if (!findChat(state, chatId)) return unknownChat("message-updated", chatId);
  // Only the active chat's messages are held; edits elsewhere are ignored (r7).
  if (chatId !== state.activeChatId) return ok(state);
  if (!isRecord(update)) return violation(R7, clause("update"), "/update", "update is not an object");
  const { messageId, partIndex, updateType, content } = update as unknown as MessagePartUpdate;
  const at = state.messages.findIndex((m) => m.id === messageId);
  if (at < 0) return violation(R7, clause("known-message"), "/update/messageId", `no message "${String(messageId)}" in the active chat "${chatId}"`);
  const target = state.messages[at]!;
  const allowed = Object.hasOwn(PARTS_BY_ROLE, target.role) ? PARTS_BY_ROLE[target.role] : undefined;
  if (!allowed) return violation(R7, clause("assistant-or-tool"), "/update/messageId", `message "${messageId}" is a ${target.role} message; only assistant and tool messages change`);
  if (!isRecord(content) || typeof content.type !== "string") return violation(R7, clause("content"), "/update/content", "content is not a part");
  if (!allowed.has(content.type)) return violation(R7, clause("part-for-role"), "/update/content/type", `a ${target.role} message holds no ${content.type} part`);
  if (!Number.isSafeInteger(partIndex) || partIndex < 0) return violation(R7, clause("part-index"), "/update/partIndex", `partIndex ${String(partIndex)} is not a non-negative integer`);
  const parts = target.content as AssistantChatPart[];
  const length = parts.length;
  let next: AssistantChatPart[];
  if (updateType === "create") {
    if (partIndex !== length) return violation(R7, clause("create-at-end"), "/update/partIndex", `create at partIndex ${partIndex}, but the message has ${length} parts (create only at partIndex == length)`);
    next = [...parts, copyJson(content)];
  } else if (updateType === "replace" || updateType === "append") {
    if (partIndex >= length) return violation(R7, clause("index-in-range"), "/update/partIndex", `${updateType} at partIndex ${partIndex}, but the message has ${length} parts (only below length)`);
    const existing = parts[partIndex]!;
    if (existing.type === "tool-call" || content.type === "tool-call") {
      return violation(R7, clause("tool-call-immutable"), existing.type === "tool-call" ? "/update/partIndex" : "/update/content/type", `tool-call parts are never ${updateType === "replace" ? "replaced" : "appended"}`);
    }
    if (updateType === "append") {
      if ((existing.type !== "text" && existing.type !== "reasoning") || existing.type !== content.type) {
        return violation(R7, clause("append-same-text-type"), "/update/content/type", `append ${content.type} onto a ${existing.type} part (only text or reasoning onto the same type)`);
      }
      if (typeof content.text !== "string") return violation(R7, clause("content"), "/update/content/text", "text is not a string");
      next = parts.slice();
      next[partIndex] = { ...existing, text: joined(existing.text, content.text) };
    } else {
      next = parts.slice();
      next[partIndex] = copyJson(content);
    }
  } else {
    return violation(R7, clause("update-type"), "/update/updateType", `unknown updateType "${String(updateType)}"`);
  }
  const messages = state.messages.slice();
  messages[at] = { ...target, content: next } as ChatMessage;
  return ok({ ...state, messages });
}

function messagesDeleted(state: ChatState, chatId: string, fromMessageId: string, deletedCount: number): ChatReduced {
  const chat = findChat(state, chatId);
  if (!chat) return unknownChat("messages-deleted", chatId);
  if (!Number.isSafeInteger(deletedCount) || deletedCount < 1) {
    return violation(R7, "messages-deleted.deleted-count", "/deletedCount", `deletedCount ${String(deletedCount)} is not a positive integer`);
  }
  if (chatId !== state.activeChatId) {
    // Without the messages only the count can be judged.
    if (deletedCount > chat.messageCount) {
      return violation(R7, "messages-deleted.deleted-count", "/deletedCount", `deletedCount ${deletedCount} exceeds chat "${chatId}"'s ${chat.messageCount} messages`);
    }
    return ok({ ...state, chats: patchChat(state.chats, chatId, { messageCount: chat.messageCount - deletedCount }) });
  }
  const at = state.messages.findIndex((m) => m.id === fromMessageId);
  if (at < 0) return violation(R7, "messages-deleted.known-message", "/fromMessageId", `no message "${String(fromMessageId)}" in the active chat "${chatId}"`);
  const removed = state.messages.length - at;
  if (removed !== deletedCount) {
    return violation(R7, "messages-deleted.deleted-count", "/deletedCount", `deleting from "${fromMessageId}" removes ${removed} messages, deletedCount says ${deletedCount}`);
  }
  return ok({
    ...state,
    chats: patchChat(state.chats, chatId, { messageCount: Math.max(0, chat.messageCount - removed) }),
    messages: state.messages.slice(0, at),
  });
}

function ok(state: ChatState): ChatReduced {
  return { ok: true, state };
}

function findChat(state: ChatState, chatId: unknown): ChatSummary | undefined {
  return state.chats.find((chat) => chat.id === chatId);
}

function unknownChat(type: string, chatId: unknown): ChatReduced {
  return violation(R7, `${type}.known-chat`, "/chatId", `no chat "${String(chatId)}"`);
}

function patchChat(chats: readonly ChatSummary[], id: string, patch: Partial<ChatSummary>): ChatSummary[] {
  return chats.map((chat) => (chat.id === id ? { ...chat, ...patch } : chat));
}

function chatShape(chat: unknown): { path: string; message: string } | undefined {
  if (!isRecord(chat)) return { path: "", message: "chat is not an object" };
  if (typeof chat.id !== "string") return { path: "/id", message: "chat id is not a string" };
  if (typeof chat.title !== "string") return { path: "/title", message: "title is not a string" };
  if (!Array.isArray(chat.messages)) return { path: "/messages", message: "messages is not an array" };
  const bad = chat.messages.findIndex((m) => !isRecord(m) || typeof m.id !== "string" || !Array.isArray(m.content));
  if (bad >= 0) return { path: `/messages/${bad}`, message: "not a message with an id and content" };
  return undefined;
}

function duplicateMessageId(messages: readonly ChatMessage[]): { id: string; index: number } | undefined {
  const seen = new Set<string>();
  for (const [index, m] of messages.entries()) {
    if (seen.has(m.id)) return { id: m.id, index };
    seen.add(m.id);
  }
  return undefined;
}

/** Applies updates in order from `state` (a fresh one by default); stops at the first violation, naming its seq. */
export function reduceChatUpdates(
  events: Iterable<{ seq: number; update: ChatUpdate }>,
  state: ChatState = initialChatState(),
): Reduced<ChatState> & { seq?: number } {
  let current = state;
  for (const { seq, update } of events) {
    const result = applyChatUpdate(current, update, seq);
    if (!result.ok) return { ...result, seq };
    current = result.state;
  }
  return { ok: true, state: current };
}

// ---- r6: sequence numbers ----

/**
 * How an event id relates to the last one seen on a subscription (r6). Snapshot frames all carry the head S, so
 * `duplicate` is expected inside a snapshot and a fault after it; `gap` means resubscribe; `restart` means the agent
 * restarted (take the new snapshot); `invalid` is an id that is not a decimal without leading zeros.
 */
export type SequenceVerdict = "first" | "next" | "duplicate" | "gap" | "restart" | "invalid";

/** The seq of a tracked event id (`^(0|[1-9][0-9]*)$`), or null when the id is not one. */
export function parseEventId(id: unknown): number | null {
  if (typeof id === "number") return Number.isSafeInteger(id) && id >= 0 ? id : null;
  if (typeof id !== "string" || !/^(0|[1-9][0-9]*)$/.test(id)) return null;
  const seq = Number(id);
  return Number.isSafeInteger(seq) ? seq : null;
}

export function sequenceVerdict(lastSeq: number | null, id: string | number): SequenceVerdict {
  const seq = parseEventId(id);
  if (seq === null) return "invalid";
  if (lastSeq === null) return "first";
  if (seq === lastSeq + 1) return "next";
  if (seq === lastSeq) return "duplicate";
  return seq > lastSeq ? "gap" : "restart";
}
