/** The shipped client-parse adapters, by the name `--adapter` takes. */
import { naiveLineSplitterAdapter } from "./naive-line-splitter.js";
import { errorAsTextAdapter, matchByNameAdapter, specAdapter, waitForEofAdapter } from "./spec.js";
import type { McpChatAdapter } from "./types.js";

export const mcpChatAdapters: Record<string, McpChatAdapter> = {
  spec: specAdapter,
  "naive-line-splitter": naiveLineSplitterAdapter,
  "match-by-name": matchByNameAdapter,
  "wait-for-eof": waitForEofAdapter,
  "error-as-text": errorAsTextAdapter,
};

export { createSpecAdapter } from "./spec.js";
export { ResultFold, SPEC_RULES, type FoldRules } from "./fold.js";
export type { AdapterResult, AdapterTool, McpChatAdapter } from "./types.js";
