/**
 * A minimal stagewise-chat agent for reducer tests: full state (every chat with its messages), a global seq, and
 * random *valid* changes, each applied to the stored state first and then emitted as a copy (r5). Its snapshot is
 * what r6 sends on subscribe.
 */
import { seededRandom } from "../../src/core/mock/timing.js";
import type { AssistantChatPart, Chat, ChatMessage, ChatUpdate, ToolResultPart } from "../../src/generated/stagewise-chat.js";

export interface Event {
  seq: number;
  update: ChatUpdate;
}

/** Deterministic PRNG, so a failing seed can be replayed. */
export const random = seededRandom;

export const METADATA = {
  currentUrl: "http://localhost:3000/",
  currentTitle: "App",
  currentZoomLevel: 1,
  viewportResolution: { width: 1280, height: 800 },
  devicePixelRatio: 2,
  userAgent: "Mozilla/5.0",
  locale: "en-US",
  selectedElements: [],
};

const copy = <T>(value: T): T => structuredClone(value);

export class ModelAgent {
  chats: Chat[] = [];
  isWorking = false;
  seq = 0;
  private next = 0;
  private readonly rnd: () => number;

  constructor(seed: number) {
    this.rnd = random(seed);
  }

  /** r6: chat-list, the active chat's full sync, agent-state, all at the head seq. */
  snapshot(): Event[] {
    const S = this.seq;
    const events: Event[] = [
      {
        seq: S,
        update: {
          type: "chat-list",
          chats: this.chats.map((c) => ({ id: c.id, title: c.title, createdAt: c.createdAt, isActive: c.isActive, messageCount: c.messages.length })),
        },
      },
    ];
    const active = this.active();
    if (active) events.push({ seq: S, update: { type: "chat-full-sync", chat: copy(active) } });
    events.push({ seq: S, update: { type: "agent-state", isWorking: this.isWorking } });
    return events;
  }

  /** One random valid change; returns the deltas it emitted (one or two). */
  step(): Event[] {
    const ops = [
      () => this.createChat(),
      () => this.deleteChat(),
      () => this.switchChat(),
      () => this.updateTitle(),
      () => this.setWorking(),
      () => this.addMessage(),
      () => this.addMessage(),
      () => this.updateMessage(),
      () => this.updateMessage(),
      () => this.updateMessage(),
      () => this.updateMessage(),
      () => this.updateMessage(),
      () => this.deleteMessages(),
      () => this.fullSync(),
    ];
    for (;;) {
      const events = this.pick(ops)();
      if (events) return events;
    }
  }

  private emit(...updates: ChatUpdate[]): Event[] {
    return updates.map((update) => ({ seq: ++this.seq, update: copy(update) }));
  }

  private id(prefix: string): string {
    return `${prefix}${++this.next}`;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rnd() * items.length)]!;
  }

  private active(): Chat | undefined {
    return this.chats.find((c) => c.isActive);
  }

  private date(): string {
    return new Date(Date.UTC(2025, 7, 8, 10, 0, 0) + this.next * 1000).toISOString();
  }

  private createChat(): Event[] {
    const isActive = this.rnd() < 0.7;
    const chat: Chat = { id: this.id("c"), title: "New chat", createdAt: this.date(), isActive, messages: [] };
    if (this.rnd() < 0.3) chat.messages.push(this.userMessage());
    if (isActive) for (const other of this.chats) other.isActive = false;
    this.chats.push(chat);
    return this.emit({ type: "chat-created", chat });
  }

  private deleteChat(): Event[] | undefined {
    if (this.chats.length === 0) return undefined;
    const chat = this.pick(this.chats);
    this.chats = this.chats.filter((c) => c !== chat);
    return this.emit({ type: "chat-deleted", chatId: chat.id });
  }

  private switchChat(): Event[] | undefined {
    const others = this.chats.filter((c) => !c.isActive);
    if (others.length === 0) return undefined;
    const target = this.pick(others);
    for (const chat of this.chats) chat.isActive = chat === target;
    return this.emit({ type: "chat-switched", chatId: target.id }, { type: "chat-full-sync", chat: target });
  }

  private updateTitle(): Event[] | undefined {
    if (this.chats.length === 0) return undefined;
    const chat = this.pick(this.chats);
    chat.title = `Title ${this.id("t")}`;
    return this.emit({ type: "chat-title-updated", chatId: chat.id, title: chat.title });
  }

  private setWorking(): Event[] {
    this.isWorking = !this.isWorking;
    return this.emit(this.isWorking ? { type: "agent-state", isWorking: true, description: "Working" } : { type: "agent-state", isWorking: false });
  }

  private fullSync(): Event[] | undefined {
    const active = this.active();
    return active ? this.emit({ type: "chat-full-sync", chat: active }) : undefined;
  }

  private userMessage(): ChatMessage {
    return { id: this.id("m"), role: "user", createdAt: this.date(), content: [{ type: "text", text: "Make it blue" }], metadata: copy(METADATA) };
  }

  private toolResult(): ToolResultPart {
    return { type: "tool-result", toolCallId: this.id("t"), toolName: "getStyles", output: { color: "red" } };
  }

  private addMessage(): Event[] | undefined {
    if (this.chats.length === 0) return undefined;
    const chat = this.pick(this.chats);
    const kind = this.pick(["user", "assistant", "tool"] as const);
    const message: ChatMessage =
      kind === "user"
        ? this.userMessage()
        : kind === "assistant"
          ? { id: this.id("a"), role: "assistant", createdAt: this.date(), content: [] }
          : { id: this.id("x"), role: "tool", createdAt: this.date(), content: [this.toolResult()] };
    chat.messages.push(message);
    return this.emit({ type: "message-added", chatId: chat.id, message });
  }

  private newPart(role: "assistant" | "tool"): AssistantChatPart {
    if (role === "tool") return this.toolResult();
    return this.pick<() => AssistantChatPart>([
      () => ({ type: "text", text: "Hel" }),
      () => ({ type: "text", text: "Hel" }),
      () => ({ type: "reasoning", text: "Think" }),
      () => ({ type: "file", data: "data:text/plain;base64,SGk=", mimeType: "text/plain" }),
      () => ({ type: "tool-call", toolCallId: this.id("t"), toolName: "writeFile", input: { path: "b.css" }, runtime: "backend", requiresApproval: false }),
      () => this.toolResult(),
    ])();
  }

  /** create / append / replace on an assistant or tool message of any chat (edits to inactive chats are ignored by the reducer). */
  private updateMessage(): Event[] | undefined {
    const chat = this.rnd() < 0.8 ? this.active() : this.chats.length ? this.pick(this.chats) : undefined;
    const targets = chat?.messages.filter((m) => m.role !== "user") ?? [];
    if (!chat || targets.length === 0) return undefined;
    const message = this.pick(targets) as Extract<ChatMessage, { role: "assistant" | "tool" }>;
    const parts = message.content as AssistantChatPart[];
    const role = message.role;
    const appendable = parts.flatMap((p, i) => (p.type === "text" || p.type === "reasoning" ? [i] : []));
    const replaceable = parts.flatMap((p, i) => (p.type !== "tool-call" ? [i] : []));
    const choice = this.rnd();
    if (choice < 0.4 && appendable.length) {
      const partIndex = this.pick(appendable);
      const part = parts[partIndex] as { type: "text" | "reasoning"; text: string };
      const delta = ` ${this.id("w")}`;
      part.text += delta;
      return this.emit({ type: "message-updated", chatId: chat.id, update: { messageId: message.id, partIndex, updateType: "append", content: { type: part.type, text: delta } } });
    }
    if (choice < 0.6 && replaceable.length) {
      const partIndex = this.pick(replaceable);
      let content = this.newPart(role);
      while (content.type === "tool-call") content = this.newPart(role);
      parts[partIndex] = content;
      return this.emit({ type: "message-updated", chatId: chat.id, update: { messageId: message.id, partIndex, updateType: "replace", content } });
    }
    const content = this.newPart(role);
    parts.push(content);
    return this.emit({ type: "message-updated", chatId: chat.id, update: { messageId: message.id, partIndex: parts.length - 1, updateType: "create", content } });
  }

  private deleteMessages(): Event[] | undefined {
    const withMessages = this.chats.filter((c) => c.messages.length > 0);
    if (withMessages.length === 0) return undefined;
    const chat = this.pick(withMessages);
    const from = Math.floor(this.rnd() * chat.messages.length);
    const fromMessageId = chat.messages[from]!.id;
    const deletedCount = chat.messages.length - from;
    chat.messages = chat.messages.slice(0, from);
    return this.emit({ type: "messages-deleted", chatId: chat.id, fromMessageId, deletedCount });
  }
}
