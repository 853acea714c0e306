/**
 * `naive`: the hand-written stream reader the contract warns about (§7, `client-parse/*` proofs),
 * so the kit can show which robustness checks it fails:
 * - each read is decoded on its own and split on LF with no carry-over buffer; only lines that
 *   start exactly with "data: " count, and a line that does not parse is skipped;
 * - every tool-call delta goes into one call with `+=` (parallel calls merge);
 * - it reads `chunk.choices[0].delta` of every chunk (the `choices: []` usage chunk throws);
 * - it reads on until EOF, `[DONE]` or not, and takes EOF as success.
 * It does surface errors: a non-2xx answer with its `error.message`, and an in-stream
 * `{"error": ...}` payload.
 */
import { readDataLines } from "../../../../core/client-cases/adapters.js";
import { ChatFold, SPEC_RULES, type FoldRules } from "./fold.js";
import { httpErrorMessage } from "./http-error.js";
import type { AdapterResult, OpenaiChatAdapter } from "./types.js";

const NAIVE_RULES: FoldRules = { ...SPEC_RULES, toolJoin: "merge-all", choices: "first", onDone: "keep-reading" };

export const naiveAdapter: OpenaiChatAdapter = async (response: Response): Promise<AdapterResult> => {
  const fold = new ChatFold(NAIVE_RULES);
  if (!response.ok) {
    fold.fail(httpErrorMessage(response, await response.text().catch(() => "")));
    return fold.result();
  }
  if (!response.body) return fold.result("done");
  // No { stream: true } and no buffer: a line or a character cut by the read is lost; a line that
  // does not parse is skipped.
  return readDataLines(response.body, fold, (data) => data === "[DONE]" || parses(data));
};

function parses(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}
