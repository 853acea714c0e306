/**
 * The recording client of the openai-chat probes: every request carries the user's headers (the
 * bearer token among them), POSTs are counted against --max-requests, a 429 Retry-After is
 * honoured (bounded), and the run stops when the target stops answering, so a dead or hanging
 * backend costs a few timeouts, not dozens.
 */
import { ProbeSession, StopProbing } from "../../core/probe-session.js";
import { exchange, isUnreachable, type ExchangeResult, type ExchangeSpec } from "../../core/http-exchange.js";
import type { ProbeContext } from "../../core/protocol.js";
import type { BodyEndReason, TranscriptEvent } from "../../core/transcript.js";
import { sleep } from "../../core/timing.js";
import { isTerminalData } from "./checks/support.js";
import { isChatLabel, isReset, NOTE } from "./labels.js";
import type { OpenaiChatParams } from "./params.js";

export { StopProbing } from "../../core/probe-session.js";

/** JSON bodies are small; this bounds a flood on a JSON endpoint. */
const JSON_MAX_BYTES = 4 * 1024 * 1024;
/** Rejections should be short errors; a stream there is read only this far. */
export const REJECTION_MAX_BYTES = 16 * 1024;
/** This many exchanges in a row without a complete answer means the target is not answering. */
const MAX_CONSECUTIVE_FAILURES = 3;
const MAX_RETRIES = 2;

const FAILED_ENDS: ReadonlySet<BodyEndReason> = new Set(["timeout", "idle-timeout", "first-event-timeout", "error", "limit"]);

export type Timing =
  /** GET /models and requests that should be rejected before a model runs. */
  | "quick"
  /** A non-streamed completion: the model runs before the head. */
  | "completion"
  /** A stream. */
  | "stream";

export interface RequestOptions {
  body?: string;
  /** Replaces the user's headers entirely when set (auth probes). */
  replaceHeaders?: Record<string, string>;
  /** Extra request headers over the defaults. */
  headers?: Record<string, string>;
  timing: Timing;
  maxBytes?: number;
}

export interface Answer extends ExchangeResult {
  /** A tool call showed up in the answer (stream deltas or message.tool_calls). */
  toolCalled: boolean;
}

export class ProbeClient extends ProbeSession {
  private exchanges = 0;
  /** Some exchange got a response head: the target was reached. */
  private answered = false;
  private posts = 0;
  private failuresInRow = 0;
  private budgetNoted = false;
  private readonly unsent: string[] = [];

  constructor(
    ctx: ProbeContext,
    private readonly params: OpenaiChatParams,
    /** The base URL the paths are appended to (…/v1). */
    private readonly base: string,
    /** Headers of every probe (the user's, plus the built-in mock's key). */
    private readonly headers: Record<string, string>,
  ) {
    super(ctx, "openai-chat");
  }





  /** POSTs left under --max-requests (Infinity when uncapped). */
  get left(): number {
    return this.params.maxRequests > 0 ? this.params.maxRequests - this.posts : Infinity;
  }

  /** Records labels that the budget kept from being sent. */
  skipped(...labels: string[]): void {
    this.unsent.push(...labels);
  }

  /** Publishes the budget note once, when something went unsent. */
  finish(): void {
    if (this.unsent.length && !this.budgetNoted) {
      this.budgetNoted = true;
      this.note(NOTE.budget, { max: this.params.maxRequests, unsent: this.unsent });
      this.ctx.progress(`openai-chat: --max-requests ${this.params.maxRequests} reached; not sent: ${this.unsent.join(", ")}`);
    }
  }

  get(label: string, path: string): Promise<Answer> {
    return this.send(label, "GET", path, { timing: "quick" });
  }

  /** A POST, or undefined when --max-requests is spent (the label is recorded as unsent). */
  async post(label: string, path: string, opts: RequestOptions): Promise<Answer | undefined> {
    if (this.left <= 0) {
      this.unsent.push(label);
      return undefined;
    }
    return this.send(label, "POST", path, opts);
  }

  private async send(label: string, method: string, path: string, opts: RequestOptions): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.once(label, method, path, opts);
      const wait = result.status === 429 ? retryAfterMs(result.headers?.["retry-after"]) : undefined;
      if (wait === undefined || attempt >= MAX_RETRIES || (method === "POST" && this.left <= 0)) return result;
      if (wait > this.params.maxRetryAfterMs) {
        this.ctx.progress(`openai-chat: ${label} rate-limited; Retry-After ${wait} ms exceeds the ${this.params.maxRetryAfterMs} ms limit`);
        return result;
      }
      this.ctx.progress(`openai-chat: ${label} rate-limited; retrying in ${wait} ms`);
      await sleep(wait, this.ctx.signal);
    }
  }

  private async once(label: string, method: string, path: string, opts: RequestOptions): Promise<Answer> {
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    const t = this.ctx.timeouts;
    const stream = opts.timing === "stream";
    const headers: Record<string, string> = {
      ...(opts.replaceHeaders ?? this.headers),
      accept: stream ? "text/event-stream" : "application/json",
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(opts.headers ?? {}),
    };
    const spec: ExchangeSpec = {
      probe: this.probe,
      label,
      method,
      url: this.base + path,
      headers,
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      signal: this.ctx.signal,
      maxBytes: Math.min(this.ctx.maxBytes, opts.maxBytes ?? (stream ? Infinity : JSON_MAX_BYTES)),
      timeouts:
        opts.timing === "stream"
          ? { headers: t.headers, total: t.stream, firstEvent: t.firstEvent, idle: t.idle, close: this.closeWait() }
          : opts.timing === "completion"
            ? { headers: t.headers, total: t.stream }
            : { headers: t.request, total: t.request },
      ...(stream ? { stream: true, isTerminal: isTerminalData } : {}),
    };
    if (method === "POST") this.posts++;
    // Watches the answer for a tool call as it streams by (the result keeps only 1000 events).
    let toolCalled = false;
    const unsubscribe = stream
      ? this.ctx.bus.subscribe((ev: TranscriptEvent) => {
          if (!toolCalled && ev.kind === "sse-event" && ev.label === label && ev.data.includes("tool_calls")) toolCalled = hasToolCallDelta(ev.data);
        })
      : undefined;
    let result: ExchangeResult;
    try {
      result = await exchange(this.ctx.bus, spec);
    } finally {
      unsubscribe?.();
    }
    if (!stream) toolCalled = hasMessageToolCall(result.json);
    this.exchanges++;
    // A reachable target that resets a chat request (or breaks its body off) fails
    // request/not-reset; what the request would have fed is that rule's knock-on.
    const broken = result.status === undefined ? this.answered && isReset(result.code, result.error ?? "") : result.endReason === "error";
    if (broken && isChatLabel(label)) this.note(NOTE.reset, { check: "openai-chat/request/not-reset", where: label });
    if (result.status !== undefined) this.answered = true;
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    this.track(label, result, opts.maxBytes !== undefined);
    return { ...result, toolCalled };
  }

  /**
   * How long to keep reading after [DONE]: a little beyond --close-timeout, so a body that ends
   * just late is measured rather than cut (never beyond the stream limit).
   */
  private closeWait(): number {
    const t = this.ctx.timeouts;
    return Math.min(Math.max(t.close, this.params.closeTimeoutMs) + 500, t.stream);
  }

  /** Stops early when nothing answers: first request unanswered, or several failures in a row. */
  private track(label: string, r: ExchangeResult, capped: boolean): void {
    const limitOk = capped && r.endReason === "limit";
    const failed = r.status === undefined || (r.endReason !== undefined && FAILED_ENDS.has(r.endReason) && !limitOk);
    if (r.status === undefined && (this.exchanges === 1 || isUnreachable(r))) this.stop(`${label}: ${r.error ?? "no response"}`);
    this.failuresInRow = failed ? this.failuresInRow + 1 : 0;
    if (this.failuresInRow >= MAX_CONSECUTIVE_FAILURES) {
      this.stop(`${MAX_CONSECUTIVE_FAILURES} exchanges in a row got no complete answer (last: ${label}, ${r.error ?? r.endReason})`);
    }
  }

}

function hasToolCallDelta(data: string): boolean {
  try {
    const v = JSON.parse(data) as { choices?: unknown };
    return Array.isArray(v.choices) && v.choices.some((c) => Array.isArray((c as { delta?: { tool_calls?: unknown } } | null)?.delta?.tool_calls) && ((c as { delta: { tool_calls: unknown[] } }).delta.tool_calls.length > 0));
  } catch {
    return false;
  }
}

function hasMessageToolCall(json: unknown): boolean {
  const choices = (json as { choices?: unknown } | null)?.choices;
  return Array.isArray(choices) && choices.some((c) => {
    const calls = (c as { message?: { tool_calls?: unknown } } | null)?.message?.tool_calls;
    return Array.isArray(calls) && calls.length > 0;
  });
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
