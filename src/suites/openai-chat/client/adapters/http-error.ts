/** Reading a non-2xx answer: the ErrorResponse message a careful client surfaces. */
import { statusLine } from "../../../../core/client-cases/adapters.js";

export { statusLine };

/** `error.message` of an ErrorResponse body, or a fallback built from the status line and body. */
export function httpErrorMessage(response: Response, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown } | null;
    const e = parsed?.error;
    if (e && typeof e === "object" && typeof (e as { message?: unknown }).message === "string") return (e as { message: string }).message;
    if (typeof e === "string") return e;
    if (typeof parsed?.message === "string") return parsed.message;
    if (parsed?.detail !== undefined) return typeof parsed.detail === "string" ? parsed.detail : JSON.stringify(parsed.detail);
  } catch {
    // Not JSON: the status line has to do.
  }
  return statusLine(response);
}
