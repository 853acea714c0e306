/**
 * The framings the mcp-chat mock offers: every protocol-agnostic SSE variant of core/sse-framing,
 * plus the termination and payload variants that change the event list itself. All are for
 * client tests; server conformance runs use `canonical`.
 */
import type { NamedItem } from "../../core/protocol.js";
import { SSE_FRAMINGS } from "../../core/sse-framing.js";
import { afterSentinel, done, dropSteps, isSentinel, prependSteps, text } from "./events.js";
import type { StreamHooks } from "./hooks.js";

export interface McpChatFraming extends NamedItem, StreamHooks {
  /** Least pause between the writes of one event (ms), whatever the configured chunkGap. */
  minChunkGap?: number;
}

export const DEFAULT_FRAMING = "canonical";

/**
 * Framings that cut one event into several writes. Writes with no pause between them coalesce into
 * one TCP read, which would hide the very split a client is tested on: give them at least 1 ms.
 */
const MIN_SPLIT_GAP_MS = 1;

export const FRAMINGS: readonly McpChatFraming[] = [
  ...SSE_FRAMINGS.map((v) => ({
    name: v.name,
    description: v.description,
    sse: v,
    ...(v.chunking !== "event" && v.chunking !== "whole" ? { minChunkGap: MIN_SPLIT_GAP_MS } : {}),
  })),
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
