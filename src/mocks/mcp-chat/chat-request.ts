/** Validation of a ChatRequest body, with the status codes of the reference (FastAPI) server. */

export type ChatInput =
  | { ok: true; message: string | undefined }
  | { ok: false; status: number; detail: string };

function isJsonType(contentType: string): boolean {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/**
 * `lenient` (the chat-accepts-bad-input fault) accepts anything. A missing Content-Type is read as
 * JSON, like FastAPI does; a declared non-JSON type is 415.
 */
export function parseChatRequest(contentType: string | null, body: string, lenient = false): ChatInput {
  let parsed: unknown;
  let parseError: string | null = null;
  try {
    parsed = body.trim() === "" ? undefined : JSON.parse(body);
  } catch (err) {
    parseError = (err as Error).message;
  }
  const message = (parsed as { message?: unknown } | undefined)?.message;
  if (lenient) return { ok: true, message: typeof message === "string" ? message : undefined };

  if (contentType !== null && !isJsonType(contentType)) {
    return { ok: false, status: 415, detail: `Unsupported Content-Type "${contentType}": send application/json` };
  }
  if (parseError !== null) return { ok: false, status: 400, detail: `Malformed JSON body: ${parseError}` };
  if (parsed === undefined) return { ok: false, status: 422, detail: "Request body required: {\"message\": string}" };
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, status: 422, detail: "Request body must be a JSON object" };
  }
  if (!("message" in parsed)) return { ok: false, status: 422, detail: "Field 'message' is required" };
  if (typeof message !== "string") return { ok: false, status: 422, detail: "Field 'message' must be a string" };
  return { ok: true, message };
}

/** The scenario a message asks for when it is exactly `!scenario <name>`. */
export function scenarioCommand(message: string | undefined): string | undefined {
  return message?.trim().match(/^!scenario (\S+)$/)?.[1];
}
