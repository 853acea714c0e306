/**
 * OpenAI-style errors: `{"error": {message, type, param, code}}` with the status that goes with
 * them. Every non-2xx answer of the mock is one of these (unless a fault changes the body).
 */

export interface ErrorObject {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

/** Where an error comes from: faults that change error bodies may target one kind only. */
export type ErrorSource = "input" | "auth" | "model" | "route" | "scenario" | "override" | "history" | "internal";

export interface ApiError {
  status: number;
  error: ErrorObject;
  source: ErrorSource;
  headers?: Record<string, string>;
}

function err(
  status: number,
  source: ErrorSource,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  headers?: Record<string, string>,
): ApiError {
  return { status, source, error: { message, type, param, code }, ...(headers ? { headers } : {}) };
}

export const errors = {
  invalidJson: (detail: string) =>
    err(400, "input", `We could not parse the JSON body of your request: ${detail}`, "invalid_request_error", "invalid_json"),
  invalidRequest: (message: string, param: string | null) =>
    err(400, "input", message, "invalid_request_error", "invalid_request", param),
  invalidHistory: (message: string, param: string | null) =>
    err(400, "history", message, "invalid_request_error", "invalid_request", param),
  badOverride: (message: string, param: string) =>
    err(400, "override", message, "invalid_request_error", "invalid_agentwire_override", param),
  unsupportedMediaType: (contentType: string) =>
    err(
      400,
      "input",
      `Unsupported Content-Type "${contentType}": send application/json`,
      "invalid_request_error",
      "invalid_request",
    ),
  missingKey: () =>
    err(
      401,
      "auth",
      "You didn't provide an API key. Send it as `Authorization: Bearer <key>`.",
      "invalid_request_error",
      "invalid_api_key",
      null,
      { "www-authenticate": "Bearer" },
    ),
  wrongKey: () =>
    err(401, "auth", "Incorrect API key provided.", "invalid_request_error", "invalid_api_key", null, {
      "www-authenticate": "Bearer",
    }),
  unknownModel: (model: string) =>
    err(
      404,
      "model",
      `The model \`${model}\` does not exist or you do not have access to it.`,
      "invalid_request_error",
      "model_not_found",
      "model",
    ),
  notFound: (method: string, path: string) =>
    err(404, "route", `Invalid URL (${method} ${path})`, "invalid_request_error", "not_found"),
  responsesApi: () =>
    err(
      404,
      "route",
      "The Responses API (POST /v1/responses) is not served: this is a Chat Completions backend. " +
        "In Continue, set `useResponsesApi: false` on the model.",
      "invalid_request_error",
      "not_found",
    ),
  methodNotAllowed: (method: string, path: string, allow: string) =>
    err(405, "route", `Method ${method} is not allowed on ${path}`, "invalid_request_error", "method_not_allowed", null, {
      allow: `${allow}, OPTIONS`,
    }),
  notAcceptable: () =>
    err(
      406,
      "input",
      "Streaming responses need `Accept: text/event-stream`.",
      "invalid_request_error",
      "not_acceptable",
    ),
  rateLimited: (model: string) =>
    err(
      429,
      "scenario",
      `Rate limit reached for ${model} (agentwire mock, scenario http-error). Please retry after 1s.`,
      "requests",
      "rate_limit_exceeded",
      null,
      { "retry-after": "1" },
    ),
  serverError: () =>
    err(500, "scenario", "The server had an error while processing your request.", "server_error", "server_error"),
  unavailable: () =>
    err(503, "scenario", "The model is currently overloaded. Please try again later.", "server_error", "service_unavailable", null, {
      "retry-after": "1",
    }),
  internal: (message: string) => err(500, "internal", `mock error: ${message}`, "server_error", "internal_error"),
};

/** The scenario `http-error` in its configured form. */
export function httpErrorFor(status: number, model: string): ApiError {
  if (status === 500) return errors.serverError();
  if (status === 503) return errors.unavailable();
  return errors.rateLimited(model);
}

export const errorBody = (e: ApiError): { error: ErrorObject } => ({ error: { ...e.error } });
