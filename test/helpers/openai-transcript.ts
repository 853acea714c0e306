/**
 * Hand-built openai-chat transcripts: one streamed chat exchange as a live run records it (the SSE
 * views come from the core's SseReader), and an evaluation of the openai-chat checks over events.
 */
import { DEFAULT_PROFILE, type CheckDef, type ProfileDef } from "../../src/core/check.js";
import { Evaluation } from "../../src/core/evaluation.js";
import type { CheckResult } from "../../src/core/result.js";
import { registry } from "../../src/core/schema-registry.js";
import { SseReader } from "../../src/core/sse-reader.js";
import type { BodyEndReason, NewEvent, TranscriptEvent } from "../../src/core/transcript.js";

export interface ChatStreamSpec {
  label: string;
  exchange?: string;
  /** The request body (a ChatCompletionRequest with stream: true). */
  body: object;
  requestAt?: number;
  headAt?: number;
  status?: number;
  headers?: Record<string, string>;
  /** Raw body writes and when they arrived (ms since the run started). */
  writes: { t: number; text: string }[];
  endAt: number;
  reason?: BodyEndReason;
}

export function chatStreamExchange(spec: ChatStreamSpec, seqStart = 0): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  const ref = { probe: spec.label, exchange: spec.exchange ?? "xo1", label: spec.label };
  let seq = seqStart;
  let now = spec.requestAt ?? 0;
  const push = (e: NewEvent) => out.push({ ...e, seq: seq++, t: now } as TranscriptEvent);
  push({ kind: "http-request", ...ref, method: "POST", url: "http://127.0.0.1:1/v1/chat/completions", path: "/v1/chat/completions", headers: { "content-type": "application/json" }, body: JSON.stringify(spec.body) });
  now = spec.headAt ?? now;
  push({ kind: "http-response", ...ref, status: spec.status ?? 200, headers: spec.headers ?? { "content-type": "text/event-stream" } });
  const reader = new SseReader(ref.probe, ref.exchange, ref.label, push);
  let bytes = 0;
  spec.writes.forEach((w, index) => {
    now = w.t;
    const b = new TextEncoder().encode(w.text);
    bytes += b.length;
    push({ kind: "body-chunk", ...ref, index, bytes: b });
    reader.push(b, index);
  });
  now = spec.endAt;
  reader.end();
  push({ kind: "body-end", ...ref, reason: spec.reason ?? "eof", bytes });
  return out;
}

/** A chunk's SSE event text. */
export function chunkEvent(delta: object, finish: string | null = null, extra: object = {}): string {
  return `data: ${JSON.stringify({ id: "chatcmpl-t1", object: "chat.completion.chunk", created: 1700000000, model: "m", choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
}

export function evaluateOpenaiChat(checks: CheckDef[], events: Iterable<TranscriptEvent>, opts: { params?: Record<string, unknown>; profile?: ProfileDef } = {}): CheckResult[] {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const evaluation = new Evaluation(checks, {
    protocol: "openai-chat",
    profile,
    params: opts.params ?? {},
    validate: (message, value) => registry.validate("openai-chat", message, value, profile.name),
  });
  for (const e of events) evaluation.observe(e);
  return evaluation.finish();
}
