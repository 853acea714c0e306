/**
 * Builds transcripts by hand, for checks that have no fault to prove them (timing, profiles, a real
 * agent's legal choices the mock does not play) and for judging without a network. One builder for
 * every transport: an SSE exchange (its sse-line/sse-event views come from the core's own SseReader,
 * so they match what a live run records), a JSON exchange, WebSocket connections and notes. `judge`
 * runs checks over the events as the runner does at the end of a run.
 */
import { DEFAULT_PROFILE, type CheckDef, type ProfileDef } from "../../src/core/checks/check.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import type { CheckResult } from "../../src/core/verdicts/result.js";
import { registry } from "../../src/core/schemas/schema-registry.js";
import { SseReader } from "../../src/core/transport/sse-reader.js";
import type { BodyEndReason, NewEvent, TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { RUN_STOPPED_NOTE } from "../../src/core/checks/run-stop.js";

/** The note the kit records when it stops a run (Ctrl-C, a time limit), as the runner, the mock and the proxy write it. */
export const stopNote = (by = "SIGTERM"): Extract<NewEvent, { kind: "note" }> => ({ kind: "note", probe: "kit", name: RUN_STOPPED_NOTE, value: { by } });

/** What the builder fills in itself: every event's probe defaults to the transcript's. */
type Draft = NewEvent extends infer E ? (E extends { probe: string } ? Omit<E, "probe"> & { probe?: string } : never) : never;

interface ExchangeSpec {
  label: string;
  exchange?: string;
  /** Defaults to the label. */
  probe?: string;
  method?: string;
  path: string;
  requestHeaders?: Record<string, string>;
  /** The request body, as sent. */
  body?: string;
  /** When the request went out and the head came back (ms since the run started); default: now. */
  requestAt?: number;
  headAt?: number;
  status?: number;
}

export interface SseSpec extends ExchangeSpec {
  /** Response headers; default a bare text/event-stream. */
  headers?: Record<string, string>;
  /** Body reads and when each arrived. */
  chunks: { t: number; text: string | Uint8Array }[];
  endAt: number;
  reason?: BodyEndReason;
}

export interface JsonSpec extends ExchangeSpec {
  /** Extra response headers (content-type is application/json). */
  headers?: Record<string, string>;
  /** The response body: a value to serialise, or the raw text. */
  response: unknown;
  endAt?: number;
}

const encoder = new TextEncoder();

/** A transcript in the making. Unless told a time, each event comes `step` ms after the one before. */
export class Transcript {
  readonly events: TranscriptEvent[] = [];
  private readonly probe: string;
  private readonly step: number;
  private readonly wsUrl: string;
  private seq = 0;
  private now = 0;

  constructor(o: { probe?: string; step?: number; wsUrl?: string } = {}) {
    this.probe = o.probe ?? "synthetic";
    this.step = o.step ?? 1;
    this.wsUrl = o.wsUrl ?? "ws://127.0.0.1:1/ws";
  }

  /** Records one event, at `at` or one step on. */
  add(e: Draft, at?: number): this {
    this.now = at ?? (this.now += this.step);
    this.events.push({ probe: this.probe, ...e, seq: this.seq++, t: this.now } as TranscriptEvent);
    return this;
  }

  /** Moves the clock on. */
  wait(ms: number): this {
    this.now += ms;
    return this;
  }

  /** Hands over the events recorded so far and forgets them (for transcripts generated lazily). */
  take(): TranscriptEvent[] {
    return this.events.splice(0);
  }

  note(name: string, value: unknown): this {
    return this.add({ kind: "note", name, value });
  }

  /** The kit stops the run (at `at`, or one step on). */
  stopped(by = "SIGTERM", at?: number): this {
    return this.add(stopNote(by), at);
  }

  private request(spec: ExchangeSpec) {
    const ref = { probe: spec.probe ?? spec.label, exchange: spec.exchange ?? "x1", label: spec.label };
    const requestAt = spec.requestAt ?? this.now;
    this.add({ kind: "http-request", ...ref, method: spec.method ?? "POST", url: `http://127.0.0.1:1${spec.path}`, path: spec.path, headers: spec.requestHeaders ?? {}, ...(spec.body !== undefined ? { body: spec.body } : {}) }, requestAt);
    return { ref, headAt: spec.headAt ?? requestAt };
  }

  /** One exchange whose answer is an event stream, read as a live run reads it. */
  sse(spec: SseSpec): this {
    const { ref, headAt } = this.request(spec);
    this.add({ kind: "http-response", ...ref, status: spec.status ?? 200, headers: spec.headers ?? { "content-type": "text/event-stream" } }, headAt);
    const reader = new SseReader(ref.probe, ref.exchange, ref.label, (e) => this.add(e, this.now));
    let bytes = 0;
    spec.chunks.forEach((c, index) => {
      const b = typeof c.text === "string" ? encoder.encode(c.text) : c.text;
      bytes += b.length;
      this.add({ kind: "body-chunk", ...ref, index, bytes: b }, c.t);
      reader.push(b, index);
    });
    this.now = spec.endAt;
    reader.end();
    return this.add({ kind: "body-end", ...ref, reason: spec.reason ?? "eof", bytes }, spec.endAt);
  }

  /** One exchange answered with a JSON body in a single read. */
  json(spec: JsonSpec): this {
    const { ref, headAt } = this.request(spec);
    const text = typeof spec.response === "string" ? spec.response : JSON.stringify(spec.response);
    const b = encoder.encode(text);
    this.add({ kind: "http-response", ...ref, status: spec.status ?? 200, headers: { "content-type": "application/json", ...spec.headers } }, headAt);
    this.add({ kind: "body-chunk", ...ref, index: 0, bytes: b }, headAt);
    return this.add({ kind: "body-end", ...ref, reason: "eof", bytes: b.length, text }, spec.endAt ?? headAt);
  }

  /** A WebSocket connection opened by the kit. */
  open(connection: string, label?: string, url = this.wsUrl): this {
    return this.add({ kind: "ws-open", connection, url, ...(label !== undefined ? { label } : {}) });
  }

  /** A text frame the kit sent: raw text, or a value as JSON. */
  send(connection: string, label: string | undefined, message: unknown): this {
    return this.add({ kind: "ws-frame", connection, direction: "out", binary: false, data: typeof message === "string" ? message : JSON.stringify(message), ...(label !== undefined ? { label } : {}) });
  }

  /** A text frame the server sent: raw text, or a value as JSON. */
  recv(connection: string, message: unknown): this {
    return this.add({ kind: "ws-frame", connection, direction: "in", binary: false, data: typeof message === "string" ? message : JSON.stringify(message) });
  }

  close(connection: string, by: "kit" | "server" = "kit", code = 1000): this {
    return this.add({ kind: "ws-close", connection, code, by });
  }
}

export interface JudgeOptions {
  profile?: ProfileDef;
  /** Default: the profile's own params. */
  params?: Record<string, unknown>;
  strict?: boolean;
}

/** Runs checks (all of one protocol) over events, as the runner does at the end of a run. */
export function judge(checks: CheckDef[], events: Iterable<TranscriptEvent>, o: JudgeOptions = {}): CheckResult[] {
  const protocol = checks[0]?.id.split("/")[0] ?? "";
  const profile = o.profile ?? DEFAULT_PROFILE;
  const evaluation = new Evaluation(
    checks,
    { protocol, profile, params: o.params ?? { ...(profile.params ?? {}) }, validate: (message, value) => registry.validate(protocol, message, value, profile.name) },
    o.strict ?? false,
  );
  for (const e of events) evaluation.observe(e);
  return evaluation.finish();
}

/** Results by id without the protocol's prefix ("chat/seq-gap-free"). */
export const byShortId = (results: CheckResult[]): Map<string, CheckResult> => new Map(results.map((c) => [c.id.replace(/^[^/]+\//, ""), c]));
