/**
 * Runs the openai-chat engine as a real HTTP server (node:http through serveFetch), the form the
 * CLI's `mock`, `test` and `test-client` commands use. Names are validated before the port opens.
 * Clients use `<url>/v1` as their base URL; the same paths also answer without `/v1`.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { MockOptionError, type MockStartOptions, type RunningMock } from "../../core/protocol.js";
import { parseMockSettings } from "../../core/mock-settings.js";
import { serveFetch } from "../../core/serve-fetch.js";
import { createOpenaiChatEngine } from "./engine.js";
import type { OpenaiChatMockOptions } from "./options.js";
import { parseScenarioScript } from "./script.js";

export const OPENAI_CHAT_DEFAULT_PORT = 8000;

/** Continue sends long system prompts and whole histories: allow large request bodies. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

const ms = z.number().int().nonnegative();

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
  /** A scenario script as data, or the path of a JSON file holding one. */
  script: z.unknown().optional(),
  scenarioFile: z.string().min(1).optional(),
});

export type OpenaiChatStartOptions = MockStartOptions & Partial<OpenaiChatMockOptions>;

export async function startOpenaiChatMock(options: OpenaiChatStartOptions = {}): Promise<RunningMock> {
  const { host = "127.0.0.1", port = OPENAI_CHAT_DEFAULT_PORT, firstByteMs, chunkDelayMs, settings, ...rest } = options;
  const given = parseMockSettings("openai-chat", Settings, settings);
  const { scenarioFile, script, ...knobs } = given;
  const engineOptions: OpenaiChatMockOptions = {
    ...(knobs as OpenaiChatMockOptions),
    ...(script !== undefined ? { script: parseScenarioScript(script) } : {}),
    ...(scenarioFile !== undefined ? { script: readScript(scenarioFile) } : {}),
    ...(firstByteMs !== undefined ? { headersDelayMs: firstByteMs } : {}),
    ...(chunkDelayMs !== undefined ? { chunkDelayMs } : {}),
    ...definedOnly(rest),
  };
  const engine = createOpenaiChatEngine(engineOptions);
  const served = await serveFetch(engine.handle, { host, port, maxBodyBytes: MAX_BODY_BYTES, errorBody: openaiErrorBody });
  return { url: served.url, close: served.close };
}

/** Errors the server answers before the engine sees a request, in OpenAI's shape. */
function openaiErrorBody(status: number, message: string) {
  const code = { 400: "invalid_request", 405: "method_not_allowed", 413: "request_too_large" }[status] ?? null;
  return { error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", param: null, code } };
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

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
