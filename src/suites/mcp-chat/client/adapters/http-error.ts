/** What a careful client shows for a non-2xx chat answer: the `{detail}` the backend sent. */
import { statusLine } from "../../../../core/client-cases/adapters.js";
import type { AdapterResult } from "./types.js";

export { statusLine };

export async function httpErrorResult(response: Response): Promise<AdapterResult> {
  const body = await response.text().catch(() => "");
  return { text: "", tools: [], outcome: "error", error: detailOf(body) ?? statusLine(response) };
}

function detailOf(body: string): string | undefined {
  try {
    const detail = (JSON.parse(body) as { detail?: unknown } | null)?.detail;
    if (typeof detail === "string") return detail;
    // FastAPI's validation errors: a list of {msg}; show the messages rather than nothing.
    if (detail !== undefined) return JSON.stringify(detail);
  } catch {
    // Not JSON: fall back to the status line.
  }
  return undefined;
}
