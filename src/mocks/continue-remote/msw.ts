/**
 * msw 2 handlers running the same engine as the node mock, for frontend tests and the browser.
 * Use the `poll` or `manual` clock with them (§6), so a test decides when a turn moves.
 */
import { http, type HttpHandler } from "msw";
import { createContinueRemoteEngine } from "./engine.js";
import type { ContinueRemoteMockOptions } from "./options.js";

export interface ContinueRemoteHandlerOptions extends ContinueRemoteMockOptions {
  /** Where the frontend expects the server (default http://127.0.0.1:8000). */
  baseUrl?: string;
}

export function continueRemoteHandlers(options: ContinueRemoteHandlerOptions = {}): HttpHandler[] {
  const { baseUrl = "http://127.0.0.1:8000", ...rest } = options;
  const engine = createContinueRemoteEngine({ clock: "poll", ...rest });
  return [http.all(`${new URL(baseUrl).origin}/*`, ({ request }) => engine.handle(request))];
}
