/**
 * The recording client the mcp-chat probes use: every request carries Origin and the user's
 * headers, honours 429 Retry-After (bounded), paces chat POSTs, and stops the run when the
 * target stops answering, so a dead or hanging target costs a few timeouts, not dozens.
 */
import { ProbeSession, StopProbing } from "../../core/probe-session.js";
import { exchange, isUnreachable, type ExchangeResult, type ExchangeSpec } from "../../core/http-exchange.js";
import type { ProbeContext } from "../../core/protocol.js";
import type { BodyEndReason } from "../../core/transcript.js";
import { sleep } from "../../core/timing.js";
import type { McpChatParams } from "./params.js";

export { StopProbing } from "../../core/probe-session.js";

/** JSON bodies are small; this bounds a flood on a JSON endpoint. */
const JSON_MAX_BYTES = 1024 * 1024;
/** Bad-input answers should be short errors; a stream there is read only this far. */
export const BAD_INPUT_MAX_BYTES = 16 * 1024;
/** This many exchanges in a row without a complete answer means the target is not answering. */
const MAX_CONSECUTIVE_FAILURES = 3;
const MAX_RETRIES = 2;

const FAILED_ENDS: ReadonlySet<BodyEndReason> = new Set(["timeout", "idle-timeout", "first-event-timeout", "error", "limit"]);

export interface RequestOptions {
  body?: string;
  origin?: string;
  /** Extra request headers (preflight fields). */
  headers?: Record<string, string>;
  /** Counts against the chat pacing. */
  chat?: boolean;
  /** Read as SSE with the stream timeouts. */
  stream?: boolean;
  /** A JSON answer that may need a model call (POST /chat): the stream's time limits apply. */
  slow?: boolean;
  maxBytes?: number;
}

export class ProbeClient extends ProbeSession {
  private exchanges = 0;
  private failuresInRow = 0;
  private lastChatAt = -Infinity;

  constructor(
    ctx: ProbeContext,
    private readonly params: McpChatParams,
  ) {
    super(ctx, "mcp-chat");
  }





  async request(label: string, method: string, path: string, opts: RequestOptions = {}): Promise<ExchangeResult> {
    for (let attempt = 0; ; attempt++) {
      if (opts.chat) await this.pace();
      const result = await this.once(label, method, path, opts);
      const wait = result.status === 429 ? retryAfterMs(result.headers?.["retry-after"]) : undefined;
      if (wait === undefined || attempt >= MAX_RETRIES) return result;
      if (wait > this.params.maxRetryAfterMs) {
        this.ctx.progress(`mcp-chat: ${label} rate-limited; Retry-After ${wait} ms exceeds the ${this.params.maxRetryAfterMs} ms limit`);
        return result;
      }
      this.ctx.progress(`mcp-chat: ${label} rate-limited; retrying in ${wait} ms`);
      await sleep(wait, this.ctx.signal);
    }
  }

  private async pace(): Promise<void> {
    const wait = this.lastChatAt + this.params.chatIntervalMs - performance.now();
    if (wait > 0) await sleep(wait, this.ctx.signal);
    this.lastChatAt = performance.now();
  }

  private async once(label: string, method: string, path: string, opts: RequestOptions): Promise<ExchangeResult> {
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    const t = this.ctx.timeouts;
    const headers: Record<string, string> = {
      ...this.ctx.headers,
      origin: opts.origin ?? this.params.origin,
      accept: opts.stream ? "text/event-stream" : "application/json",
      ...(opts.body !== undefined ? { "content-type": "application/json" } : {}),
      ...(opts.headers ?? {}),
    };
    const spec: ExchangeSpec = {
      probe: this.probe,
      label,
      method,
      url: this.ctx.url + path,
      headers,
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      signal: this.ctx.signal,
      maxBytes: Math.min(this.ctx.maxBytes, opts.maxBytes ?? (opts.stream ? Infinity : JSON_MAX_BYTES)),
      timeouts: opts.stream
        ? { headers: t.headers, total: t.stream, firstEvent: t.firstEvent, idle: t.idle, close: Math.min(this.params.closeTimeoutMs, t.stream) }
        : opts.slow
          ? { headers: t.headers, total: t.stream }
          : { headers: t.request, total: t.request },
      ...(opts.stream ? { stream: true, isTerminal } : {}),
    };
    const result = await exchange(this.ctx.bus, spec);
    this.exchanges++;
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    this.track(label, result, opts.maxBytes !== undefined);
    return result;
  }

  /** Stops early when nothing answers: first request unanswered, or several failures in a row. */
  private track(label: string, r: ExchangeResult, capped: boolean): void {
    // Hitting a cap the probe chose on purpose (bad input answered with a stream) is an answer.
    const limitOk = capped && r.endReason === "limit";
    const failed = r.status === undefined || (r.endReason !== undefined && FAILED_ENDS.has(r.endReason) && !limitOk);
    if (r.status === undefined && (this.exchanges === 1 || isUnreachable(r))) {
      this.stop(`${label}: ${r.error ?? "no response"}`);
    }
    this.failuresInRow = failed ? this.failuresInRow + 1 : 0;
    if (this.failuresInRow >= MAX_CONSECUTIVE_FAILURES) {
      this.stop(`${MAX_CONSECUTIVE_FAILURES} exchanges in a row got no complete answer (last: ${label}, ${r.error ?? r.endReason})`);
    }
  }

}

/** What the exchange treats as the end of a stream (starts the close timeout). */
export function isTerminal(data: string): boolean {
  return data === "[DONE]" || data.startsWith("[ERROR]");
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

