/**
 * The agent adapter's public types (§3 "Agent adapter"). Message shapes are the generated schema types, with Dates as
 * ISO strings: the adapter turns them into `Date`s on the wire.
 */
import type {
  AgentAvailability,
  AgentState,
  AssistantChatMessage,
  AssistantChatPart,
  Chat,
  ChatMessage,
  ChatUpdate,
  MessagingUserMessage,
  ToolCallPart,
  ToolChatMessage,
  UserChatMessage,
} from "../../generated/stagewise-chat.js";
import type { ChatState, ChatSummary } from "../chat-state.js";
import type { MessagingState } from "../messaging-state.js";

/** A hook's answer to a request it may refuse: `false` or a thrown `reject(...)` refuse (FORBIDDEN). */
export type Verdict = boolean | void;

export interface AgentHooks {
  /** The toolbar asks for a new chat; return a title to use instead, or refuse. */
  onCreateChat?(request: { title: string }): string | Verdict | Promise<string | Verdict>;
  /** Called only while idle, before the switch. */
  onSwitchChat?(request: { fromChatId: string | null; toChatId: string }): Verdict | Promise<Verdict>;
  /** Called only while idle, before the deletion. */
  onDeleteChat?(request: { chatId: string }): Verdict | Promise<Verdict>;
  /**
   * A turn: the user's message is stored and the agent marked working; the agent is idle again when the returned
   * promise settles (or 5 s after a stop). `signal` aborts on `chat.stop`.
   */
  onUserMessage?(turn: { chatId: string; message: UserChatMessage; signal: AbortSignal }): void | Promise<void>;
  /** The toolbar's approval or refusal, after its user message is stored. */
  onToolApproval?(approval: { chatId: string; toolCallId: string; approved: boolean; reason?: string }): void;
  /** A toolbar tool's result, after its tool message is stored. */
  onToolResult?(result: { chatId: string; toolCallId: string; toolName: string; output: unknown; isError: boolean }): void;
  /** `chat.stop` while working, after the turn's signal aborted and open tool calls were closed. */
  onStop?(): void;
  /** Every delta, after it is applied: for persistence. */
  onChange?(update: ChatUpdate, seq: number): void;
  /** `messaging.sendUserMessage` (the published capability), after its input was validated. */
  onMessagingMessage?(message: MessagingUserMessage): void;
  /** An agent hook threw or rejected outside a request (a turn); the default logs it. */
  onError?(error: unknown): void;
}

export type IdKind = "chat" | "message" | "tool-call";

export interface AgentServerOptions {
  name?: string;
  description?: string;
  /** A fixed port; by default the first free one from 5746 to 5776. 0 picks any free port. */
  port?: number;
  /** Loopback by default. */
  host?: string;
  infoPath?: string;
  wsPath?: string;
  defaultChatTitle?: string;
  idGenerator?: (kind: IdKind) => string;
  /** Chats to start with (at most one active); by default one empty active chat. */
  initialChats?: Chat[];
  /** Text appended within this many ms goes out as one delta (0: every append at once). */
  coalesceMs?: number;
  hooks?: AgentHooks;
}

/** An assistant or tool message to add; id and createdAt are filled in when missing. */
export type NewMessage =
  | (Omit<AssistantChatMessage, "id" | "createdAt"> & { id?: string; createdAt?: string })
  | (Omit<ToolChatMessage, "id" | "createdAt"> & { id?: string; createdAt?: string });

/** A tool call to add; the id is generated when missing. */
export type NewToolCall = Omit<ToolCallPart, "type" | "toolCallId" | "requiresApproval"> & { toolCallId?: string };

export interface ApprovalAnswer {
  approved: boolean;
  reason?: string;
}

export interface ToolbarResult {
  output: unknown;
  isError: boolean;
}

/** The agent's side of the chat capability: emitters that change the state and getters. */
export interface ChatHandle {
  /** Adds an assistant or tool message (to the active chat by default); returns its id. */
  addMessage(message: NewMessage, options?: { chatId?: string }): string;
  /** Text (a string) or reasoning appended to part `index`; `index` equal to the part count creates the part. */
  streamPart(messageId: string, index: number, delta: string | { type: "text" | "reasoning"; text: string }): void;
  /** Creates (`index` = part count) or replaces a part; tool calls are neither replaced nor replace. */
  setPart(messageId: string, index: number, part: AssistantChatPart): void;
  /** Sends what is coalesced; later edits of the message throw. */
  finishMessage(messageId: string): void;
  /** Adds a tool call that needs no approval; returns its id. */
  addToolCall(messageId: string, call: NewToolCall): string;
  /** Adds a tool call with `requiresApproval:true`; settles with the toolbar's answer (rejects when stopped). */
  requestApproval(messageId: string, call: NewToolCall): Promise<ApprovalAnswer> & { toolCallId: string };
  /** The result of a backend (a part in the call's message) or cli (a tool message) call. */
  addToolResult(toolCallId: string, output: unknown, options?: { isError?: boolean }): void;
  /** The toolbar's result of a `runtime:"toolbar"` call, once it reports it. */
  waitForToolResult(toolCallId: string): Promise<ToolbarResult>;
  setWorking(isWorking: boolean, description?: string): void;
  updateChatTitle(chatId: string, title: string): void;
  /** Agent-side chat management: no hooks, but the working gate holds. */
  createChat(options?: { title?: string }): string;
  switchChat(chatId: string): void;
  deleteChat(chatId: string): void;
  readonly activeChatId: string | null;
  readonly isWorking: boolean;
  /** The head seq. */
  readonly seq: number;
  chats(): readonly ChatSummary[];
  messages(chatId?: string): readonly ChatMessage[];
  /** The toolbar's view (the reducer's state). */
  state(): ChatState;
}

export interface AvailabilityHandle {
  get(): AgentAvailability;
  set(value: AgentAvailability): void;
}

export interface StateHandle {
  get(): AgentState;
  /** Must agree with the chat's working flag (r15); `setWorking` keeps them in step. */
  set(value: AgentState): void;
}

export interface MessagingHandle {
  /** The message `messaging.getMessage` mirrors: the active chat's latest assistant reply, its text parts. */
  get(): MessagingState;
}

export interface AgentServer {
  readonly port: number;
  readonly host: string;
  /** `http://host:port`, what a toolbar discovers. */
  readonly url: string;
  readonly infoUrl: string;
  readonly wsUrl: string;
  readonly chat: ChatHandle;
  readonly availability: AvailabilityHandle;
  readonly state: StateHandle;
  readonly messaging: MessagingHandle;
  /** Asks every connected toolbar to reconnect (`{"id":null,"method":"reconnect"}`), e.g. before a restart. */
  requestReconnect(): void;
  /** Stops listening, closes every socket and frees the port. */
  close(): Promise<void>;
}
