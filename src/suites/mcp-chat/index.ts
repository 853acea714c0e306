/** The mcp-chat protocol: the MCP Chat frontend ↔ backend contract (seed 002). */
import { defineProtocol } from "../../core/run/define-protocol.js";
import { MCP_CHAT_MOCK_NAMES } from "../../mocks/mcp-chat/index.js";
import { MCP_CHAT_SERVER_CHECKS } from "./checks/index.js";
import { MCP_CHAT_CLIENT_CHECKS } from "./client/index.js";
import * as mock from "./mock.js";
import * as params from "./params.js";
import * as probes from "./probes.js";
import { MCP_CHAT_PROFILES } from "./profiles.js";

export { MCP_CHAT_SERVER_CHECKS } from "./checks/index.js";
export { MCP_CHAT_PROFILES, BUDGET_MASTER } from "./profiles.js";
export { DEFAULT_PARAMS as MCP_CHAT_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runMcpChatProbes } from "./probes.js";

export const mcpChat = defineProtocol({
  id: "mcp-chat",
  title: "MCP Chat backend contract",
  seed: "002_f5cea501a704c7bf.txt",
  suite: { params, probes, mock, profiles: MCP_CHAT_PROFILES, checks: [MCP_CHAT_SERVER_CHECKS, MCP_CHAT_CLIENT_CHECKS], names: MCP_CHAT_MOCK_NAMES },
  clientEnv: (url) => ({ MCP_CHAT_URL: url }),
});
