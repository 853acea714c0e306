/**
 * The untracked capabilities beside chat: availability, state (mirroring the working flag, r15) and messaging
 * (published semantics, r16–r18), which mirrors the active chat's latest assistant reply through its own reducer.
 */
import type { AgentAvailability, AgentMessageUpdate, AgentState, ChatMessage, ChatUpdate, MessagePartUpdate } from "../../generated/stagewise-chat.js";
import { applyMessageUpdate, type MessagingState } from "../messaging-state.js";
import { messageById } from "../chat-state.js";
import { describeViolation, joined } from "../reduced.js";
import { misuse, type Validate } from "./chat-agent.js";
import type { ChatStore } from "./chat-store.js";

/** A current value and whoever follows it. */
export class Channel<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private value: T) {}

  get(): T {
    return structuredClone(this.value);
  }

  protected publish(value: T): void {
    this.value = value;
    for (const listener of this.listeners) listener(structuredClone(value));
  }

  subscribe(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class AvailabilityChannel extends Channel<AgentAvailability> {
  constructor(private readonly validate: Validate) {
    super({ isAvailable: true });
  }

  set(value: AgentAvailability): void {
    const bad = this.validate("agent-availability", value);
    if (bad) throw misuse(`availability.set: not an AgentAvailability: ${bad}`);
    this.publish(structuredClone(value));
  }
}

const BUSY = new Set(["thinking", "working", "calling_tool", "waiting_for_user_response"]);

/** `state.getState`, kept coherent with the chat's working flag. */
export class StateChannel extends Channel<AgentState> {
  constructor(
    private readonly store: ChatStore,
    private readonly validate: Validate,
  ) {
    super({ state: store.state.isWorking ? "working" : "idle" });
    store.subscribe(({ update }) => {
      if (update.type !== "agent-state") return;
      if (BUSY.has(this.get().state) === update.isWorking) return;
      const d = update.description;
      this.publish(update.isWorking ? (d !== undefined && d.length >= 3 ? { state: "working", description: d } : { state: "working" }) : { state: "idle" });
    });
  }

  set(value: AgentState): void {
    const bad = this.validate("agent-state", value);
    if (bad) throw misuse(`state.set: not an AgentState: ${bad}`);
    if (BUSY.has(value.state) !== this.store.state.isWorking) {
      throw misuse(`state.set: "${value.state}" contradicts the chat's isWorking:${String(this.store.state.isWorking)} (use chat.setWorking)`);
    }
    this.publish(structuredClone(value));
  }
}

/**
 * `messaging.getMessage`: the text parts of the active chat's latest assistant message. Each update is applied through
 * the messaging reducer first, so a subscriber's message equals a fresh resync.
 */
export class MessagingMirror {
  private message: MessagingState;
  private createdAt = new Date().toISOString();
  /** Chat part index → messaging content index (-1: not a text part). */
  private indexOf: number[] = [];
  private readonly listeners = new Set<(update: AgentMessageUpdate) => void>();
  private last: AgentMessageUpdate | null = null;
  private pending: PendingAppend | null = null;

  constructor(
    private readonly store: ChatStore,
    newId: () => string,
  ) {
    this.message = { messageId: newId(), createdAt: this.createdAt, parts: [] };
    this.refresh();
    store.subscribe(({ update }) => this.follow(update));
  }

  get(): MessagingState {
    return structuredClone(this.message);
  }

  /** The last update other than a resync (what a subscriber got last, or would have), for a server that replays it. */
  get lastDelta(): AgentMessageUpdate | null {
    if (this.pending) {
      this.last = appendUpdate(this.pending);
      this.pending = null;
    }
    return this.last;
  }

  /** r16: the whole current message, as every subscription begins. */
  snapshot(): AgentMessageUpdate {
    const m = this.message!;
    return { messageId: m.messageId, createdAt: m.createdAt, resync: true, updateParts: m.parts.map((part, contentIndex) => ({ contentIndex, part: structuredClone(part) as AgentMessageUpdate["updateParts"][number]["part"] })) };
  }

  subscribe(listener: (update: AgentMessageUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private follow(update: ChatUpdate): void {
    const active = this.store.activeChatId;
    if (update.type === "message-added") {
      if (update.chatId === active && update.message.role === "assistant") this.whole(update.message);
    } else if (update.type === "message-updated") {
      if (update.chatId === active && update.update.messageId === this.message?.messageId) this.part(update.update);
    } else if (update.type === "chat-full-sync" || update.type === "messages-deleted" || update.type === "chat-created") {
      this.refresh();
    }
  }

  /** Mirrors the active chat's latest assistant message, if it is another one than shown. */
  private refresh(): void {
    const latest = [...this.store.state.messages].reverse().find((m) => m.role === "assistant");
    if (latest && latest.id !== this.message?.messageId) this.whole(latest);
  }

  private whole(message: ChatMessage): void {
    this.indexOf = [];
    const parts: AgentMessageUpdate["updateParts"] = [];
    for (const part of message.content) {
      if (part.type === "text") {
        this.indexOf.push(parts.length);
        parts.push({ contentIndex: parts.length, part: { type: "text", text: part.text } });
      } else this.indexOf.push(-1);
    }
    this.createdAt = message.createdAt;
    this.send({ messageId: message.id, createdAt: message.createdAt, resync: true, updateParts: parts });
  }

  private part(u: MessagePartUpdate): void {
    const m = this.message!;
    if (u.updateType === "create") {
      if (u.content.type !== "text") {
        this.indexOf[u.partIndex] = -1;
        return;
      }
      this.indexOf[u.partIndex] = m.parts.length;
      this.send({ messageId: m.messageId, createdAt: this.createdAt, resync: false, updateParts: [{ contentIndex: m.parts.length, part: { type: "text", text: u.content.text } }] });
    } else if (u.updateType === "append" && u.content.type === "text" && (this.indexOf[u.partIndex] ?? -1) >= 0) {
      const append: PendingAppend = { messageId: m.messageId, createdAt: this.createdAt, contentIndex: this.indexOf[u.partIndex]!, text: u.content.text };
      const shown = m.parts[append.contentIndex];
      if (shown?.type !== "text") return this.send(appendUpdate(append));
      // What the reducer does with a text delta onto a text part (r17 concatenates), in place: the message is the
      // mirror's own (get and snapshot hand out copies), and a streamed reply would otherwise copy its parts per delta.
      (shown as { text: string }).text = joined(shown.text, append.text);
      // With nobody following, the update is made only if asked for (lastDelta).
      if (this.listeners.size > 0) this.broadcast(appendUpdate(append));
      else this.pending = append;
    } else if (u.updateType === "replace") {
      // Text cannot be replaced incrementally (r17 concatenates): send the whole message again.
      const message = messageById(this.store.state, m.messageId);
      if (message) this.whole(message);
    }
  }

  private send(update: AgentMessageUpdate): void {
    const result = applyMessageUpdate(this.message, update);
    if (!result.ok) throw new Error(`stagewise adapter: messaging update breaks its reducer (${describeViolation(result.violation)})`);
    this.message = result.state;
    this.broadcast(update);
  }

  private broadcast(update: AgentMessageUpdate): void {
    if (!update.resync) {
      this.last = update;
      this.pending = null;
    }
    for (const listener of this.listeners) listener(update);
  }
}

/** A text delta the mirror applied, before its update is made. */
interface PendingAppend {
  messageId: string;
  createdAt: string;
  contentIndex: number;
  text: string;
}

function appendUpdate(a: PendingAppend): AgentMessageUpdate {
  return { messageId: a.messageId, createdAt: a.createdAt, resync: false, updateParts: [{ contentIndex: a.contentIndex, part: { type: "text", text: a.text } }] };
}
