/**
 * The `spec` adapter: reads a Chat Completions response as the contract says. A non-2xx answer is
 * an error carrying `error.message`; a `text/event-stream` body goes through the kit's shared
 * event-stream reader (WHATWG SSE) and stops at `[DONE]`; any other body is one `chat.completion`.
 * `createSpecAdapter(defect)` swaps one rule of the fold for a known defect, so each defect
 * adapter differs from spec in one place only.
 */
import { readEventStream } from "../../../../core/client-cases/adapters.js";
import { ChatFold, SPEC_RULES, type FoldRules } from "./fold.js";
import { httpErrorMessage } from "./http-error.js";
import type { AdapterResult, OpenaiChatAdapter } from "./types.js";

export function createSpecAdapter(defect: Partial<FoldRules> = {}): OpenaiChatAdapter {
  const rules: FoldRules = { ...SPEC_RULES, ...defect };
  return async (response: Response): Promise<AdapterResult> => {
    const fold = new ChatFold(rules);
    if (!response.ok) {
      const body = await response.text().catch(() => "");
      fold.fail(httpErrorMessage(response, body));
      return fold.result();
    }
    if (!isEventStream(response)) {
      const body = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return fold.failed(`response is neither JSON nor an event stream: ${body.slice(0, 80)}`);
      }
      fold.completion(parsed);
      return fold.result();
    }
    if (!response.body) return fold.result();
    // Finished at [DONE] or an error: the reader stops the body, whatever the server still sends or holds open.
    return readEventStream(response.body, fold);
  };
}

export function isEventStream(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").toLowerCase().includes("text/event-stream");
}

export const specAdapter: OpenaiChatAdapter = createSpecAdapter();

/** Notes `[DONE]` but reads on until the body ends: hangs on a held connection, counts trailing chunks. */
export const waitForEofAdapter: OpenaiChatAdapter = createSpecAdapter({ onDone: "keep-reading" });

/** Shows an in-stream error or an HTTP error as answer text instead of failing. */
export const errorAsTextAdapter: OpenaiChatAdapter = createSpecAdapter({ onError: "text" });

/** Appends every tool-call delta of a response to one call with `+=` (parallel calls merge). */
export const mergeToolDeltasAdapter: OpenaiChatAdapter = createSpecAdapter({ toolJoin: "merge-all" });

/** Reads `chunk.choices[0].delta` of every chunk: the `choices: []` usage chunk throws. */
export const firstChoiceAdapter: OpenaiChatAdapter = createSpecAdapter({ choices: "first" });
