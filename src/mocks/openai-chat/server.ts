/**
 * Runs the openai-chat engine as a real HTTP server (node:http through serveMock), the form the
 * CLI's `mock`, `test` and `test-client` commands use. Names are validated before the port opens.
 * Clients use `<url>/v1` as their base URL; the same paths also answer without `/v1`.
 */
import { normalBasePath } from "../../core/mock/paths.js";
import { startFetchMock } from "../../core/mock/start.js";
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { createOpenaiChatHandler } from "./handler.js";
import type { OpenaiChatMockOptions } from "./options.js";

export const OPENAI_CHAT_DEFAULT_PORT = 8000;

/** Continue sends long system prompts and whole histories: allow large request bodies. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export type OpenaiChatStartOptions = MockStartOptions & Partial<OpenaiChatMockOptions>;

export function startOpenaiChatMock(options: OpenaiChatStartOptions = {}): Promise<RunningMock> {
  return startFetchMock<OpenaiChatMockOptions>(options, {
    defaultPort: OPENAI_CHAT_DEFAULT_PORT,
    settings: () => import("./settings.js"),
    firstByteKey: "headersDelayMs",
    chunkDelayKey: "chunkDelayMs",
    // The validators (zod, slow to load): the request's with the first chat request, the script's only for a script.
    create: async (o) =>
      createOpenaiChatHandler(o, {
        requests: () => import("./request.js"),
        ...(o.script !== undefined ? { script: (await import("./script.js")).parseScenarioScript } : {}),
      }),
    serve: { maxBodyBytes: MAX_BODY_BYTES, errorBody: openaiErrorBody },
    // A client's base URL ends in /v1; the same paths also answer under the root.
    urls: (url, o) => [`${url}${normalBasePath(o.basePath)}/v1`, `${url}${normalBasePath(o.basePath)}`],
  });
}

/** Errors the server answers before the engine sees a request, in OpenAI's shape. */
function openaiErrorBody(status: number, message: string) {
  const code = { 400: "invalid_request", 405: "method_not_allowed", 413: "request_too_large" }[status] ?? null;
  return { error: { message, type: status >= 500 ? "server_error" : "invalid_request_error", param: null, code } };
}
