/**
 * What every HTTP probe client shares: one recorded exchange per request with the time limits its
 * kind calls for, a bounded wait on 429 Retry-After, and stopping the run when the target stops
 * answering, so a dead or hanging target costs a few timeouts, not dozens. A protocol adds its
 * headers, pacing, budgets and notes around `sendOnce`.
 */
import { exchange, isUnreachable, type ExchangeResult, type ExchangeSpec } from "../transport/http-exchange.js";
import { ProbeSession, StopProbing, STREAMS_STOPPED_NOTE } from "./probe-session.js";
import type { ProbeContext } from "../run/protocol.js";
import { sleep } from "../mock/timing.js";
import type { BodyEndReason } from "../transcript/transcript.js";

/** This many exchanges in a row without a complete answer means the target is not answering. */
const MAX_CONSECUTIVE_FAILURES = 3;
/** 429s honoured per request before its answer is taken as it is. */
const MAX_RETRIES = 2;
/**
 * 429 answers in a row (across requests) after which the target is taken to refuse the run: the
 * probes stop rather than wait out one Retry-After after another.
 */
const MAX_429_IN_ROW = 6;
/** The most the whole run waits on Retry-After; past it a 429 is taken as the answer at once. */
const RETRY_WAIT_BUDGET_MS = 60_000;
/**
 * This many streams that ran to the stream limit without ending mean the target's streams do not
 * end: each further one would cost the whole limit, so later stream requests are not sent.
 */
const MAX_UNENDED_STREAMS = 2;

const FAILED_ENDS: ReadonlySet<BodyEndReason> = new Set(["timeout", "idle-timeout", "first-event-timeout", "error", "limit"]);

export type HttpTiming =
  /** A JSON endpoint that answers at once: the request timeout covers it all. */
  | "quick"
  /** A JSON answer that may wait for a model: the stream's head and total limits apply. */
  | "slow"
  /** An SSE stream: head, first-event, idle, total and close limits. */
  | "stream";

export interface HttpProbeRequest {
  method: string;
  /** The full URL. */
  url: string;
  /** The protocol's headers for this request (credentials, Origin...). */
  headers: Record<string, string>;
  /** Extra headers laid over the defaults (Accept, Content-Type). */
  extraHeaders?: Record<string, string>;
  body?: string;
  /** The body's Content-Type, for bad-input probes: `null` sends none. Default application/json when there is a body. */
  contentType?: string | null;
  timing: HttpTiming;
  /** A cap the probe chose on purpose: reaching it is an answer, not a failure. */
  maxBytes?: number;
  /** A shorter limit than the request timeout, for a quick request. */
  timeoutMs?: number;
  /** The request is expected to fail (the target was told to exit): it does not count towards stopping the run. */
  mayFail?: boolean;
}

export interface HttpProbeSettings {
  /** The read cap of a JSON answer (bounds a flood on a JSON endpoint). */
  jsonMaxBytes: number;
  /** The longest Retry-After the probes wait for. */
  maxRetryAfterMs(): number;
  /** How long to keep reading a stream after its terminal event. */
  closeWaitMs(): number;
  /** What ends a stream (starts the close timeout). */
  isTerminal?(data: string): boolean;
  /**
   * How an answer ended that counts as "no complete answer" towards stopping the run (default: the
   * time limits, an error, and a read cap the probe did not choose).
   */
  failedEnds?: ReadonlySet<BodyEndReason>;
  /** What the stop message calls the failed requests (default "exchanges"). */
  noun?: string;
}

export class HttpProbeSession extends ProbeSession {
  /** Exchanges sent so far. */
  protected exchanges = 0;
  private failuresInRow = 0;
  private unendedStreams = 0;
  private rateLimitedInRow = 0;
  private retryWaitedMs = 0;
  /** Why stream requests are no longer sent (MAX_UNENDED_STREAMS streams never ended); undefined while they are. */
  protected streamsStopped: string | undefined;

  constructor(
    ctx: ProbeContext,
    protocolId: string,
    private readonly http: HttpProbeSettings,
  ) {
    super(ctx, protocolId);
  }

  /**
   * Sends until the answer is not a 429 with a readable Retry-After, at most MAX_RETRIES times
   * more, and never waits beyond the protocol's limit. `mayRetry` lets a request budget veto.
   * Across the run, the waits stop once RETRY_WAIT_BUDGET_MS is spent, and MAX_429_IN_ROW 429s
   * in a row stop the probes.
   */
  protected async retrying(label: string, send: () => Promise<ExchangeResult>, mayRetry: () => boolean = () => true): Promise<ExchangeResult> {
    for (let attempt = 0; ; attempt++) {
      const result = await send();
      this.rateLimitedInRow = result.status === 429 ? this.rateLimitedInRow + 1 : 0;
      if (this.rateLimitedInRow >= MAX_429_IN_ROW) {
        const after = result.headers?.["retry-after"];
        this.stop(`${MAX_429_IN_ROW} answers in a row were 429 Too Many Requests (last: ${label}${after !== undefined ? `, Retry-After ${after}` : ""}; ${this.retryWaitedMs} ms spent waiting on Retry-After)`);
      }
      const wait = result.status === 429 ? retryAfterMs(result.headers?.["retry-after"]) : undefined;
      if (wait === undefined || attempt >= MAX_RETRIES || !mayRetry()) return result;
      const limit = this.http.maxRetryAfterMs();
      if (wait > limit) {
        this.ctx.progress(`${this.protocolId}: ${label} rate-limited; Retry-After ${wait} ms exceeds the ${limit} ms limit`);
        return result;
      }
      if (this.retryWaitedMs + wait > RETRY_WAIT_BUDGET_MS) {
        this.ctx.progress(`${this.protocolId}: ${label} rate-limited; the run's ${RETRY_WAIT_BUDGET_MS} ms for Retry-After waits is spent, not retrying`);
        return result;
      }
      this.retryWaitedMs += wait;
      this.ctx.progress(`${this.protocolId}: ${label} rate-limited; retrying in ${wait} ms`);
      await sleep(wait, this.ctx.signal);
    }
  }

  /**
   * One recorded exchange. `answered` sees the result before the run may stop for a dead target,
   * so a protocol can note what the failure means for its checks first.
   */
  protected async sendOnce(label: string, req: HttpProbeRequest, answered?: (r: ExchangeResult) => void): Promise<ExchangeResult> {
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    const t = this.ctx.timeouts;
    const stream = req.timing === "stream";
    const type = req.contentType === undefined ? (req.body !== undefined ? "application/json" : undefined) : req.contentType;
    const quick = Math.min(req.timeoutMs ?? t.request, t.request);
    const spec: ExchangeSpec = {
      probe: this.probe,
      label,
      method: req.method,
      url: req.url,
      headers: {
        ...req.headers,
        accept: stream ? "text/event-stream" : "application/json",
        ...(type ? { "content-type": type } : {}),
        ...(req.extraHeaders ?? {}),
      },
      ...(req.body !== undefined ? { body: req.body } : {}),
      signal: this.ctx.signal,
      maxBytes: Math.min(this.ctx.maxBytes, req.maxBytes ?? (stream ? Infinity : this.http.jsonMaxBytes)),
      timeouts: stream
        ? { headers: t.headers, total: t.stream, firstEvent: t.firstEvent, idle: t.idle, close: this.http.closeWaitMs() }
        : req.timing === "slow"
          ? { headers: t.headers, total: t.stream }
          : { headers: quick, total: quick },
      ...(stream && this.http.isTerminal ? { stream: true, isTerminal: this.http.isTerminal } : stream ? { stream: true } : {}),
    };
    const result = await exchange(this.ctx.bus, spec);
    this.exchanges++;
    answered?.(result);
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    if (stream) this.trackStream(label, result);
    if (!req.mayFail) this.track(label, result, req.maxBytes !== undefined);
    return result;
  }

  /** Counts streams cut at the stream limit (a head, then no end); enough of them stop the stream requests. */
  private trackStream(label: string, r: ExchangeResult): void {
    if (r.status === undefined || r.endReason !== "timeout" || this.streamsStopped !== undefined) return;
    if (++this.unendedStreams < MAX_UNENDED_STREAMS) return;
    const limit = this.ctx.timeouts.stream;
    this.streamsStopped = `${MAX_UNENDED_STREAMS} streams ran to the ${limit} ms stream limit without ending (last: ${label}); later stream requests are not sent`;
    this.note(STREAMS_STOPPED_NOTE, this.streamsStopped);
    this.ctx.progress(`${this.protocolId}: ${this.streamsStopped}`);
  }

  /** Stops early when nothing answers: first request unanswered, or several failures in a row. */
  private track(label: string, r: ExchangeResult, capped: boolean): void {
    // Hitting a cap the probe chose on purpose (bad input answered with a stream) is an answer.
    const limitOk = capped && r.endReason === "limit";
    const failed = r.status === undefined || (r.endReason !== undefined && (this.http.failedEnds ?? FAILED_ENDS).has(r.endReason) && !limitOk);
    if (r.status === undefined && (this.exchanges === 1 || isUnreachable(r))) this.stop(`${label}: ${r.error ?? "no response"}`);
    this.failuresInRow = failed ? this.failuresInRow + 1 : 0;
    if (this.failuresInRow >= MAX_CONSECUTIVE_FAILURES) {
      this.stop(`${MAX_CONSECUTIVE_FAILURES} ${this.http.noun ?? "exchanges"} in a row got no complete answer (last: ${label}, ${r.error ?? r.endReason})`);
    }
  }
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
