/**
 * The openai-chat engine as the msw handlers, the kit's own checks and the tests create it:
 * handler.ts with its validators imported here. The node server creates the handler itself and
 * loads them when first needed, so a plain mock loads no zod.
 */
import { createOpenaiChatHandler, type OpenaiChatEngine } from "./handler.js";
import type { OpenaiChatMockOptions } from "./options.js";
import { parseChatRequest } from "./request.js";
import { parseScenarioScript } from "./script.js";

export { HEADER_FAULT, HEADER_FRAMING, HEADER_SCENARIO, type OpenaiChatEngine } from "./handler.js";

export function createOpenaiChatEngine(options: OpenaiChatMockOptions = {}): OpenaiChatEngine {
  return createOpenaiChatHandler(options, { requests: () => ({ parseChatRequest }), script: parseScenarioScript });
}
