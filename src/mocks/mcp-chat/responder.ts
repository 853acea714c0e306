/**
 * Builds the mock's responses for one request with the right CORS headers. Every response, errors
 * and streams included, carries them: a browser hides any response without them.
 */
import { reply, type MockReply, type MockRequest, type PacedReplyBody } from "../../core/mock/exchange.js";
import { jsonResponse, sseResponse } from "../../core/mock/responses.js";
import type { Hooks } from "./hooks.js";

export const ALLOWED_METHODS = "GET, POST, OPTIONS";

export interface CorsConfig {
  allowedOrigins: readonly string[];
  flags: NonNullable<Hooks["cors"]>;
}

export class Responder {
  constructor(
    private readonly origin: string | null,
    private readonly cors: CorsConfig,
    private readonly errorBody?: Hooks["errorBody"],
  ) {}

  /**
   * The origin to echo, `*` for the wildcard fault, or null when nothing may be echoed. The
   * wildcard fault leaves preflights correct so that it trips only the credentials rule.
   */
  private echoedOrigin(preflight = false): string | null {
    if (this.origin === null) return null;
    if (this.cors.flags.wildcard && !preflight) return "*";
    if (this.cors.flags.reflectAny || this.cors.allowedOrigins.includes(this.origin)) return this.origin;
    return null;
  }

  private corsHeaders(stream = false): Record<string, string> {
    if (this.origin === null) return {};
    const echo = this.echoedOrigin();
    const headers: Record<string, string> = { vary: "Origin" };
    if (echo !== null) {
      headers["access-control-allow-credentials"] = "true";
      if (!(stream && this.cors.flags.omitOnStream)) headers["access-control-allow-origin"] = echo;
    }
    return headers;
  }

  json(status: number, body: unknown, extra: Record<string, string> = {}): MockReply {
    return jsonResponse(status, body, { ...this.corsHeaders(), ...extra });
  }

  error(status: number, detail: string, extra: Record<string, string> = {}): MockReply {
    return this.json(status, this.errorBody ? this.errorBody(detail, status) : { detail }, extra);
  }

  sse(body: PacedReplyBody, contentType?: string): MockReply {
    return sseResponse(body, contentType, this.corsHeaders(true));
  }

  /** Any OPTIONS: a CORS preflight answer (Starlette's CORSMiddleware semantics, {detail} errors). */
  preflight(request: MockRequest): MockReply {
    if (this.cors.flags.preflightStatus) {
      return this.error(this.cors.flags.preflightStatus, "Method Not Allowed", { allow: "GET, POST" });
    }
    const method = request.headers.get("access-control-request-method");
    if (this.origin === null || method === null) {
      return reply(204, { allow: ALLOWED_METHODS, ...this.corsHeaders() });
    }
    const echo = this.echoedOrigin(true);
    if (echo === null) return this.error(400, `Disallowed CORS origin: ${this.origin}`);
    if (!ALLOWED_METHODS.split(", ").includes(method.toUpperCase())) {
      return this.error(400, `Disallowed CORS method: ${method}`);
    }
    const headers: Record<string, string> = {
      "access-control-allow-origin": echo,
      "access-control-allow-credentials": "true",
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-max-age": "600",
      vary: "Origin",
    };
    const requested = request.headers.get("access-control-request-headers");
    if (requested) headers["access-control-allow-headers"] = requested;
    return reply(204, headers);
  }
}
