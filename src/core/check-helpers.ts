/**
 * Small helpers the check suites share: reading HTTP heads and bodies, and pointing evidence at an
 * SSE event or raw line in words a user can follow ("chat-stream line 4 (chunk 2, at 41 ms)").
 */
import { at, excerpt, type Evidence } from "./check.js";
import type { TranscriptEvent } from "./transcript.js";

type SseEventEvent = Extract<TranscriptEvent, { kind: "sse-event" }>;
type SseLineEvent = Extract<TranscriptEvent, { kind: "sse-line" }>;

/** Where a data line's value starts: after "data:" and one optional space. */
const valueStart = (line: string): number => (line.charCodeAt(5) === 32 ? 6 : 5);

/** The value of a data line, after "data:" and one optional space. */
export function dataValue(line: string): string {
  return line.slice(valueStart(line));
}

/** `dataValue(line).startsWith(prefix)`, without cutting the line (line hooks run for every line). */
export function dataStartsWith(line: string, prefix: string): boolean {
  return line.startsWith(prefix, valueStart(line));
}

/** `dataValue(line) === value`, without cutting the line. */
export function dataIs(line: string, value: string): boolean {
  const from = valueStart(line);
  return line.length - from === value.length && line.startsWith(value, from);
}

/** Evidence for an SSE event, with its payload as the excerpt. */
export function eventEvidence(ev: SseEventEvent): Evidence {
  return at(ev, { excerpt: excerpt(ev.data) });
}

/** "chat-stream event #3 (chunk 2, at 41 ms)". */
export function eventWhere(ev: SseEventEvent): string {
  return `${ev.label} event #${ev.index} (chunk ${ev.chunk}, at ${Math.round(ev.t)} ms)`;
}

export const is2xx = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** Evidence for a raw line, with the line and its terminator as the excerpt. */
export function lineEvidence(ev: SseLineEvent): Evidence {
  return at(ev, { excerpt: excerpt(ev.line + ev.eol) });
}

/** "chat-stream line 4 (chunk 2, at 41 ms)". */
export function lineWhere(ev: SseLineEvent): string {
  const chunks = ev.chunkStart === ev.chunkEnd ? `chunk ${ev.chunkStart}` : `chunks ${ev.chunkStart}-${ev.chunkEnd}`;
  return `${ev.label} line ${ev.lineNo} (${chunks}, at ${Math.round(ev.t)} ms)`;
}

/** Media type without parameters, lower-case. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}
