/**
 * Builds the mock's responses with the CORS headers of protocol doc §1: CORS is not part of the
 * contract, but browser tools and msw pages need it, so every response allows any origin (`*`,
 * no credentials) and preflights allow `authorization, content-type` and whatever was asked for.
 */
import { reply, type MockReply, type MockRequest, type PacedReplyBody } from "../../core/mock/exchange.js";
import { jsonResponse, sseResponse } from "../../core/mock/responses.js";
import { errorBody, type ApiError } from "./errors.js";
import type { Hooks } from "./hooks.js";

export const ALLOWED_METHODS = "GET, POST, OPTIONS";
const BASE_ALLOWED_HEADERS = ["authorization", "content-type"];

const CORS = { "access-control-allow-origin": "*" };

export class Responder {
  constructor(private readonly hooks: Pick<Hooks, "errorBody" | "input">) {}

  json(status: number, body: unknown, extra: Record<string, string> = {}, contentType = "application/json"): MockReply {
    return jsonResponse(status, body, { ...CORS, ...extra }, contentType);
  }

  /** An error as an OpenAI ErrorResponse, unless a fault changes status or body. */
  error(e: ApiError): MockReply {
    let status = e.status;
    let body: unknown = this.hooks.errorBody ? this.hooks.errorBody(e) : errorBody(e);
    if (e.source === "input") {
      if (e.error.code === "invalid_json" && this.hooks.input?.malformedStatus) {
        status = this.hooks.input.malformedStatus;
        body = this.hooks.errorBody
          ? this.hooks.errorBody(e)
          : { error: { ...e.error, type: "server_error", code: "internal_error" } };
      }
      if (this.hooks.input?.badInput) ({ status, body } = this.hooks.input.badInput(e));
    }
    return this.json(status, body, e.headers ?? {});
  }

  sse(body: PacedReplyBody, contentType?: string): MockReply {
    return sseResponse(body, contentType, CORS);
  }

  /** Any OPTIONS: 204 with the preflight headers. */
  preflight(request: MockRequest): MockReply {
    const requested = (request.headers.get("access-control-request-headers") ?? "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== "");
    const headers = [...new Set([...BASE_ALLOWED_HEADERS, ...requested])].join(", ");
    return reply(204, {
      ...CORS,
      "access-control-allow-methods": ALLOWED_METHODS,
      "access-control-allow-headers": headers,
      "access-control-max-age": "600",
      allow: ALLOWED_METHODS,
    });
  }
}
