/**
 * msw 2 handlers running the same engine as the node mock, for frontend tests and the browser.
 * Use the `poll` or `manual` clock with them (§6), so a test decides when a turn moves.
 */
import { http, type HttpHandler } from "msw";
import { absoluteUrl } from "../../core/mock/paths.js";
import { createContinueRemoteEngine } from "./engine.js";
import type { ContinueRemoteMockOptions } from "./options.js";

const DEFAULT_BASE_URL = "http://127.0.0.1:8000";

export interface ContinueRemoteHandlerOptions extends ContinueRemoteMockOptions {
  /** Where the frontend expects the server (default http://127.0.0.1:8000); in a browser also relative to the page's origin ("/"). */
  baseUrl?: string;
}

export function continueRemoteHandlers(options: ContinueRemoteHandlerOptions = {}): HttpHandler[] {
  const { baseUrl = DEFAULT_BASE_URL, ...rest } = options;
  const { origin } = absoluteUrl(baseUrl, "continueRemoteHandlers", "baseUrl", DEFAULT_BASE_URL);
  const engine = createContinueRemoteEngine({ clock: "poll", ...rest });
  return [http.all(`${origin}/*`, ({ request }) => engine.handle(request))];
}
