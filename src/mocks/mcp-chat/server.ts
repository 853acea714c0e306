/**
 * Runs the mcp-chat engine as a real HTTP server (node:http through serveFetch), the form the CLI's
 * `mock` and `test` commands use. Names are validated before the port is opened.
 */
import { startOptions } from "../../core/mock/start.js";
import type { MockStartOptions, RunningMock } from "../../core/protocol.js";
import { serveFetch } from "../../core/serve-fetch.js";
import { createMcpChatEngine } from "./engine.js";
import type { McpChatMockOptions } from "./options.js";

export const MCP_CHAT_DEFAULT_PORT = 8000;

export type McpChatStartOptions = MockStartOptions & McpChatMockOptions;

export async function startMcpChatMock(options: McpChatStartOptions = {}): Promise<RunningMock> {
  const { host, port, engine: engineOptions } = await startOptions<McpChatMockOptions>(options, {
    defaultPort: MCP_CHAT_DEFAULT_PORT,
    settings: () => import("./settings.js"),
    firstByteKey: "headersDelay",
    chunkDelayKey: "eventDelay",
  });
  const engine = createMcpChatEngine(engineOptions);
  const served = await serveFetch(engine.handle, { host, port });
  return { url: served.url, close: served.close };
}
