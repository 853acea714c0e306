/**
 * The agent's side of the chat capability: emitters that change the state through the store (so through the reducer)
 * and throw on misuse, the turn (working flag, abort signal, stop), and the promises of tool calls awaiting the
 * toolbar. The toolbar's requests are in chat-procedures.ts.
 */
import type {
  AssistantChatPart,
  Chat,
  ChatMessage,
  ChatUpdate,
  ToolCallPart,
  ToolResultPart,
  UserChatMessage,
} from "../../generated/stagewise-chat.js";
import type { ChatState, ChatSummary } from "../chat-state.js";
import { ChatStore } from "./chat-store.js";
import { Coalescer } from "./coalescer.js";
import { awaitsApproval, awaitsToolbarResult, toolCalls, toolCallStatus, type ToolCallStatus } from "./tool-calls.js";
import type { AgentHooks, ApprovalAnswer, ChatHandle, IdKind, NewMessage, NewToolCall, ToolbarResult } from "./types.js";

/** Validates a value against a stagewise-chat schema: null when valid, else what is wrong. */
export type Validate = (schema: string, value: unknown) => string | null;

export interface ChatAgentSettings {
  defaultChatTitle: string;
  coalesceMs: number;
  idGenerator: (kind: IdKind) => string;
  /** The chats the agent starts with; without them, one empty active chat (valid by construction, so not validated). */
  initialChats?: readonly Chat[];
  hooks: AgentHooks;
  validate: Validate;
}

/** How long a stopped turn may take to settle before the agent is declared idle (§3 r14). */
export const STOP_GRACE_MS = 5_000;

interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

export function misuse(message: string): Error {
  return new Error(`stagewise adapter: ${message}`);
}

/** After every pending microtask and I/O callback; setImmediate where there is one (node), else a timer. */
const nextMacrotask = (): Promise<void> =>
  new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));

const stoppedError = () => new DOMException("the turn was stopped", "AbortError");

export class ChatAgent implements ChatHandle {
  readonly store: ChatStore;
  readonly hooks: AgentHooks;
  private readonly settings: ChatAgentSettings;
  private readonly coalescer: Coalescer;
  private readonly finished = new Set<string>();
  private readonly approvals = new Map<string, Waiter<ApprovalAnswer>>();
  private readonly toolbarResults = new Map<string, Waiter<ToolbarResult>[]>();
  private turn: { controller: AbortController } | null = null;
  private stopTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(settings: ChatAgentSettings) {
    this.settings = settings;
    this.hooks = settings.hooks;
    // The chat schema compiles on first use: an agent started without chats does not wait for it.
    for (const [i, chat] of (settings.initialChats ?? []).entries()) {
      const bad = settings.validate("chat", chat);
      if (bad) throw misuse(`initialChats[${i}] is not a chat: ${bad}`);
    }
    const initialChats = settings.initialChats ?? [
      { id: settings.idGenerator("chat"), title: settings.defaultChatTitle, createdAt: new Date().toISOString(), isActive: true, messages: [] },
    ];
    if (initialChats.filter((c) => c.isActive).length > 1) throw misuse("initialChats has more than one active chat");
    this.store = new ChatStore(initialChats);
    // The append is made here and kept by nobody else: the store need not copy it.
    this.coalescer = new Coalescer(settings.coalesceMs, (held) =>
      this.commit({ type: "message-updated", chatId: held.chatId, update: { messageId: held.messageId, partIndex: held.partIndex, updateType: "append", content: { type: held.type, text: held.text } } }, true),
    );
  }

  // ---- internals shared with the procedures ----

  /** Sends what is coalesced, so that what follows is applied in call order. */
  flush(): void {
    this.coalescer.flush();
  }

  /** Applies one update as the next seq and broadcasts it (after anything coalesced). */
  emit(update: ChatUpdate): number {
    this.coalescer.flush();
    return this.commit(update);
  }

  private commit(update: ChatUpdate, owned = false): number {
    const seq = this.store.emit(update, owned);
    if (this.hooks.onChange) this.guard(() => this.hooks.onChange!(structuredClone(update), seq));
    return seq;
  }

  /** Runs an agent callback whose failure must not break the adapter. */
  guard(fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.reportError(error);
    }
  }

  reportError(error: unknown): void {
    if (this.hooks.onError) {
      try {
        this.hooks.onError(error);
        return;
      } catch {
        // fall through to the log
      }
    }
    console.error("stagewise agent:", error);
  }

  newId(kind: IdKind, taken: (id: string) => boolean): string {
    for (let i = 0; i < 100; i++) {
      const id = this.settings.idGenerator(kind);
      if (typeof id !== "string" || id.length < 1 || id.length > 256) throw misuse(`idGenerator returned ${JSON.stringify(id)}, not a string of 1..256 characters`);
      if (!taken(id)) return id;
    }
    throw misuse(`idGenerator keeps returning ${kind} ids already in use`);
  }

  newMessageId(): string {
    return this.newId("message", (id) => this.store.findMessage(id) !== undefined);
  }

  /** A tool call of a chat, or of any chat (the active one first). */
  findToolCall(toolCallId: string, chatId?: string): { chatId: string; status: ToolCallStatus } | undefined {
    const chats = chatId !== undefined ? [chatId] : [this.store.state.activeChatId, ...this.store.state.chats.map((c) => c.id)];
    for (const id of chats) {
      if (id === null) continue;
      const status = toolCallStatus(this.store.messages(id), toolCallId);
      if (status) return { chatId: id, status };
    }
    return undefined;
  }

  /** A turn: working before the hook, idle when it settles (or after a stop's grace). */
  startTurn(chatId: string, message: UserChatMessage): void {
    const turn = { controller: new AbortController() };
    this.turn = turn;
    this.setWorking(true);
    const hook = this.hooks.onUserMessage;
    void (async () => {
      try {
        // The mutation answers first; the turn runs after it, even when the hook starts with synchronous work. The
        // answer needs only microtasks, so the next macrotask will do (a timer would idle for a millisecond).
        await nextMacrotask();
        await hook?.({ chatId, message: structuredClone(message), signal: turn.controller.signal });
      } catch (error) {
        if (!turn.controller.signal.aborted) this.reportError(error);
      } finally {
        this.endTurn(turn);
      }
    })();
  }

  private endTurn(turn: { controller: AbortController }): void {
    if (this.turn !== turn) return;
    this.turn = null;
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.stopTimer = null;
    this.setWorking(false);
  }

  /** `chat.stop`: never fails; while working, aborts the turn and closes open tool calls (§3 r14). */
  stop(): void {
    if (!this.store.state.isWorking && !this.turn) return;
    const turn = this.turn;
    turn?.controller.abort();
    this.closeOpenCalls();
    if (this.hooks.onStop) this.guard(() => this.hooks.onStop!());
    if (!turn) {
      this.setWorking(false);
      return;
    }
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.stopTimer = setTimeout(() => this.endTurn(turn), STOP_GRACE_MS);
    this.stopTimer.unref?.();
  }

  /** Open approvals and awaited toolbar calls get an error result "cancelled"; their promises reject. */
  private closeOpenCalls(): void {
    for (const { id: chatId } of this.store.state.chats) {
      for (const status of toolCalls(this.store.messages(chatId))) {
        if (!awaitsApproval(status) && !awaitsToolbarResult(status)) continue;
        this.storeResult(chatId, status, "cancelled", true);
        const id = status.call.toolCallId;
        this.approvals.get(id)?.reject(stoppedError());
        this.approvals.delete(id);
        for (const waiter of this.toolbarResults.get(id) ?? []) waiter.reject(stoppedError());
        this.toolbarResults.delete(id);
      }
    }
  }

  /** Places a result by the call's runtime: backend in the call's message, cli and toolbar in a tool message. */
  storeResult(chatId: string, status: ToolCallStatus, output: unknown, isError: boolean): void {
    const part: ToolResultPart = { type: "tool-result", toolCallId: status.call.toolCallId, toolName: status.call.toolName, output: output === undefined ? null : output };
    if (isError) part.isError = true;
    if (status.call.runtime === "backend") {
      const length = this.store.messages(chatId).find((m) => m.id === status.messageId)!.content.length;
      this.emit({ type: "message-updated", chatId, update: { messageId: status.messageId, partIndex: length, updateType: "create", content: part } });
    } else {
      const message: ChatMessage = { id: this.newMessageId(), role: "tool", createdAt: new Date().toISOString(), content: [part] };
      this.emit({ type: "message-added", chatId, message });
    }
  }

  /** The toolbar answered an approval: settle the agent's promise. */
  settleApproval(toolCallId: string, answer: ApprovalAnswer): void {
    this.approvals.get(toolCallId)?.resolve(answer);
    this.approvals.delete(toolCallId);
  }

  /** The toolbar reported a result: settle every waiter. */
  settleToolbarResult(toolCallId: string, result: ToolbarResult): void {
    for (const waiter of this.toolbarResults.get(toolCallId) ?? []) waiter.resolve(result);
    this.toolbarResults.delete(toolCallId);
  }

  /** The working gate for agent-side chat management (r11 holds for the agent too). */
  private gate(what: string): void {
    if (this.store.state.isWorking) throw misuse(`${what} while the agent is working (the working gate holds for the agent too)`);
  }

  switchNow(chatId: string): void {
    const chat = this.store.chat(chatId)!;
    const messages = structuredClone([...this.store.messages(chatId)]);
    this.emit({ type: "chat-switched", chatId });
    this.emit({ type: "chat-full-sync", chat: { id: chat.id, title: chat.title, createdAt: chat.createdAt, isActive: true, messages } });
  }

  createNow(title: string): string {
    const id = this.newId("chat", (candidate) => this.store.chat(candidate) !== undefined);
    this.emit({ type: "chat-created", chat: { id, title, createdAt: new Date().toISOString(), isActive: true, messages: [] } });
    return id;
  }

  get defaultChatTitle(): string {
    return this.settings.defaultChatTitle;
  }

  validate(schema: string, value: unknown): string | null {
    return this.settings.validate(schema, value);
  }

  // ---- the agent's emitters (ChatHandle) ----

  addMessage(message: NewMessage, options: { chatId?: string } = {}): string {
    const chatId = options.chatId ?? this.store.state.activeChatId;
    if (chatId === null) throw misuse("addMessage: no chat is active; pass options.chatId");
    if (!this.store.chat(chatId)) throw misuse(`addMessage: no chat "${chatId}"`);
    const role = (message as { role?: unknown } | null)?.role;
    if (role !== "assistant" && role !== "tool") throw misuse(`addMessage adds assistant or tool messages, not ${JSON.stringify(role)} (user messages come from the toolbar)`);
    if (message.id !== undefined && this.store.findMessage(message.id)) throw misuse(`addMessage: message id "${message.id}" is already used`);
    const full = { ...message, id: message.id ?? this.newMessageId(), createdAt: message.createdAt ?? new Date().toISOString() } as ChatMessage;
    this.checkShape("addMessage", "chat-message", full);
    const ids = new Set<string>();
    for (const part of full.content as readonly (AssistantChatPart | ToolResultPart)[]) {
      if (part.type === "tool-call") {
        if (part.requiresApproval) throw misuse("addMessage: a tool call that needs approval goes through requestApproval");
        if (ids.has(part.toolCallId) || this.findToolCall(part.toolCallId, chatId)) throw misuse(`addMessage: tool call id "${part.toolCallId}" is already used`);
        ids.add(part.toolCallId);
      }
      if (part.type === "tool-result") this.checkResult(chatId, part);
    }
    this.emit({ type: "message-added", chatId, message: full });
    // An id may come back after its message was deleted; the new message is not finished.
    this.finished.delete(full.id);
    return full.id;
  }

  streamPart(messageId: string, index: number, delta: string | { type: "text" | "reasoning"; text: string }): void {
    const d = typeof delta === "string" ? { type: "text" as const, text: delta } : delta;
    if (!d || (d.type !== "text" && d.type !== "reasoning") || typeof d.text !== "string") throw misuse("streamPart: the delta is a string or {type: \"text\" | \"reasoning\", text}");
    const { chatId, message } = this.editable("streamPart", messageId);
    if (message.role !== "assistant") throw misuse(`streamPart: message "${messageId}" is a ${message.role} message; text streams into assistant messages`);
    const length = message.content.length;
    if (index === length) {
      this.emit({ type: "message-updated", chatId, update: { messageId, partIndex: index, updateType: "create", content: { type: d.type, text: d.text } } });
      return;
    }
    this.checkIndex("streamPart", index, length);
    const existing = message.content[index]!;
    if (existing.type !== d.type) throw misuse(`streamPart: part ${index} of "${messageId}" is ${existing.type}; only text or reasoning is appended onto the same type`);
    this.coalescer.add({ chatId, messageId, partIndex: index, type: d.type, text: d.text });
  }

  setPart(messageId: string, index: number, part: AssistantChatPart): void {
    const { chatId, message } = this.editable("setPart", messageId);
    this.checkShape("setPart", "chat-message", { ...message, content: [part] });
    const length = message.content.length;
    if (index !== length) {
      this.checkIndex("setPart", index, length);
      if (message.content[index]!.type === "tool-call") throw misuse(`setPart: part ${index} of "${messageId}" is a tool call; tool calls are never replaced`);
      if (part.type === "tool-call") throw misuse("setPart: a tool call never replaces a part; create it at the end");
    }
    if (part.type === "tool-call") {
      if (part.requiresApproval) throw misuse("setPart: a tool call that needs approval goes through requestApproval");
      if (this.findToolCall(part.toolCallId, chatId)) throw misuse(`setPart: tool call id "${part.toolCallId}" is already used`);
    }
    if (part.type === "tool-result") this.checkResult(chatId, part);
    this.emit({ type: "message-updated", chatId, update: { messageId, partIndex: index, updateType: index === length ? "create" : "replace", content: part } });
  }

  finishMessage(messageId: string): void {
    this.coalescer.flush();
    if (!this.store.findMessage(messageId)) throw misuse(`finishMessage: no message "${messageId}"`);
    this.finished.add(messageId);
  }

  addToolCall(messageId: string, call: NewToolCall): string {
    return this.createToolCall("addToolCall", messageId, call, false);
  }

  requestApproval(messageId: string, call: NewToolCall): Promise<ApprovalAnswer> & { toolCallId: string } {
    const toolCallId = this.createToolCall("requestApproval", messageId, call, true);
    const promise = new Promise<ApprovalAnswer>((resolve, reject) => this.approvals.set(toolCallId, { resolve, reject }));
    return Object.assign(promise, { toolCallId });
  }

  private createToolCall(what: string, messageId: string, call: NewToolCall, requiresApproval: boolean): string {
    const { chatId, message } = this.editable(what, messageId);
    if (message.role !== "assistant") throw misuse(`${what}: tool calls belong in assistant messages, "${messageId}" is a ${message.role} message`);
    const toolCallId = call?.toolCallId ?? this.newId("tool-call", (id) => this.findToolCall(id) !== undefined);
    if (this.findToolCall(toolCallId, chatId)) throw misuse(`${what}: tool call id "${toolCallId}" is already used`);
    const part: ToolCallPart = { type: "tool-call", toolCallId, toolName: call?.toolName, input: call?.input === undefined ? null : call.input, runtime: call?.runtime, requiresApproval };
    this.checkShape(what, "chat-message", { ...message, content: [part] });
    this.emit({ type: "message-updated", chatId, update: { messageId, partIndex: message.content.length, updateType: "create", content: part } });
    return toolCallId;
  }

  addToolResult(toolCallId: string, output: unknown, options: { isError?: boolean } = {}): void {
    const found = this.findToolCall(toolCallId);
    if (!found) throw misuse(`addToolResult: no tool call "${toolCallId}"`);
    const part: ToolResultPart = { type: "tool-result", toolCallId, toolName: found.status.call.toolName, output, ...(options.isError ? { isError: true } : {}) };
    this.checkResult(found.chatId, part);
    if (found.status.call.runtime === "backend" && this.finished.has(found.status.messageId)) {
      throw misuse(`addToolResult: the message of backend call "${toolCallId}" is finished; add the result before finishMessage`);
    }
    this.storeResult(found.chatId, found.status, output, options.isError === true);
  }

  /** A result the agent adds must answer an existing call once, respect its approval, and not be the toolbar's. */
  private checkResult(chatId: string, part: ToolResultPart): void {
    const found = this.findToolCall(part.toolCallId, chatId);
    if (!found) throw misuse(`no tool call "${part.toolCallId}" in chat "${chatId}" for this result`);
    const { call, approval, result } = found.status;
    if (result) throw misuse(`tool call "${part.toolCallId}" already has a result`);
    if (part.toolName !== call.toolName) throw misuse(`the result names tool "${part.toolName}", the call "${call.toolName}"`);
    if (call.runtime === "toolbar") throw misuse(`tool call "${part.toolCallId}" runs in the toolbar, which reports its result (waitForToolResult)`);
    if (call.requiresApproval && approval?.approved !== true && part.isError !== true) {
      throw misuse(`tool call "${part.toolCallId}" was ${approval ? "rejected" : "not approved yet"}: only an error result is allowed`);
    }
  }

  waitForToolResult(toolCallId: string): Promise<ToolbarResult> {
    const found = this.findToolCall(toolCallId);
    if (!found) return Promise.reject(misuse(`waitForToolResult: no tool call "${toolCallId}"`));
    if (found.status.call.runtime !== "toolbar") return Promise.reject(misuse(`waitForToolResult: "${toolCallId}" is a ${found.status.call.runtime} call; only toolbar calls are reported`));
    const result = found.status.result;
    if (result) return Promise.resolve({ output: result.output, isError: result.isError === true });
    return new Promise((resolve, reject) => {
      const list = this.toolbarResults.get(toolCallId) ?? [];
      list.push({ resolve, reject });
      this.toolbarResults.set(toolCallId, list);
    });
  }

  setWorking(isWorking: boolean, description?: string): void {
    if (typeof isWorking !== "boolean") throw misuse("setWorking: isWorking is a boolean");
    if (description !== undefined && (typeof description !== "string" || description.length > 128)) throw misuse("setWorking: description is a string of at most 128 characters");
    const s = this.store.state;
    const desc = isWorking ? description : undefined;
    if (s.isWorking === isWorking && s.workingDescription === desc) return;
    this.emit(desc === undefined ? { type: "agent-state", isWorking } : { type: "agent-state", isWorking, description: desc });
  }

  updateChatTitle(chatId: string, title: string): void {
    if (!this.store.chat(chatId)) throw misuse(`updateChatTitle: no chat "${chatId}"`);
    if (typeof title !== "string" || title.length < 1 || title.length > 256) throw misuse("updateChatTitle: the title is a string of 1..256 characters");
    this.emit({ type: "chat-title-updated", chatId, title });
  }

  createChat(options: { title?: string } = {}): string {
    this.gate("createChat");
    const title = options.title ?? this.settings.defaultChatTitle;
    if (typeof title !== "string" || title.length < 1 || title.length > 256) throw misuse("createChat: the title is a string of 1..256 characters");
    return this.createNow(title);
  }

  switchChat(chatId: string): void {
    if (!this.store.chat(chatId)) throw misuse(`switchChat: no chat "${chatId}"`);
    if (this.store.state.activeChatId === chatId) return;
    this.gate("switchChat");
    this.switchNow(chatId);
  }

  deleteChat(chatId: string): void {
    if (!this.store.chat(chatId)) throw misuse(`deleteChat: no chat "${chatId}"`);
    this.gate("deleteChat");
    this.emit({ type: "chat-deleted", chatId });
  }

  get activeChatId(): string | null {
    return this.store.state.activeChatId;
  }

  get isWorking(): boolean {
    return this.store.state.isWorking;
  }

  get seq(): number {
    return this.store.seq;
  }

  chats(): readonly ChatSummary[] {
    return this.store.state.chats;
  }

  messages(chatId?: string): readonly ChatMessage[] {
    const id = chatId ?? this.store.state.activeChatId;
    return id === null ? [] : this.store.messages(id);
  }

  state(): ChatState {
    return this.store.state;
  }

  close(): void {
    this.coalescer.flush();
    if (this.stopTimer) clearTimeout(this.stopTimer);
    this.stopTimer = null;
  }

  // ---- misuse checks ----

  /** The message to change, read at once by the caller (so the store's own view of it will do). */
  private editable(what: string, messageId: string): { chatId: string; message: ChatMessage } {
    const found = this.store.peekMessage(messageId);
    if (!found) throw misuse(`${what}: no message "${messageId}"`);
    if (this.finished.has(messageId)) throw misuse(`${what}: message "${messageId}" is finished`);
    if (found.message.role === "user") throw misuse(`${what}: message "${messageId}" is a user message; user messages never change`);
    return found;
  }

  private checkIndex(what: string, index: number, length: number): void {
    if (!Number.isSafeInteger(index) || index < 0 || index > length) {
      throw misuse(`${what}: part index ${String(index)} is out of range (the message has ${length} parts; ${length} creates one)`);
    }
  }

  private checkShape(what: string, schema: string, value: unknown): void {
    const bad = this.settings.validate(schema, value);
    if (bad) throw misuse(`${what}: not a valid ${schema}: ${bad}`);
  }
}
