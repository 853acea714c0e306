/**
 * The toolbar's view of a stagewise-chat agent (§3 r4) and the normative reducer of `chat.getChatUpdates` (r7), plus
 * the sequence rules of r6. This is the one definition of what an update means: checks, the reference mock, the agent
 * adapter and client checks all reduce with it. Pure and browser-safe; states are never mutated, so a caller may keep
 * any previous state. A state shares what did not change with the one it came from, so an update costs the same on a
 * chat of ten messages as on one of a million, and keeping many states costs little more than keeping one.
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
import { IdList } from "../core/id-list.js";

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
  return stateOf({ chats: noChats(), activeChatId: null, messages: noMessages(), isWorking: false, workingDescription: undefined, pendingFullSync: null }, null);
}

export type ChatReduced = Reduced<ChatState>;

const R7 = "r7";

/**
 * What a state made here holds beneath its arrays: the chats and the active chat's messages as lists whose versions
 * share their structure, found by id. An update makes new versions of them in a few steps, whatever the chat's length,
 * and leaves the state it came from as it was. `chats` and `messages` are built from them when first read (once per
 * state): a caller that reads them after every update pays for the whole chat each time, which the accessors at the
 * end of this module (messageById, forEachChangedMessage…) avoid. The draft is the next state's members, changed in
 * place while one update is applied.
 */
interface Draft {
  chats: IdList<ChatSummary>;
  messages: IdList<ChatMessage>;
  activeChatId: string | null;
  isWorking: boolean;
  workingDescription: string | undefined;
  pendingFullSync: ChatState["pendingFullSync"];
}

// Fresh empty lists, not shared constants: the lists that grow from one share its index of ids.
const noChats = () => IdList.from<ChatSummary>([]);
const noMessages = () => IdList.from<ChatMessage>([]);

/**
 * A state made here: plain data members, and `chats` and `messages` as enumerable getters over its lists (own
 * properties, so spreads, structuredClone and deep-equals see them as members), each array built once, when first read.
 */
class ListedState implements ChatState {
  // Own accessors shared by every state; declared here, where they may read the private members.
  static readonly #arrays: PropertyDescriptorMap = {
    chats: {
      enumerable: true,
      get(this: ListedState) {
        return (this.#chats ??= this.#lists.chats.toArray());
      },
    },
    messages: {
      enumerable: true,
      get(this: ListedState) {
        return (this.#messages ??= this.#lists.messages.toArray());
      },
    },
  };

  declare readonly chats: readonly ChatSummary[];
  declare readonly messages: readonly ChatMessage[];
  readonly activeChatId: string | null;
  readonly isWorking: boolean;
  declare readonly workingDescription?: string;
  readonly lastSeq: number | null;
  readonly pendingFullSync: ChatState["pendingFullSync"];
  readonly #lists: { readonly chats: IdList<ChatSummary>; readonly messages: IdList<ChatMessage> };
  #chats: readonly ChatSummary[] | undefined;
  #messages: readonly ChatMessage[] | undefined;

  constructor(d: Draft, lastSeq: number | null) {
    Object.defineProperties(this, ListedState.#arrays);
    this.#lists = { chats: d.chats, messages: d.messages };
    this.activeChatId = d.activeChatId;
    this.isWorking = d.isWorking;
    if (d.workingDescription !== undefined) (this as { workingDescription?: string }).workingDescription = d.workingDescription;
    this.lastSeq = lastSeq;
    this.pendingFullSync = d.pendingFullSync;
  }

  /** The lists beneath a state made here; undefined for one built by hand, whose arrays are all there is. */
  static listsOf(state: ChatState): { readonly chats: IdList<ChatSummary>; readonly messages: IdList<ChatMessage> } | undefined {
    return #lists in state ? (state as ListedState).#lists : undefined;
  }
}

const stateOf = (d: Draft, lastSeq: number | null): ChatState => new ListedState(d, lastSeq);
const listsOf = ListedState.listsOf;

/** A draft of the state after `state`. */
function draftOf(state: ChatState): Draft {
  const own = listsOf(state);
  return {
    chats: own ? own.chats : IdList.from(state.chats),
    messages: own ? own.messages : IdList.from(state.messages),
    activeChatId: state.activeChatId,
    isWorking: state.isWorking,
    workingDescription: state.workingDescription,
    pendingFullSync: state.pendingFullSync,
  };
}

/** A broken rule: the update is refused and the draft dropped. */
type Broken = ReturnType<typeof violation>;

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
    const d = draftOf(state);
    d.pendingFullSync = null;
    const broken = reduce(d, update, seq);
    return broken ?? { ok: true, state: stateOf(d, seq) };
  } catch (error) {
    // Only reachable with values no schema admits (e.g. getters that throw, uncloneable tool input).
    return violation(R7, "update", "", `update cannot be applied: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function reduce(d: Draft, update: ChatUpdate, seq: number): Broken | undefined {
  switch (update.type) {
    case "chat-list":
      return chatList(d, update.chats);
    case "chat-created":
      return chatCreated(d, update.chat);
    case "chat-deleted": {
      if (d.chats.position(update.chatId) < 0) return unknownChat("chat-deleted", update.chatId);
      d.chats = IdList.from(d.chats.toArray().filter((chat) => chat.id !== update.chatId));
      if (d.activeChatId === update.chatId) {
        d.activeChatId = null;
        d.messages = noMessages();
      }
      return undefined;
    }
    case "chat-switched": {
      if (d.chats.position(update.chatId) < 0) return unknownChat("chat-switched", update.chatId);
      d.chats = IdList.from(d.chats.toArray().map((chat) => (chat.isActive === (chat.id === update.chatId) ? chat : { ...chat, isActive: !chat.isActive })));
      d.activeChatId = update.chatId;
      // The messages arrive with the chat-full-sync that must come next.
      d.messages = noMessages();
      d.pendingFullSync = { chatId: update.chatId, afterSeq: seq };
      return undefined;
    }
    case "chat-full-sync":
      return chatFullSync(d, update.chat);
    case "chat-title-updated": {
      if (d.chats.position(update.chatId) < 0) return unknownChat("chat-title-updated", update.chatId);
      if (typeof update.title !== "string") return violation(R7, "chat-title-updated.title", "/title", "title is not a string");
      d.chats = patchChat(d.chats, update.chatId, { title: update.title });
      return undefined;
    }
    case "agent-state": {
      if (typeof update.isWorking !== "boolean") return violation(R7, "agent-state.is-working", "/isWorking", "isWorking is not a boolean");
      d.isWorking = update.isWorking;
      d.workingDescription = update.description;
      return undefined;
    }
    case "message-added":
      return messageAdded(d, update.chatId, update.message);
    case "message-updated":
      return messageUpdated(d, update.chatId, update.update);
    case "messages-deleted":
      return messagesDeleted(d, update.chatId, update.fromMessageId, update.deletedCount);
    default:
      return violation(R7, "unknown-type", "/type", `unknown update type "${String((update as { type: unknown }).type)}"`);
  }
}

function chatList(d: Draft, chats: unknown): Broken | undefined {
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
  if (active === null || active !== d.activeChatId) d.messages = noMessages();
  d.chats = IdList.from(list);
  d.activeChatId = active;
  return undefined;
}

function chatCreated(d: Draft, chat: unknown): Broken | undefined {
  const bad = chatShape(chat);
  if (bad) return violation(R7, "chat-created", `/chat${bad.path}`, bad.message);
  const c = chat as Chat;
  if (d.chats.position(c.id) >= 0) return violation(R7, "chat-created.new-id", "/chat/id", `chat "${c.id}" already exists`);
  const summary: ChatSummary = { id: c.id, title: c.title, createdAt: c.createdAt, isActive: c.isActive === true, messageCount: c.messages.length };
  if (!summary.isActive) {
    d.chats = d.chats.push(summary);
    return undefined;
  }
  const dup = duplicateMessageId(c.messages);
  if (dup) return violation("r10", "unique-message-ids", `/chat/messages/${dup.index}/id`, `message id "${dup.id}" appears twice`);
  // An active new chat becomes the active one without a chat-switched.
  d.chats = IdList.from([...d.chats.toArray().map((other) => (other.isActive ? { ...other, isActive: false } : other)), summary]);
  d.activeChatId = c.id;
  d.messages = IdList.from(copyJson(c.messages));
  return undefined;
}

function chatFullSync(d: Draft, chat: unknown): Broken | undefined {
  const bad = chatShape(chat);
  if (bad) return violation(R7, "chat-full-sync", `/chat${bad.path}`, bad.message);
  const c = chat as Chat;
  if (d.activeChatId === null || c.id !== d.activeChatId) {
    return violation(R7, "chat-full-sync.active-only", "/chat/id", `chat "${c.id}" is not the active chat (${d.activeChatId === null ? "none is" : `"${d.activeChatId}" is`})`);
  }
  if (c.isActive !== true) return violation(R7, "chat-full-sync.active-only", "/chat/isActive", `full sync of the active chat "${c.id}" says isActive:false`);
  const dup = duplicateMessageId(c.messages);
  if (dup) return violation("r10", "unique-message-ids", `/chat/messages/${dup.index}/id`, `message id "${dup.id}" appears twice`);
  d.chats = patchChat(d.chats, c.id, { title: c.title, messageCount: c.messages.length });
  d.messages = IdList.from(copyJson(c.messages));
  return undefined;
}

function messageAdded(d: Draft, chatId: string, message: unknown): Broken | undefined {
  const at = d.chats.position(chatId);
  if (at < 0) return unknownChat("message-added", chatId);
  if (!isRecord(message) || typeof message.id !== "string") return violation(R7, "message-added", "/message", "not a message with an id");
  const chat = d.chats.at(at)!;
  const chats = d.chats.set(at, { ...chat, messageCount: chat.messageCount + 1 });
  if (chatId === d.activeChatId) {
    const id = message.id;
    if (d.messages.position(id) >= 0) return violation(R7, "message-added.new-id", "/message/id", `message "${id}" already exists in chat "${chatId}"`);
    d.messages = d.messages.push(copyJson(message) as unknown as ChatMessage);
  }
  d.chats = chats;
  return undefined;
}

const PARTS_BY_ROLE: Record<string, ReadonlySet<string>> = {
  assistant: new Set(["text", "file", "reasoning", "tool-call", "tool-result"]),
  tool: new Set(["tool-result"]),
};

function messageUpdated(d: Draft, chatId: string, update: unknown): Broken | undefined {
  const clause = (name: string) => `message-updated.${name}`;
  if (d.chats.position(chatId) < 0) return unknownChat("message-updated", chatId);
  // Only the active chat's messages are held; edits elsewhere are ignored (r7).
  if (chatId !== d.activeChatId) return undefined;
  if (!isRecord(update)) return violation(R7, clause("update"), "/update", "update is not an object");
  const { messageId, partIndex, updateType, content } = update as unknown as MessagePartUpdate;
  const at = d.messages.position(messageId);
  if (at < 0) return violation(R7, clause("known-message"), "/update/messageId", `no message "${String(messageId)}" in the active chat "${chatId}"`);
  const target = d.messages.at(at)!;
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
  d.messages = d.messages.set(at, { ...target, content: next } as ChatMessage);
  return undefined;
}

function messagesDeleted(d: Draft, chatId: string, fromMessageId: string, deletedCount: number): Broken | undefined {
  const chat = d.chats.get(chatId);
  if (!chat) return unknownChat("messages-deleted", chatId);
  if (!Number.isSafeInteger(deletedCount) || deletedCount < 1) {
    return violation(R7, "messages-deleted.deleted-count", "/deletedCount", `deletedCount ${String(deletedCount)} is not a positive integer`);
  }
  if (chatId !== d.activeChatId) {
    // Without the messages only the count can be judged.
    if (deletedCount > chat.messageCount) {
      return violation(R7, "messages-deleted.deleted-count", "/deletedCount", `deletedCount ${deletedCount} exceeds chat "${chatId}"'s ${chat.messageCount} messages`);
    }
    d.chats = patchChat(d.chats, chatId, { messageCount: chat.messageCount - deletedCount });
    return undefined;
  }
  const at = d.messages.position(fromMessageId);
  if (at < 0) return violation(R7, "messages-deleted.known-message", "/fromMessageId", `no message "${String(fromMessageId)}" in the active chat "${chatId}"`);
  const removed = d.messages.size - at;
  if (removed !== deletedCount) {
    return violation(R7, "messages-deleted.deleted-count", "/deletedCount", `deleting from "${fromMessageId}" removes ${removed} messages, deletedCount says ${deletedCount}`);
  }
  d.chats = patchChat(d.chats, chatId, { messageCount: Math.max(0, chat.messageCount - removed) });
  d.messages = d.messages.truncate(at);
  return undefined;
}

function unknownChat(type: string, chatId: unknown): Broken {
  return violation(R7, `${type}.known-chat`, "/chatId", `no chat "${String(chatId)}"`);
}

function patchChat(chats: IdList<ChatSummary>, id: string, patch: Partial<ChatSummary>): IdList<ChatSummary> {
  const at = chats.position(id);
  return at < 0 ? chats : chats.set(at, { ...chats.at(at)!, ...patch });
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

// ---- reading a state without building its arrays ----

/** The number of messages of the active chat (`state.messages.length`). */
export function messageCount(state: ChatState): number {
  return listsOf(state)?.messages.size ?? state.messages.length;
}

/** The active chat's message at `index` (`state.messages[index]`). */
export function messageAt(state: ChatState, index: number): ChatMessage | undefined {
  const own = listsOf(state);
  return own ? own.messages.at(index) : state.messages[index];
}

/** Where the active chat holds the message `id`, or -1 (`state.messages.findIndex` by id). */
export function messageIndex(state: ChatState, id: unknown): number {
  const own = listsOf(state);
  return own ? own.messages.position(id) : state.messages.findIndex((m) => m.id === id);
}

/** The active chat's message `id` (`state.messages.find` by id). */
export function messageById(state: ChatState, id: unknown): ChatMessage | undefined {
  const at = messageIndex(state, id);
  return at < 0 ? undefined : messageAt(state, at);
}

/** The chat `id` of the list (`state.chats.find` by id). */
export function chatById(state: ChatState, id: unknown): ChatSummary | undefined {
  const own = listsOf(state);
  return own ? own.chats.get(id) : state.chats.find((c) => c.id === id);
}

/**
 * Calls `fn` for every message of `next` that is not the same object at the same place in `prev`, in order: what an
 * update changed, found in a few steps when `next` was reduced from `prev` (the reducer keeps unchanged messages as
 * they were). For states built by hand, every place is compared.
 */
export function forEachChangedMessage(prev: ChatState, next: ChatState, fn: (message: ChatMessage, index: number) => void): void {
  const before = listsOf(prev);
  const after = listsOf(next);
  if (before && after) return after.messages.forEachChanged(before.messages, fn);
  const old = prev.messages;
  const now = next.messages;
  for (let i = 0; i < now.length; i++) if (now[i] !== old[i]) fn(now[i]!, i);
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
