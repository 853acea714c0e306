/**
 * The recording client the continue-remote probes use: plain JSON requests with the user's headers,
 * single-flight polling of GET /state at the poll interval, and waits that always end (the turn
 * timeout). It stops the run when the target stops answering, so a dead or hanging target costs a
 * few request timeouts, not dozens.
 */
import { exchange, isUnreachable, type ExchangeResult } from "../../core/http-exchange.js";
import { ProbeSession, StopProbing } from "../../core/probe-session.js";
import type { ProbeContext } from "../../core/protocol.js";
import { sleep } from "../../core/timing.js";
import { L, NOTE } from "./labels.js";
import type { ContinueRemoteParams } from "./params.js";

export { StopProbing } from "../../core/probe-session.js";

/** Snapshots are JSON documents; this bounds a `/state` that grows forever. */
const STATE_MAX_BYTES = 16 * 1024 * 1024;
/** Error answers should be short. */
const SMALL_MAX_BYTES = 64 * 1024;
const MAX_CONSECUTIVE_FAILURES = 3;

export interface RequestOptions {
  body?: string;
  /** Content type of the body; `null` sends none. Default application/json when there is a body. */
  contentType?: string | null;
  headers?: Record<string, string>;
  /** Drop these of the user's headers (a probe "without credentials"). */
  without?: string[];
  maxBytes?: number;
  timeoutMs?: number;
  /** The request is expected to fail (after /exit): it does not count towards stopping the run. */
  mayFail?: boolean;
}

/** What the probes read of a snapshot to decide what to do next (the checks decode their own). */
export interface Seen {
  isProcessing: boolean;
  pendingId: string | undefined;
  pending: Record<string, unknown> | undefined;
  length: number;
  queue: number | undefined;
  /** Milliseconds since the probes started, when the poll ended. */
  at: number;
}

export class ProbeClient extends ProbeSession {
  private exchanges = 0;
  private failuresInRow = 0;
  private lastPollStart = -Infinity;
  private readonly t0 = performance.now();
  /** The last snapshot a poll returned (any phase). */
  last: Seen | undefined;

  constructor(
    ctx: ProbeContext,
    readonly params: ContinueRemoteParams,
  ) {
    super(ctx, "continue-remote");
  }

  now(): number {
    return performance.now() - this.t0;
  }

  async request(label: string, method: string, path: string, opts: RequestOptions = {}): Promise<ExchangeResult> {
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    const headers: Record<string, string> = { ...this.ctx.headers, accept: "application/json" };
    for (const h of opts.without ?? []) {
      for (const k of Object.keys(headers)) if (k.toLowerCase() === h.toLowerCase()) delete headers[k];
    }
    const type = opts.contentType === undefined ? (opts.body !== undefined ? "application/json" : undefined) : opts.contentType;
    if (type) headers["content-type"] = type;
    Object.assign(headers, opts.headers ?? {});
    const timeout = Math.min(opts.timeoutMs ?? this.ctx.timeouts.request, this.ctx.timeouts.request);
    const result = await exchange(this.ctx.bus, {
      probe: this.probe,
      label,
      method,
      url: this.ctx.url + path,
      headers,
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      signal: this.ctx.signal,
      maxBytes: Math.min(this.ctx.maxBytes, opts.maxBytes ?? SMALL_MAX_BYTES),
      timeouts: { headers: timeout, total: timeout },
    });
    this.exchanges++;
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    if (!opts.mayFail) this.track(label, result);
    return result;
  }

  /** One GET /state of the poll series, at most one in flight and at least the poll interval after the previous one. */
  async poll(phase: string): Promise<Seen | undefined> {
    const wait = this.lastPollStart + this.params.pollIntervalMs - performance.now();
    if (wait > 0) await sleep(wait, this.ctx.signal);
    this.lastPollStart = performance.now();
    const r = await this.request(L.poll(phase), "GET", "/state", { maxBytes: STATE_MAX_BYTES });
    const seen = r.status === 200 ? readSeen(r.json, this.now()) : undefined;
    if (seen) this.last = seen;
    return seen;
  }

  /** A poll without waiting for the interval (right after a POST, to see its immediate effect). */
  async pollNow(phase: string): Promise<Seen | undefined> {
    this.lastPollStart = -Infinity;
    return this.poll(phase);
  }

  /**
   * Polls until `done` holds, the turn timeout passes (a note says so, and false is returned), or
   * polls stop giving snapshots. `each` sees every snapshot first (to answer permissions).
   */
  async pollUntil(phase: string, done: (s: Seen) => boolean, each?: (s: Seen) => Promise<void>, timeoutMs = this.params.turnTimeoutMs): Promise<boolean> {
    const start = performance.now();
    let misses = 0;
    for (;;) {
      const s = await this.poll(phase);
      if (s) {
        misses = 0;
        if (each) await each(s);
        if (done(s)) return true;
      } else if (++misses >= MAX_CONSECUTIVE_FAILURES) {
        this.stop(`${MAX_CONSECUTIVE_FAILURES} polls of GET /state in a row gave no snapshot (${phase})`);
      }
      if (performance.now() - start >= timeoutMs) {
        this.note(NOTE.turnTimeout, { phase, waitedMs: Math.round(performance.now() - start) });
        this.ctx.progress(`continue-remote: ${phase}: still busy after ${timeoutMs} ms; giving up on this wait`);
        return false;
      }
    }
  }

  /** Stops early when nothing answers: the first request unanswered, nothing listening, or several failures in a row. */
  private track(label: string, r: ExchangeResult): void {
    const failed = r.status === undefined || r.endReason === "timeout" || r.endReason === "error";
    if (r.status === undefined && (this.exchanges === 1 || isUnreachable(r))) this.stop(`${label}: ${r.error ?? "no response"}`);
    this.failuresInRow = failed ? this.failuresInRow + 1 : 0;
    if (this.failuresInRow >= MAX_CONSECUTIVE_FAILURES) {
      this.stop(`${MAX_CONSECUTIVE_FAILURES} requests in a row got no complete answer (last: ${label}, ${r.error ?? r.endReason})`);
    }
  }
}

/** The few facts the probes steer by, from either generation's snapshot; undefined when it is no snapshot. */
export function readSeen(json: unknown, at: number): Seen | undefined {
  if (!json || typeof json !== "object" || Array.isArray(json)) return undefined;
  const s = json as Record<string, unknown>;
  const session = s.session as { history?: unknown } | undefined;
  const history = Array.isArray(s.chatHistory) ? s.chatHistory : Array.isArray(session?.history) ? session.history : undefined;
  if (!history) return undefined;
  const pending = s.pendingPermission && typeof s.pendingPermission === "object" ? (s.pendingPermission as Record<string, unknown>) : undefined;
  return {
    isProcessing: s.isProcessing === true,
    pendingId: typeof pending?.requestId === "string" ? pending.requestId : undefined,
    pending,
    length: history.length,
    queue: typeof s.messageQueueLength === "number" ? s.messageQueueLength : undefined,
    at,
  };
}
