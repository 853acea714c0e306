/**
 * `naive-line-splitter`: the stream reader of the budget-master frontend (2c104ba…b07f2c7),
 * rebuilt from its described behaviour so the kit can show which robustness checks it fails:
 * - each read is decoded on its own and split on LF with no carry-over buffer;
 * - only lines starting exactly with "data: " count (no CR handling, no "data:" without space,
 *   multi-line data parsed line by line);
 * - JSON that does not parse is shown as text;
 * - `[ERROR]` keeps its leading space; EOF counts as success;
 * - a non-2xx answer shows the status text only.
 * It does match tool ends by id and stops at `[DONE]`.
 */
import { readDataLines, statusLine } from "../../../../core/client-cases/adapters.js";
import { ResultFold, SPEC_RULES, type FoldRules } from "./fold.js";
import type { AdapterResult, McpChatAdapter } from "./types.js";

const NAIVE_RULES: FoldRules = { ...SPEC_RULES, trimError: false, nonJson: "text" };

export const naiveLineSplitterAdapter: McpChatAdapter = async (response: Response): Promise<AdapterResult> => {
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    return { text: "", tools: [], outcome: "error", error: response.statusText || statusLine(response) };
  }
  const fold = new ResultFold(NAIVE_RULES);
  if (!response.body) return fold.result("done");
  // Each read decoded alone and split on LF; the frontend treats the end of the body as completion.
  return readDataLines(response.body, fold);
};
