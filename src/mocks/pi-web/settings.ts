/** Validation of the mock's `settings`, loaded only when a mock is started with some (zod is large). */
import { z } from "zod";
import { delayMs as ms, parseMockSettings } from "../../core/mock/settings.js";
import type { PiWebMockOptions } from "./options.js";

/** `settings` as the CLI or a config file passes them: plain data, unknown keys refused. */
const Settings = z.strictObject({
  firstDelay: ms.optional(),
  chunkDelay: ms.optional(),
  chunkSize: z.number().int().min(1).optional(),
  toolDelay: ms.optional(),
  slowQueryDelay: ms.optional(),
  fragment: z.number().int().nonnegative().optional(),
  pretty: z.boolean().optional(),
  escapeUnicode: z.boolean().optional(),
  pingInterval: ms.int().optional(),
  largeFrames: z.boolean().optional(),
  profile: z.enum(["default", "pi-fork-0.54"]).optional(),
  token: z.string().min(1).optional(),
  allowedOrigins: z.array(z.string()).optional(),
  originCheck: z.boolean().optional(),
  confirmNewSession: z.boolean().optional(),
  sessions: z.literal("memory").optional(),
  seedSessions: z.boolean().optional(),
  wsPath: z.string().optional(),
});

/** The settings as engine options; an unknown or wrong one is the user's mistake, named. */
export function parseSettings(settings: Record<string, unknown>): PiWebMockOptions {
  return parseMockSettings("pi-web", Settings, settings) as PiWebMockOptions;
}
