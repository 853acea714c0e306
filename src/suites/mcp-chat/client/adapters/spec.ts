/**
 * The `spec` adapter: reads the stream as the contract and the WHATWG SSE rules say, with
 * eventsource-parser over one streaming UTF-8 decoder. `createSpecAdapter(rules)` swaps one rule
 * for a known defect; the defect adapters are built that way so each differs from spec in one
 * place only.
 */
import { createParser } from "eventsource-parser";
import { ResultFold, SPEC_RULES, type FoldRules } from "./fold.js";
import { httpErrorResult } from "./http-error.js";
import type { AdapterResult, McpChatAdapter } from "./types.js";

export function createSpecAdapter(defect: Partial<FoldRules> = {}): McpChatAdapter {
  const rules: FoldRules = { ...SPEC_RULES, ...defect };
  return async (response: Response): Promise<AdapterResult> => {
    if (!response.ok) return httpErrorResult(response);
    const fold = new ResultFold(rules);
    if (!response.body) return fold.result();
    const reader = response.body.getReader();
    // Streaming decode: a character split across reads is decoded once; a leading BOM is dropped.
    const decoder = new TextDecoder();
    const parser = createParser({ onEvent: (event) => fold.push(event.data) });
    let last = "";
    const feed = (text: string) => {
      if (text === "") return;
      last = text;
      parser.feed(text);
    };
    try {
      while (!fold.finished) {
        const { done, value } = await reader.read();
        if (done) break;
        feed(decoder.decode(value, { stream: true }));
      }
      if (!fold.finished) {
        feed(decoder.decode());
        // A CR at the very end is a complete line ending (WHATWG), but the parser holds it back
        // waiting for a possible LF; an LF now ends that same line, nothing more.
        if (last.endsWith("\r")) parser.feed("\n");
      }
    } catch (e) {
      return fold.failed(`stream failed: ${(e as Error).message}`);
    } finally {
      // Finished at the sentinel: stop the body, whatever the server still sends or holds open.
      await reader.cancel().catch(() => undefined);
    }
    return fold.result();
  };
}

export const specAdapter: McpChatAdapter = createSpecAdapter();

/** Marks the first card with the same name, so out-of-order ends of one tool hit the wrong card. */
export const matchByNameAdapter: McpChatAdapter = createSpecAdapter({ matchEnd: "name" });

/** Notes `[DONE]` but reads on until the body ends: hangs on a held connection, counts trailing bytes. */
export const waitForEofAdapter: McpChatAdapter = createSpecAdapter({ onDone: "keep-reading" });

/** Shows `[ERROR] msg` as answer text instead of failing. */
export const errorAsTextAdapter: McpChatAdapter = createSpecAdapter({ onError: "text" });
