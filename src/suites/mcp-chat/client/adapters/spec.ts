/**
 * The `spec` adapter: reads the stream as the contract and the WHATWG SSE rules say (the kit's
 * shared event-stream reader). `createSpecAdapter(rules)` swaps one rule for a known defect; the
 * defect adapters are built that way so each differs from spec in one place only.
 */
import { readEventStream } from "../../../../core/client-cases/adapters.js";
import { ResultFold, SPEC_RULES, type FoldRules } from "./fold.js";
import { httpErrorResult } from "./http-error.js";
import type { AdapterResult, McpChatAdapter } from "./types.js";

export function createSpecAdapter(defect: Partial<FoldRules> = {}): McpChatAdapter {
  const rules: FoldRules = { ...SPEC_RULES, ...defect };
  return async (response: Response): Promise<AdapterResult> => {
    if (!response.ok) return httpErrorResult(response);
    const fold = new ResultFold(rules);
    if (!response.body) return fold.result();
    // Finished at the sentinel: the reader stops the body, whatever the server still sends or holds open.
    return readEventStream(response.body, fold);
  };
}

export const specAdapter: McpChatAdapter = createSpecAdapter();

/** Marks the first card with the same name, so out-of-order ends of one tool hit the wrong card. */
export const matchByNameAdapter: McpChatAdapter = createSpecAdapter({ matchEnd: "name" });

/** Notes `[DONE]` but reads on until the body ends: hangs on a held connection, counts trailing bytes. */
export const waitForEofAdapter: McpChatAdapter = createSpecAdapter({ onDone: "keep-reading" });

/** Shows `[ERROR] msg` as answer text instead of failing. */
export const errorAsTextAdapter: McpChatAdapter = createSpecAdapter({ onError: "text" });
