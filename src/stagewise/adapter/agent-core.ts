/**
 * The transport-free heart of an agent: the chat agent, the side channels, the tRPC router and the discovery answer,
 * built from the adapter's options. Browser-safe (no node modules), so the same router can be served by node's `ws`
 * (server.ts) or driven through any socket shim. The node server starts from the parts alone (agent-parts.ts) and
 * builds the router with its first upgrade.
 */
import type { Validate } from "./chat-agent.js";
import { createAgentParts, type AgentParts } from "./agent-parts.js";
import { createAgentRouter, type AgentRouter } from "./router.js";
import type { AgentServerOptions } from "./types.js";

export interface AgentCore extends AgentParts {
  router: AgentRouter;
}

export function createAgentCore(options: AgentServerOptions, validate: Validate): AgentCore {
  return withRouter(createAgentParts(options, validate));
}

/** The parts with their router. */
export function withRouter(parts: AgentParts): AgentCore {
  return { ...parts, router: createAgentRouter(parts) };
}
