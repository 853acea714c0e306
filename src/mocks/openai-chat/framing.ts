/**
 * The framings the openai-chat mock offers (protocol doc §6, §8): every protocol-agnostic SSE
 * variant of core/sse-framing, plus the termination variants that change the event list itself.
 * All are for client robustness tests; server conformance runs use `canonical`.
 */
import type { NamedItem } from "../../core/protocol.js";
import { SSE_FRAMINGS } from "../../core/sse-framing.js";
import type { StreamContext, StreamHooks } from "./hooks.js";
import { dropKind, mapKind, mapSteps } from "./steps.js";

export interface OpenaiChatFraming extends NamedItem, StreamHooks {
  /** Least pause between the writes of one event (ms), whatever chunkGapMs says. */
  minChunkGap?: number;
}

export const DEFAULT_FRAMING = "canonical";

/**
 * Framings that cut one event into several writes. Writes with no pause between them coalesce into
 * one TCP read, which would hide the very split a client is tested on: give them at least 1 ms.
 */
const MIN_SPLIT_GAP_MS = 1;

export const FRAMINGS: readonly OpenaiChatFraming[] = [
  ...SSE_FRAMINGS.map((v) => ({
    name: v.name,
    description: v.description,
    sse: v,
    ...(v.chunking !== undefined && v.chunking !== "event" && v.chunking !== "whole" ? { minChunkGap: MIN_SPLIT_GAP_MS } : {}),
  })),
  {
    name: "open-after-done",
    description: "The body stays open 30 s after [DONE]; the client must finish at [DONE]",
    pacing: { closeDelayMs: 30_000 },
  },
  {
    name: "trailing-after-done",
    description: "A content chunk after [DONE], which the client must ignore",
    transformSteps: mapKind<StreamContext>("done", (s, ctx) => [
      s,
      { kind: "extra", data: ctx.chunk({ content: " [after DONE: must be ignored]" }) },
    ]),
  },
  {
    name: "eof-no-done",
    description: "EOF after the finish chunk (and usage), without [DONE]",
    transformSteps: dropKind<StreamContext>("done"),
  },
  {
    name: "eof-mid-stream",
    description: "EOF before any finish reason: the finish chunk, usage and [DONE] never come (truncated)",
    transformSteps: mapSteps<StreamContext>((s) => (s.kind === "finish" || s.kind === "usage" || s.kind === "done" ? [] : s)),
  },
];

export function findFraming(name: string): OpenaiChatFraming | undefined {
  return FRAMINGS.find((f) => f.name === name);
}
