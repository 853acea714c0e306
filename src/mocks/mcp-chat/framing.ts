/**
 * The framings the mcp-chat mock offers: every protocol-agnostic SSE variant of core/sse-framing,
 * plus the termination and payload variants that change the event list itself. All are for
 * client tests; server conformance runs use `canonical`.
 */
import { DEFAULT_SSE_FRAMING, sseFramingRecords, type SseMockFraming } from "../../core/mock/sse-framings.js";
import { afterSentinel, done, dropSteps, isSentinel, prependSteps, text } from "./events.js";
import type { StreamHooks } from "./hooks.js";

export interface McpChatFraming extends SseMockFraming, StreamHooks {}

export const DEFAULT_FRAMING = DEFAULT_SSE_FRAMING;

export const FRAMINGS: readonly McpChatFraming[] = [
  ...sseFramingRecords(),
  {
    name: "open-after-done",
    description: "The connection stays open 30 s after [DONE]; the client must finish at [DONE]",
    timing: { closeDelay: 30_000 },
  },
  {
    name: "trailing-after-done",
    description: "A text event and a second [DONE] after the sentinel, which the client must ignore",
    transformEvents: afterSentinel(text(" [after DONE: must be ignored]"), done()),
  },
  {
    name: "eof-no-terminal",
    description: "The body ends without a sentinel (truncation)",
    transformEvents: dropSteps((s) => isSentinel(s.data)),
  },
  {
    name: "unknown-type",
    description: 'A {"type": "status"} event first, which the client must skip',
    transformEvents: prependSteps({ data: { type: "status" } }),
  },
  {
    name: "non-json-data",
    description: "A `data: Thinking...` event first, which must neither break the stream nor become text",
    transformEvents: prependSteps({ data: "Thinking..." }),
  },
];

export function findFraming(name: string): McpChatFraming | undefined {
  return FRAMINGS.find((f) => f.name === name);
}
