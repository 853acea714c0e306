/**
 * Runs the mcp-chat engine as a real HTTP server (node:http through serveMock), the form the CLI's
 * `mock` and `test` commands use. Names are validated before the port is opened.
 */
import { startFetchMock } from "../../core/mock/start.js";
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { createMcpChatEngine } from "./engine.js";
import type { McpChatMockOptions } from "./options.js";

export const MCP_CHAT_DEFAULT_PORT = 8000;

export type McpChatStartOptions = MockStartOptions & McpChatMockOptions;

export function startMcpChatMock(options: McpChatStartOptions = {}): Promise<RunningMock> {
  return startFetchMock<McpChatMockOptions>(options, {
    defaultPort: MCP_CHAT_DEFAULT_PORT,
    settings: () => import("./settings.js"),
    firstByteKey: "headersDelay",
    chunkDelayKey: "eventDelay",
    create: createMcpChatEngine,
  });
}
