/**
 * The "agentwire/adapters" entry: client-parse adapters for the mcp-chat robustness cases, and the
 * helper that runs the cases against a kit mock. Browser-safe: no node-only imports.
 */
export { mcpChatAdapters, createSpecAdapter } from "./suites/mcp-chat/client/adapters/index.js";
export type { AdapterResult, AdapterTool, McpChatAdapter } from "./suites/mcp-chat/client/adapters/index.js";
export { runMcpChatCases, type CaseRun, type RunCasesOptions } from "./suites/mcp-chat/client/run-cases.js";
export type { WireCase } from "./suites/mcp-chat/client/cases.js";

// openai-chat: client-parse adapters for the Chat Completions robustness cases, and the helper
// that runs the cases (with the tool loop's follow-up turn) against a kit mock.
export {
  openaiChatAdapters,
  createSpecAdapter as createOpenaiChatSpecAdapter,
} from "./suites/openai-chat/client/adapters/index.js";
export type {
  AdapterResult as OpenaiChatAdapterResult,
  AssembledCall as OpenaiChatAssembledCall,
  OpenaiChatAdapter,
} from "./suites/openai-chat/client/adapters/index.js";
export {
  runOpenaiChatCases,
  followUpBody as openaiChatFollowUpBody,
  type CaseRun as OpenaiChatCaseRun,
  type RunCasesOptions as OpenaiChatRunCasesOptions,
} from "./suites/openai-chat/client/run-cases.js";
export type { WireCase as OpenaiChatWireCase } from "./suites/openai-chat/client/cases.js";
