/** Validation of the mock's `settings`, loaded only when a mock is started with some (zod is large). */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { delayMs, parseMockSettings } from "../../core/mock/settings.js";
import { MockOptionError } from "../../core/run/protocol.js";
import type { OpenaiChatMockOptions } from "./options.js";
import { parseScenarioScript } from "./script.js";

const ms = delayMs.int();

/** `settings` as the CLI or a config file passes them: plain data, unknown keys refused. */
const Settings = z.strictObject({
  headersDelayMs: ms.optional(),
  ttftMs: ms.optional(),
  chunkDelayMs: ms.optional(),
  textFragment: z.number().int().min(1).optional(),
  argFragment: ms.optional(),
  keepAliveMs: ms.optional(),
  closeDelayMs: ms.optional(),
  jitterMs: ms.optional(),
  chunkGapMs: ms.optional(),
  catalogue: z.enum(["seed", "continue-2026", "continue-cli-2026", "none"]).optional(),
  models: z.array(z.string().min(1)).min(1).optional(),
  anyModel: z.boolean().optional(),
  apiKey: z.string().min(1).optional(),
  reasoningField: z.enum(["reasoning_content", "reasoning"]).optional(),
  httpError: z.union([z.literal(429), z.literal(500), z.literal(503)]).optional(),
  rejectInvalidHistory: z.boolean().optional(),
  created: z.number().int().nonnegative().optional(),
  basePath: z.string().optional(),
  timeScale: z.number().positive().optional(),
  /** A scenario script as data, or the path of a JSON file holding one. */
  script: z.unknown().optional(),
  scenarioFile: z.string().min(1).optional(),
});

/** The settings as engine options; an unknown or wrong one is the user's mistake, named. */
export function parseSettings(settings: Record<string, unknown>): OpenaiChatMockOptions {
  const { scenarioFile, script, ...knobs } = parseMockSettings("openai-chat", Settings, settings);
  return {
    ...(knobs as OpenaiChatMockOptions),
    ...(script !== undefined ? { script: parseScenarioScript(script) } : {}),
    ...(scenarioFile !== undefined ? { script: readScript(scenarioFile) } : {}),
  };
}

function readScript(path: string) {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new MockOptionError(`openai-chat mock: cannot read scenario file ${path}: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new MockOptionError(`openai-chat mock: scenario file ${path} is not JSON: ${(e as Error).message}`);
  }
  return parseScenarioScript(value);
}
