/**
 * msw 2 handlers running the same engine as the node mock, for frontend tests and the browser.
 * Only "msw" and browser-safe modules are imported here. `POST /chat/completions` answers with a
 * streamed Response body when the request asks for a stream: msw's `sse()` helper is GET-only.
 */
import { http, type HttpHandler } from "msw";
import { absoluteUrl, urlBase } from "../../core/mock/paths.js";
import { createOpenaiChatEngine } from "./engine.js";
import type { OpenaiChatMockOptions } from "./options.js";

export const OPENAI_CHAT_DEFAULT_BASE_URL = "http://localhost:8000/v1";

export interface OpenaiChatHandlerOptions extends OpenaiChatMockOptions {
  /** The client's base URL (default http://localhost:8000/v1); in a browser also relative to the page's origin ("/v1"). */
  baseUrl?: string;
}

export function openaiChatHandlers(options: OpenaiChatHandlerOptions = {}): HttpHandler[] {
  const { baseUrl = OPENAI_CHAT_DEFAULT_BASE_URL, ...rest } = options;
  const { origin, prefix } = urlBase(absoluteUrl(baseUrl, "openaiChatHandlers", "baseUrl", OPENAI_CHAT_DEFAULT_BASE_URL));
  // The engine routes `/v1/...` and `/...` alike: strip what comes before a trailing /v1.
  const basePath = prefix.replace(/\/v1$/, "");
  const engine = createOpenaiChatEngine({ ...(basePath ? { basePath } : {}), ...rest });
  const root = `${origin}${prefix}`;
  const handle = ({ request }: { request: Request }) => engine.handle(request);
  return [
    http.post(`${root}/chat/completions`, handle),
    http.get(`${root}/models`, handle),
    http.get(`${root}/models/:id`, handle),
    http.options(`${root}/*`, handle),
    // Wrong methods (405), /responses and unknown paths (404) under the base get JSON errors too.
    http.all(`${root}/*`, handle),
  ];
}
