/**
 * The "agentwire/adapters" entry: client-parse adapters for the mcp-chat robustness cases, and the
 * helper that runs the cases against a kit mock. Browser-safe: no node-only imports.
 */
export { mcpChatAdapters, createSpecAdapter } from "./suites/mcp-chat/client/adapters/index.js";
export type { AdapterResult, AdapterTool, McpChatAdapter } from "./suites/mcp-chat/client/adapters/index.js";
export { runMcpChatCases, type CaseRun, type RunCasesOptions } from "./suites/mcp-chat/client/run-cases.js";
export type { WireCase } from "./suites/mcp-chat/client/cases.js";
