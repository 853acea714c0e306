/**
 * An agent's parts without its tRPC router: the chat agent, the side channels, the discovery answer and the
 * validator the router checks inputs with. Browser-safe and free of tRPC and superjson, so a node server answers
 * discovery before loading them (the router is built with the first WebSocket upgrade).
 */
import type { StagewiseInfo } from "../../generated/stagewise-chat.js";
import { ChatAgent, type Validate } from "./chat-agent.js";
import { AvailabilityChannel, MessagingMirror, StateChannel } from "./side-channels.js";
import type { AgentServerOptions, IdKind } from "./types.js";

const PREFIX: Record<IdKind, string> = { chat: "chat", message: "msg", "tool-call": "call" };

function defaultIds(): (kind: IdKind) => string {
  let n = 0;
  // A random stem per run keeps ids from a restarted agent's persisted chats from colliding.
  const stem = Math.random().toString(36).slice(2, 8);
  return (kind) => `${PREFIX[kind]}-${stem}${(++n).toString(36)}`;
}

export interface AgentParts {
  agent: ChatAgent;
  availability: AvailabilityChannel;
  state: StateChannel;
  messaging: MessagingMirror;
  info: StagewiseInfo;
  /** What the router checks inputs with. */
  validate: Validate;
}

export function createAgentParts(options: AgentServerOptions, validate: Validate): AgentParts {
  const ids = options.idGenerator ?? defaultIds();
  const agent = new ChatAgent({
    defaultChatTitle: options.defaultChatTitle ?? "New chat",
    coalesceMs: options.coalesceMs ?? 20,
    idGenerator: ids,
    ...(options.initialChats ? { initialChats: options.initialChats } : {}),
    hooks: options.hooks ?? {},
    validate,
  });
  const availability = new AvailabilityChannel(validate);
  const state = new StateChannel(agent.store, validate);
  const messaging = new MessagingMirror(agent.store, () => ids("message"));
  const info = { name: options.name ?? "agentwire agent", description: options.description ?? "A stagewise chat agent", capabilities: { toolCalling: false, chatHistory: true } };
  return { agent, availability, state, messaging, info, validate };
}
