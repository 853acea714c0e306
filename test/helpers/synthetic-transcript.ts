/**
 * Builds transcripts by hand for checks that have no fault to prove them (timing/profile) and for
 * replaying through checks without a network: the SSE views (sse-line, sse-event) come from the
 * core's own SseReader, so they match what a live run would record.
 */
import { DEFAULT_PROFILE, type CheckDef, type ProfileDef } from "../../src/core/check.js";
import { Evaluation } from "../../src/core/evaluation.js";
import type { CheckResult } from "../../src/core/result.js";
import { registry } from "../../src/core/schema-registry.js";
import { SseReader } from "../../src/core/sse-reader.js";
import type { BodyEndReason, NewEvent, TranscriptEvent } from "../../src/core/transcript.js";

export interface StreamSpec {
  exchange?: string;
  label: string;
  probe?: string;
  path?: string;
  requestAt: number;
  headAt: number;
  status?: number;
  headers?: Record<string, string>;
  /** Body chunks with the time (ms since the run started) each arrived. */
  chunks: { t: number; text: string | Uint8Array }[];
  endAt: number;
  reason?: BodyEndReason;
}

/** The events a live run records for one SSE exchange. */
export function streamExchange(spec: StreamSpec, seqStart = 0): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  const ref = { probe: spec.probe ?? spec.label, exchange: spec.exchange ?? "x1", label: spec.label };
  let seq = seqStart;
  const push = (e: NewEvent, t: number) => out.push({ ...e, seq: seq++, t } as TranscriptEvent);
  push({ kind: "http-request", ...ref, method: "POST", url: `http://127.0.0.1:1${spec.path ?? "/chat/stream"}`, path: spec.path ?? "/chat/stream", headers: { origin: "http://localhost:3000" } }, spec.requestAt);
  push({ kind: "http-response", ...ref, status: spec.status ?? 200, headers: spec.headers ?? { "content-type": "text/event-stream" } }, spec.headAt);
  let now = spec.headAt;
  const reader = new SseReader(ref.probe, ref.exchange, ref.label, (e) => push(e, now));
  let bytes = 0;
  spec.chunks.forEach((c, index) => {
    now = c.t;
    const b = typeof c.text === "string" ? new TextEncoder().encode(c.text) : c.text;
    bytes += b.length;
    push({ kind: "body-chunk", ...ref, index, bytes: b }, now);
    reader.push(b, index);
  });
  now = spec.endAt;
  reader.end();
  push({ kind: "body-end", ...ref, reason: spec.reason ?? "eof", bytes }, spec.endAt);
  return out;
}

/** Runs checks over recorded events, as the runner would at the end of a run. */
export function evaluate(
  checks: CheckDef[],
  events: Iterable<TranscriptEvent>,
  opts: { params?: Record<string, unknown>; profile?: ProfileDef } = {},
): CheckResult[] {
  const profile = opts.profile ?? DEFAULT_PROFILE;
  const evaluation = new Evaluation(checks, {
    protocol: "mcp-chat",
    profile,
    params: opts.params ?? {},
    validate: (message, value) => registry.validate("mcp-chat", message, value, profile.name),
  });
  for (const e of events) evaluation.observe(e);
  return evaluation.finish();
}
