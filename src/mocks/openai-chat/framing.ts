/**
 * The framings the openai-chat mock offers (protocol doc §6, §8): every protocol-agnostic SSE
 * variant of core/sse-framing, plus the termination variants that change the event list itself.
 * All are for client robustness tests; server conformance runs use `canonical`.
 */
import { DEFAULT_SSE_FRAMING, sseFramingRecords, type SseMockFraming } from "../../core/mock/sse-framings.js";
import type { StreamContext, StreamHooks } from "./hooks.js";
import { dropKind, mapKind, mapSteps } from "./steps.js";

export interface OpenaiChatFraming extends SseMockFraming, StreamHooks {}

export const DEFAULT_FRAMING = DEFAULT_SSE_FRAMING;

export const FRAMINGS: readonly OpenaiChatFraming[] = [
  ...sseFramingRecords(),
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
