/** The mcp-chat protocol: the MCP Chat frontend ↔ backend contract (seed 002). */
import type { ProtocolDef } from "../../core/protocol.js";
import { MCP_CHAT_FAULTS, MCP_CHAT_FRAMINGS, MCP_CHAT_SCENARIOS } from "../../mocks/mcp-chat/index.js";
import { MCP_CHAT_SERVER_CHECKS } from "./checks/index.js";
import { MCP_CHAT_CLIENT_CHECKS } from "./client/index.js";
import { DEFAULT_PORT, startMock } from "./mock.js";
import { DEFAULT_PARAMS, SELF_TEST } from "./params.js";
import { runProbes } from "./probes.js";
import { MCP_CHAT_PROFILES } from "./profiles.js";

export { MCP_CHAT_SERVER_CHECKS } from "./checks/index.js";
export { MCP_CHAT_PROFILES, BUDGET_MASTER } from "./profiles.js";
export { DEFAULT_PARAMS as MCP_CHAT_DEFAULT_PARAMS } from "./params.js";
export { runProbes as runMcpChatProbes } from "./probes.js";

export const mcpChat: ProtocolDef = {
  id: "mcp-chat",
  title: "MCP Chat backend contract",
  seed: "002_f5cea501a704c7bf.txt",
  checks: [...MCP_CHAT_SERVER_CHECKS, ...MCP_CHAT_CLIENT_CHECKS],
  scenarios: MCP_CHAT_SCENARIOS,
  faults: MCP_CHAT_FAULTS,
  framings: MCP_CHAT_FRAMINGS,
  profiles: MCP_CHAT_PROFILES,
  defaultPort: DEFAULT_PORT,
  defaultParams: { ...DEFAULT_PARAMS },
  // §1: 10 s per JSON endpoint, 30 s to stream headers, 60 s to the first event and between
  // events, 180 s per stream, 2 s from the sentinel to the end of the body.
  timeouts: { request: 10_000, headers: 30_000, firstEvent: 60_000, idle: 60_000, stream: 180_000, close: 2_000 },
  selfTest: SELF_TEST,
  runProbes,
  startMock,
  clientEnv: (url) => ({ MCP_CHAT_URL: url }),
};
