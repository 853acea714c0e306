/** Validation of the mock's `settings` (`--set key=value`), loaded only when there are some (zod is large). */
import { z } from "zod";
import { delayMs as ms, parseMockSettings } from "../../core/mock/settings.js";
import type { StagewiseMockOptions } from "./options.js";

const Settings = z.strictObject({
  firstDelayMs: ms.optional(),
  chunkDelayMs: ms.optional(),
  chunkSize: z.number().int().min(1).optional(),
  pingMs: z.number().int().min(100).optional(),
});

export function parseSettings(settings: Record<string, unknown>): StagewiseMockOptions {
  return parseMockSettings("stagewise-chat", Settings, settings) as StagewiseMockOptions;
}
