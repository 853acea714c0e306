/** The shipped openai-chat client-parse adapters, by the name `--adapter` takes. */
import { naiveAdapter } from "./naive.js";
import { errorAsTextAdapter, firstChoiceAdapter, mergeToolDeltasAdapter, specAdapter, waitForEofAdapter } from "./spec.js";
import type { OpenaiChatAdapter } from "./types.js";

export const openaiChatAdapters: Record<string, OpenaiChatAdapter> = {
  spec: specAdapter,
  naive: naiveAdapter,
  "error-as-text": errorAsTextAdapter,
  "wait-for-eof": waitForEofAdapter,
  "merge-tool-deltas": mergeToolDeltasAdapter,
  "first-choice": firstChoiceAdapter,
};

export { createSpecAdapter, isEventStream, specAdapter } from "./spec.js";
export { ChatFold, SPEC_RULES, errorMessage, type FoldRules } from "./fold.js";
export { OUTCOMES, type AdapterResult, type AdapterUsage, type AssembledCall, type OpenaiChatAdapter } from "./types.js";
