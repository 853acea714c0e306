/**
 * The transport-free heart of an agent: the chat agent, the side channels, the tRPC router and the discovery answer,
 * built from the adapter's options. Browser-safe (no node modules), so the same router can be served by node's `ws`
 * (server.ts) or driven through any socket shim.
 */
import type { StagewiseInfo } from "../../generated/stagewise-chat.js";
import { ChatAgent, type Validate } from "./chat-agent.js";
import { createAgentRouter, type AgentRouter } from "./router.js";
import { AvailabilityChannel, MessagingMirror, StateChannel } from "./side-channels.js";
import type { AgentServerOptions, IdKind } from "./types.js";

const PREFIX: Record<IdKind, string> = { chat: "chat", message: "msg", "tool-call": "call" };

function defaultIds(): (kind: IdKind) => string {
  let n = 0;
  // A random stem per run keeps ids from a restarted agent's persisted chats from colliding.
  const stem = Math.random().toString(36).slice(2, 8);
  return (kind) => `${PREFIX[kind]}-${stem}${(++n).toString(36)}`;
}

export interface AgentCore {
  agent: ChatAgent;
  availability: AvailabilityChannel;
  state: StateChannel;
  messaging: MessagingMirror;
  router: AgentRouter;
  info: StagewiseInfo;
}

export function createAgentCore(options: AgentServerOptions, validate: Validate): AgentCore {
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
  const router = createAgentRouter({ agent, availability, state, messaging, validate });
  const info = { name: options.name ?? "agentwire agent", description: options.description ?? "A stagewise chat agent", capabilities: { toolCalling: false, chatHistory: true } };
  return { agent, availability, state, messaging, router, info };
}
