/**
 * msw 2 handlers running the same engine as the node mock, for frontend tests and the browser.
 * Only "msw" and browser-safe modules are imported here. `/chat/stream` is a POST answered with a
 * streamed Response body: msw's `sse()` helper is GET-only.
 */
import { http, type HttpHandler } from "msw";
import { urlBase } from "../../core/mock/paths.js";
import { createMcpChatEngine } from "./engine.js";
import type { McpChatMockOptions } from "./options.js";

export interface McpChatHandlerOptions extends McpChatMockOptions {
  /** Where the frontend expects the backend (default http://localhost:8000). */
  baseUrl?: string;
}

export function mcpChatHandlers(options: McpChatHandlerOptions = {}): HttpHandler[] {
  const { baseUrl = "http://localhost:8000", ...rest } = options;
  const { origin, prefix } = urlBase(baseUrl);
  const engine = createMcpChatEngine({ ...(prefix ? { basePath: prefix } : {}), ...rest });
  return [http.all(`${origin}${prefix}/*`, ({ request }) => engine.handle(request))];
}
