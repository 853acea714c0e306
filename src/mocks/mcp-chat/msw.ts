/**
 * msw 2 handlers running the same engine as the node mock, for frontend tests and the browser.
 * Only "msw" and browser-safe modules are imported here. `/chat/stream` is a POST answered with a
 * streamed Response body: msw's `sse()` helper is GET-only.
 */
import { http, type HttpHandler } from "msw";
import { absoluteUrl, urlBase } from "../../core/mock/paths.js";
import { createMcpChatEngine } from "./engine.js";
import type { McpChatMockOptions } from "./options.js";

const DEFAULT_BASE_URL = "http://localhost:8000";

export interface McpChatHandlerOptions extends McpChatMockOptions {
  /** Where the frontend expects the backend (default http://localhost:8000); in a browser also relative to the page's origin ("/api"). */
  baseUrl?: string;
}

export function mcpChatHandlers(options: McpChatHandlerOptions = {}): HttpHandler[] {
  const { baseUrl = DEFAULT_BASE_URL, ...rest } = options;
  const { origin, prefix } = urlBase(absoluteUrl(baseUrl, "mcpChatHandlers", "baseUrl", DEFAULT_BASE_URL));
  const engine = createMcpChatEngine({ ...(prefix ? { basePath: prefix } : {}), ...rest });
  return [http.all(`${origin}${prefix}/*`, ({ request }) => engine.handle(request))];
}
