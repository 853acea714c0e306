/**
 * The agent's chat state (§3 r4–r8): every change goes through the normative reducer before it counts, so the state
 * here is by construction what a toolbar following every delta holds, and a fresh snapshot equals it (r8). The
 * reducer keeps only the active chat's messages; the other chats' messages are kept beside it and changed through the
 * same reducer, with their chat taken as the active one.
 */
import type { Chat, ChatMessage, ChatUpdate } from "../../generated/stagewise-chat.js";
import { applyChatUpdate, initialChatState, type ChatState, type ChatSummary } from "../chat-state.js";
import { describeViolation } from "../reduced.js";
import { copyOf } from "./plain-copy.js";

/** One update with its event id, as a subscriber receives it. */
export interface SeqEvent {
  seq: number;
  update: ChatUpdate;
}

export class ChatStore {
  private view: ChatState;
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

  /** The toolbar's view of the state (the reducer's), never mutated. */
  get state(): ChatState {
    return this.view;
  }

  chat(chatId: string): ChatSummary | undefined {
    return this.view.chats.find((c) => c.id === chatId);
  }

  messages(chatId: string): readonly ChatMessage[] {
    return chatId === this.view.activeChatId ? this.view.messages : (this.others.get(chatId) ?? []);
  }

  /** The chat holding a message id, the active chat first. */
  findMessage(messageId: string): { chatId: string; message: ChatMessage; index: number } | undefined {
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

  private findIn(chatId: string, messageId: string): { chatId: string; message: ChatMessage; index: number } | undefined {
    const messages = this.messages(chatId);
    for (let index = 0; index < messages.length; index++) if (messages[index]!.id === messageId) return { chatId, message: messages[index]!, index };
    return undefined;
  }

  /**
   * Applies one update as the next seq and hands a copy to every subscriber. Throws, changing nothing, when the
   * reducer refuses it: an update a toolbar could not apply is never sent.
   */
  emit(update: ChatUpdate): number {
    const seq = this.seq + 1;
    const copy = copyOf(update);
    const next = must(applyChatUpdate(this.view, copy, seq), copy.type);
    const before = this.view;
    let others: [string, ChatMessage[] | null][] = [];
    switch (copy.type) {
      case "message-added":
      case "message-updated":
      case "messages-deleted":
        if (copy.chatId !== before.activeChatId) {
          const focus: ChatState = { ...before, activeChatId: copy.chatId, messages: this.others.get(copy.chatId) ?? [], pendingFullSync: null };
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
    const event = { seq, update: copy };
    for (const listener of this.listeners) listener(event);
    return seq;
  }

  /** r6: chat-list, the active chat's full sync, agent-state, all at the head. */
  snapshot(): SeqEvent[] {
    const s = this.view;
    const seq = this.seq;
    const events: SeqEvent[] = [{ seq, update: { type: "chat-list", chats: s.chats.map((c) => ({ ...c })) } }];
    const active = s.activeChatId === null ? undefined : this.chat(s.activeChatId);
    if (active) {
      events.push({
        seq,
        update: { type: "chat-full-sync", chat: { id: active.id, title: active.title, createdAt: active.createdAt, isActive: true, messages: copyOf([...s.messages]) } },
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

function must(result: ReturnType<typeof applyChatUpdate>, what: string): ChatState {
  if (!result.ok) throw new Error(`stagewise adapter: ${what} would break the chat reducer (${describeViolation(result.violation)})`);
  return result.state;
}
