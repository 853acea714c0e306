/**
 * Every fault of the openai-chat contract (protocol doc §7). Each one breaks exactly one rule of the
 * canonical mock and names, in `violates`, the full ids of the checks it must make fail. A fault is
 * a record of hooks (see hooks.ts) kept in three modules by level; this one lists them in the
 * doc's order.
 */
import type { FaultInfo } from "../../core/run/protocol.js";
import { HTTP_FAULTS, type FaultHooks } from "./faults-http.js";
import { STREAM_FAULTS } from "./faults-stream.js";
import { TOOL_FAULTS } from "./faults-tools.js";
import type { Hooks } from "./hooks.js";

export interface OpenaiChatFault extends FaultInfo, Hooks {}

/** The doc's table order. */
const ORDER = [
  "auth-missing-accepted",
  "auth-invalid-accepted",
  "models-bare-array",
  "sse-wrong-content-type",
  "keepalive-as-data",
  "sse-no-space",
  "sse-crlf",
  "sse-event-field",
  "sse-invalid-utf8",
  "no-done",
  "events-after-done",
  "hold-open-after-done",
  "chunk-id-per-chunk",
  "chunk-wrong-object",
  "usage-choices-null",
  "usage-choices-missing",
  "choice-index-missing",
  "content-not-string",
  "tool-function-missing",
  "missing-role",
  "role-empty-string",
  "empty-tool-calls-array",
  "content-with-tool-call",
  "tool-index-missing",
  "tool-index-string",
  "tool-id-missing",
  "tool-type-missing",
  "tool-name-late",
  "tool-id-changes",
  "tool-id-repeated",
  "tool-name-repeated",
  "tool-name-empty-later",
  "tool-ids-duplicate",
  "arguments-object",
  "arguments-cumulative",
  "arguments-repeated-at-end",
  "arguments-placeholder-first",
  "arguments-wrong-type",
  "arguments-missing-required",
  "arguments-extra-key",
  "no-arg-empty-string",
  "tool-name-unknown",
  "tool-name-doubled",
  "parallel-same-index",
  "parallel-interleaved",
  "ignore-parallel-false",
  "parallel-with-exclusive",
  "ignore-tool-choice",
  "stream-drops-tool-calls",
  "missing-finish-reason",
  "finish-reason-nonstandard",
  "finish-reason-twice",
  "stop-instead-of-tool-calls",
  "tool-calls-reason-on-text",
  "args-after-finish",
  "usage-every-chunk",
  "usage-chunk-missing",
  "usage-unrequested",
  "error-string",
  "error-as-200-stream",
  "stream-error-vllm-object",
  "stream-error-then-content",
  "accepts-bad-input",
  "bad-input-500",
  "bad-input-422-detail",
  "sync-wrong-content-type",
  "sync-role-missing",
  "reject-null-assistant-content",
  "follow-up-empty-answer",
  "reject-space-content",
  "stream-needs-accept",
  "buffered-stream",
  "stream-reset",
] as const;

const ALL: Record<string, FaultHooks> = { ...HTTP_FAULTS, ...STREAM_FAULTS, ...TOOL_FAULTS };

function build(): OpenaiChatFault[] {
  const extra = Object.keys(ALL).filter((n) => !(ORDER as readonly string[]).includes(n));
  if (extra.length) throw new Error(`openai-chat faults without a place in the order: ${extra.join(", ")}`);
  return ORDER.map((name) => {
    const record = ALL[name];
    if (!record) throw new Error(`openai-chat fault "${name}" has no record`);
    return { name, ...record };
  });
}

export const FAULTS: readonly OpenaiChatFault[] = build();

export function findFault(name: string): OpenaiChatFault | undefined {
  return FAULTS.find((f) => f.name === name);
}
