/**
 * The agent's chat state (§3 r4–r8): every change goes through the normative reducer before it counts, so the state
 * here is by construction what a toolbar following every delta holds, and a fresh snapshot equals it (r8). The
 * reducer keeps only the active chat's messages; the other chats' messages are kept beside it and changed through the
 * same reducer, with their chat taken as the active one.
 *
 * One exception keeps a streamed reply cheap: after the reducer has accepted a text append, the next appends to the
 * same part (nothing else in between) are applied in place to the state that append produced, as long as nothing
 * outside the store has been handed that state since. They pass the reducer's checks by construction (only that
 * part's text changed) and the reducer would give the same state; handing the state out ends the run, so a state once
 * read is never changed.
 */
import type { Chat, ChatMessage, ChatUpdate, MessagePartUpdate } from "../../generated/stagewise-chat.js";
import { applyChatUpdate, chatById, initialChatState, messageAt, messageById, messageIndex, type ChatState, type ChatSummary } from "../chat-state.js";
import { describeViolation, joined } from "../reduced.js";
import { copyOf } from "./plain-copy.js";

/** One update with its event id, as a subscriber receives it. */
export interface SeqEvent {
  seq: number;
  update: ChatUpdate;
}

/** The text append the reducer accepted last, whose state nothing outside has seen: the next ones may go in place. */
interface OpenAppend {
  readonly chatId: string;
  readonly messageId: string;
  readonly partIndex: number;
  readonly type: string;
  /** The part as the reducer made it for that append (a new object, held by this state only). */
  readonly part: { text: string };
}

export class ChatStore {
  private view: ChatState;
  private open: OpenAppend | null = null;
  /** Messages of every chat but the active one. */
  private readonly others = new Map<string, ChatMessage[]>();
  private readonly listeners = new Set<(event: SeqEvent) => void>();

  constructor(initialChats: readonly Chat[]) {
    const chats = structuredClone(initialChats) as Chat[];
    const list: ChatUpdate = {
      type: "chat-list",
      chats: chats.map((c) => ({ id: c.id, title: c.title, createdAt: c.createdAt, isActive: c.isActive, messageCount: c.messages.length })),
    };
    let view = must(applyChatUpdate(initialChatState(), list, 0), "initialChats");
    const active = chats.find((c) => c.isActive);
    if (active) view = must(applyChatUpdate(view, { type: "chat-full-sync", chat: active }, 0), "initialChats");
    for (const chat of chats) if (!chat.isActive) this.others.set(chat.id, chat.messages);
    this.view = view;
  }

  /** The head: seq of the last update (0 before any). */
  get seq(): number {
    return this.view.lastSeq ?? 0;
  }

  /** The toolbar's view of the state (the reducer's), never mutated once handed out. */
  get state(): ChatState {
    this.open = null;
    return this.view;
  }

  /** The active chat's id, without handing out the state. */
  get activeChatId(): string | null {
    return this.view.activeChatId;
  }

  chat(chatId: string): ChatSummary | undefined {
    return chatById(this.view, chatId);
  }

  messages(chatId: string): readonly ChatMessage[] {
    this.open = null;
    return this.ownMessages(chatId);
  }

  /** The chat holding a message id, the active chat first. */
  findMessage(messageId: string): { chatId: string; message: ChatMessage; index: number } | undefined {
    this.open = null;
    return this.peekMessage(messageId);
  }

  /**
   * `findMessage` for the adapter's own checks, which read the message at once and keep nothing of it: a later append
   * may change its streamed part's text in place.
   */
  peekMessage(messageId: string): { chatId: string; message: ChatMessage; index: number } | undefined {
    // Every streamed delta asks: no list of chat ids is built for it.
    const active = this.view.activeChatId;
    if (active !== null) {
      const found = this.findIn(active, messageId);
      if (found) return found;
    }
    for (const chat of this.view.chats) {
      const found = chat.id === active ? undefined : this.findIn(chat.id, messageId);
      if (found) return found;
    }
    return undefined;
  }

  private ownMessages(chatId: string): readonly ChatMessage[] {
    return chatId === this.view.activeChatId ? this.view.messages : (this.others.get(chatId) ?? []);
  }

  private findIn(chatId: string, messageId: string): { chatId: string; message: ChatMessage; index: number } | undefined {
    if (chatId === this.view.activeChatId) {
      // By id, without building the active chat's array of messages (a new one after every update).
      const index = messageIndex(this.view, messageId);
      return index < 0 ? undefined : { chatId, message: messageAt(this.view, index)!, index };
    }
    const messages = this.ownMessages(chatId);
    // From the end: the message streamed into is usually the last (ids are unique within a chat, r10).
    for (let index = messages.length - 1; index >= 0; index--) if (messages[index]!.id === messageId) return { chatId, message: messages[index]!, index };
    return undefined;
  }

  /**
   * Applies one update as the next seq and hands a copy to every subscriber. Throws, changing nothing, when the
   * reducer refuses it: an update a toolbar could not apply is never sent. `owned`: the caller made the update for
   * this call and keeps no reference to it, so it needs no copy.
   */
  emit(update: ChatUpdate, owned = false): number {
    const seq = this.seq + 1;
    const copy = owned ? update : copyOf(update);
    const open = this.open;
    if (open !== null && continues(open, copy)) {
      open.part.text = joined(open.part.text, (copy.update.content as { text: string }).text);
      (this.view as { lastSeq: number | null }).lastSeq = seq;
      return this.broadcast(seq, copy);
    }
    this.open = null;
    const next = must(applyChatUpdate(this.view, copy, seq), copy.type);
    const before = this.view;
    let others: [string, ChatMessage[] | null][] = [];
    switch (copy.type) {
      case "message-added":
      case "message-updated":
      case "messages-deleted":
        if (copy.chatId !== before.activeChatId) {
          // Not a spread of `before`: that would build the active chat's array of messages only to drop it.
          const focus: ChatState = { chats: before.chats, activeChatId: copy.chatId, messages: this.others.get(copy.chatId) ?? [], isWorking: before.isWorking, lastSeq: before.lastSeq, pendingFullSync: null };
          others = [[copy.chatId, [...must(applyChatUpdate(focus, copy, seq), copy.type).messages]]];
        }
        break;
      case "chat-created":
        if (!copy.chat.isActive) others = [[copy.chat.id, structuredClone(copy.chat.messages)]];
        else if (before.activeChatId !== null) others = [[before.activeChatId, [...before.messages]]];
        break;
      case "chat-switched":
        if (before.activeChatId !== null && before.activeChatId !== copy.chatId) others = [[before.activeChatId, [...before.messages]]];
        break;
      case "chat-full-sync":
        others = [[copy.chat.id, null]];
        break;
      case "chat-deleted":
        others = [[copy.chatId, null]];
        break;
      default:
        break;
    }
    for (const [chatId, messages] of others) {
      if (messages === null) this.others.delete(chatId);
      else this.others.set(chatId, messages);
    }
    this.view = next;
    this.open = openAppend(next, copy);
    return this.broadcast(seq, copy);
  }

  private broadcast(seq: number, update: ChatUpdate): number {
    // Set#forEach visits the listeners as for-of would (later ones added, removed ones skipped), without an iterator
    // per update.
    this.listeners.forEach(hear, { seq, update });
    return seq;
  }

  /**
   * r6: chat-list, the active chat's full sync, agent-state, all at the head. `copy: false` for a caller that
   * serializes it at once and keeps nothing: the messages are then the store's own (read, never to be changed).
   */
  snapshot(copy = true): SeqEvent[] {
    const s = this.view;
    const seq = this.seq;
    const events: SeqEvent[] = [{ seq, update: { type: "chat-list", chats: s.chats.map((c) => ({ ...c })) } }];
    const active = s.activeChatId === null ? undefined : this.chat(s.activeChatId);
    if (active) {
      events.push({
        seq,
        update: { type: "chat-full-sync", chat: { id: active.id, title: active.title, createdAt: active.createdAt, isActive: true, messages: copy ? copyOf([...s.messages]) : (s.messages as ChatMessage[]) } },
      });
    }
    const agentState: ChatUpdate = s.workingDescription === undefined ? { type: "agent-state", isWorking: s.isWorking } : { type: "agent-state", isWorking: s.isWorking, description: s.workingDescription };
    events.push({ seq, update: agentState });
    return events;
  }

  /** Every later update, in order; returns the unsubscribe. */
  subscribe(listener: (event: SeqEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

function hear(this: SeqEvent, listener: (event: SeqEvent) => void): void {
  listener(this);
}

/** The run a text append onto the active chat starts: the part the reducer just made for it. */
function openAppend(state: ChatState, update: ChatUpdate): OpenAppend | null {
  if (update.type !== "message-updated" || update.chatId !== state.activeChatId) return null;
  const { messageId, partIndex, updateType, content } = update.update;
  if (updateType !== "append") return null;
  // The reducer accepted it, so the message exists and the part is the text or reasoning part appended to.
  const message = messageById(state, messageId);
  const part = message?.content[partIndex] as { type: string; text: string } | undefined;
  if (!part || part.type !== content.type) return null;
  return { chatId: update.chatId, messageId, partIndex, type: part.type, part };
}

/**
 * The update appends text to the open run's part: everything the reducer checks of an append held for the run's first
 * one and only that part's text has changed since, so it would be accepted and give the same state.
 */
function continues(open: OpenAppend, update: ChatUpdate): update is ChatUpdate & { type: "message-updated"; update: MessagePartUpdate } {
  if (update.type !== "message-updated" || update.chatId !== open.chatId) return false;
  const u = update.update as unknown;
  if (typeof u !== "object" || u === null || Array.isArray(u)) return false;
  const { messageId, partIndex, updateType, content } = u as Record<string, unknown>;
  if (messageId !== open.messageId || partIndex !== open.partIndex || updateType !== "append") return false;
  if (typeof content !== "object" || content === null || Array.isArray(content)) return false;
  const c = content as Record<string, unknown>;
  return c.type === open.type && typeof c.text === "string";
}

function must(result: ReturnType<typeof applyChatUpdate>, what: string): ChatState {
  if (!result.ok) throw new Error(`stagewise adapter: ${what} would break the chat reducer (${describeViolation(result.violation)})`);
  return result.state;
}
