/**
 * The client side of mcp-chat: checks that judge a client from what it sent the mock and from
 * what its adapter reported, the kit endpoints that hand out the robustness cases, and the
 * adapters themselves.
 */
export { MCP_CHAT_CLIENT_CHECKS } from "./checks.js";
export { TRAFFIC_CHECKS, CLIENT_PROBE } from "./traffic-checks.js";
export { PARSE_CHECKS, NO_RESULTS_REASON } from "./parse-checks.js";
export { createClientCaseRoutes, type CaseRoutes, type CaseRoutesOptions } from "./routes.js";
export {
  CLIENT_CASES,
  CASES_PATH,
  RESULTS_PATH,
  EXPECTED_NOTE,
  casesFor,
  findCase,
  toWireCase,
  type ClientCase,
  type ParseCheck,
  type WireCase,
} from "./cases.js";
export { expectedResult, defaultExpectedResult, type ContentOptions } from "./expected.js";
export { diffResults, parseAdapterResult } from "./compare.js";
export { runMcpChatCases, type CaseRun, type RunCasesOptions } from "./run-cases.js";
export { mcpChatAdapters, createSpecAdapter, type AdapterResult, type AdapterTool, type McpChatAdapter } from "./adapters/index.js";
