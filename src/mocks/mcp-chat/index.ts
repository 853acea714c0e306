/**
 * The mcp-chat reference mock. The msw handlers live in ./msw.js only: msw is an optional peer
 * dependency and must not be pulled in by this entry.
 */
import { mockNames } from "../../core/mock/listing.js";
import { FAULTS } from "./faults.js";
import { FRAMINGS } from "./framing.js";
import { SCENARIOS } from "./scenarios.js";

export { createMcpChatEngine, type McpChatEngine } from "./engine.js";
export { startMcpChatMock, MCP_CHAT_DEFAULT_PORT, type McpChatStartOptions } from "./server.js";
export {
  resolveMcpChatOptions,
  DEFAULT_TIMING as MCP_CHAT_DEFAULT_TIMING,
  DEFAULT_ALLOWED_ORIGINS as MCP_CHAT_ALLOWED_ORIGINS,
  type McpChatMockOptions,
  type ResolvedMcpChatOptions,
  type NotConnectedForm,
} from "./options.js";
export { DEFAULT_SERVERS as MCP_CHAT_SERVERS, type McpServerEntry, type McpTool } from "./registry.js";
export type { McpChatTiming, Hooks as McpChatHooks, Chunk as McpChatChunk } from "./hooks.js";
export type { Step as McpChatStep, StepData as McpChatStepData } from "./events.js";
export type { McpChatFault } from "./faults.js";
export type { McpChatFraming } from "./framing.js";
export type { McpChatScenario } from "./scenarios.js";

export const MCP_CHAT_MOCK_NAMES = mockNames({ scenarios: SCENARIOS, faults: FAULTS, framings: FRAMINGS });
export const { scenarios: MCP_CHAT_SCENARIOS, faults: MCP_CHAT_FAULTS, framings: MCP_CHAT_FRAMINGS } = MCP_CHAT_MOCK_NAMES;
