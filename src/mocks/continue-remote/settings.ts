/** Validation of the mock's `settings`, loaded only when a mock is started with some (zod is large). */
import { z } from "zod";
import { delayMs as ms, parseMockSettings } from "../../core/mock/settings.js";
import type { ContinueRemoteMockOptions } from "./options.js";
import { VARIANTS, type ContinueRemoteVariant } from "./variants.js";

/** `settings` as the CLI or a config file passes them: plain data, unknown keys refused. */
const Settings = z.strictObject({
  profile: z.enum(["seed", "cn-session"]).optional(),
  clock: z.enum(["time", "poll", "manual"]).optional(),
  scenarios: z.array(z.string().min(1)).optional(),
  defaultScenario: z.string().min(1).optional(),
  thinkMs: ms.optional(),
  chunkMs: ms.optional(),
  chunkChars: z.number().int().positive().optional(),
  gapMs: ms.optional(),
  toolMs: ms.optional(),
  speed: ms.optional(),
  ackDelayMs: ms.optional(),
  stateDelayMs: ms.optional(),
  permissionTimeoutMs: ms.optional(),
  exitDelayMs: ms.optional(),
  idleTimeoutS: ms.optional(),
  initialPrompt: z.string().min(1).optional(),
  resultMode: z.enum(["append", "replace"]).optional(),
  interruptOnMessage: z.boolean().optional(),
  chatMessageType: z.boolean().optional(),
  reportQueue: z.boolean().optional(),
  reportPending: z.boolean().optional(),
  bodyLimit: z.number().int().positive().optional(),
  diff: z.string().nullable().optional(),
  cors: z.array(z.string().min(1)).optional(),
  token: z.string().min(1).optional(),
  variant: z.enum(VARIANTS.map((v) => v.name) as [ContinueRemoteVariant, ...ContinueRemoteVariant[]]).optional(),
});

/** The settings as engine options; an unknown or wrong one is the user's mistake, named. */
export function parseSettings(settings: Record<string, unknown>): ContinueRemoteMockOptions {
  return parseMockSettings("continue-remote", Settings, settings) as ContinueRemoteMockOptions;
}
