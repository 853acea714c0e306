/**
 * Runs the mcp-chat engine as a real HTTP server (node:http through serveFetch), the form the CLI's
 * `mock` and `test` commands use. Names are validated before the port is opened.
 */
import { z } from "zod";
import type { MockStartOptions, RunningMock } from "../../core/protocol.js";
import { parseMockSettings } from "../../core/mock-settings.js";
import { serveFetch } from "../../core/serve-fetch.js";
import { createMcpChatEngine } from "./engine.js";
import type { McpChatMockOptions } from "./options.js";

export const MCP_CHAT_DEFAULT_PORT = 8000;

const ms = z.number().finite().nonnegative();

/** `settings` as the CLI or a config file passes them: plain data, unknown keys refused. */
const Settings = z.strictObject({
  headersDelay: ms.optional(),
  firstEventDelay: ms.optional(),
  eventDelay: ms.optional(),
  toolDuration: ms.optional(),
  closeDelay: ms.optional(),
  jitter: ms.optional(),
  chunkGap: ms.optional(),
  notConnected: z.enum(["sse-error", "http-409"]).optional(),
  chatSync: z.boolean().optional(),
  asciiJson: z.boolean().optional(),
  compactJson: z.boolean().optional(),
  requireBearer: z.boolean().optional(),
  allowedOrigins: z.array(z.string()).optional(),
  basePath: z.string().optional(),
  servers: z
    .array(
      z.object({
        id: z.string().min(1),
        name: z.string(),
        path: z.string(),
        description: z.string().optional(),
        tools: z.array(z.object({ name: z.string().min(1), description: z.string() })),
      }),
    )
    .optional(),
});

export type McpChatStartOptions = MockStartOptions & McpChatMockOptions;

export async function startMcpChatMock(options: McpChatStartOptions = {}): Promise<RunningMock> {
  const { host = "127.0.0.1", port = MCP_CHAT_DEFAULT_PORT, firstByteMs, chunkDelayMs, settings, ...rest } = options;
  const given = parseMockSettings("mcp-chat", Settings, settings);
  const engine = createMcpChatEngine({
    ...(given as McpChatMockOptions),
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
