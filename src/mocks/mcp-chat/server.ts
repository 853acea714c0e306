/**
 * Runs the mcp-chat engine as a real HTTP server (node:http through serveFetch), the form the CLI's
 * `mock` and `test` commands use. Names are validated before the port is opened.
 */
import type { MockStartOptions, RunningMock } from "../../core/protocol.js";
import { serveFetch } from "../../core/serve-fetch.js";
import { createMcpChatEngine } from "./engine.js";
import type { McpChatMockOptions } from "./options.js";

export const MCP_CHAT_DEFAULT_PORT = 8000;

export type McpChatStartOptions = MockStartOptions & McpChatMockOptions;

export async function startMcpChatMock(options: McpChatStartOptions = {}): Promise<RunningMock> {
  const { host = "127.0.0.1", port = MCP_CHAT_DEFAULT_PORT, firstByteMs, chunkDelayMs, settings, ...rest } = options;
  // The validator (zod) loads only when there are settings to check, so a plain mock starts quickly.
  const fromSettings = settings && Object.keys(settings).length > 0 ? (await import("./settings.js")).parseSettings(settings) : {};
  const engine = createMcpChatEngine({
    ...fromSettings,
    ...(firstByteMs !== undefined ? { headersDelay: firstByteMs } : {}),
    ...(chunkDelayMs !== undefined ? { eventDelay: chunkDelayMs } : {}),
    ...definedOnly(rest),
  });
  const served = await serveFetch(engine.handle, { host, port });
  return { url: served.url, close: served.close };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
