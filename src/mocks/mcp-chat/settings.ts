/** Validation of the mock's `settings`, loaded only when a mock is started with some (zod is large). */
import { z } from "zod";
import { delayMs as ms, parseMockSettings } from "../../core/mock/settings.js";
import type { McpChatMockOptions } from "./options.js";

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
  timeScale: z.number().positive().optional(),
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

/** The settings as engine options; an unknown or wrong one is the user's mistake, named. */
export function parseSettings(settings: Record<string, unknown>): McpChatMockOptions {
  return parseMockSettings("mcp-chat", Settings, settings) as McpChatMockOptions;
}
