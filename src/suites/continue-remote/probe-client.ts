/**
 * The recording client the continue-remote probes use: plain JSON requests with the user's headers,
 * single-flight polling of GET /state at the poll interval, and waits that always end (the turn
 * timeout). The core HTTP probe session records each exchange and stops the run when the target
 * stops answering, so a dead or hanging target costs a few request timeouts, not dozens.
 */
import type { ExchangeResult } from "../../core/transport/http-exchange.js";
import { HttpProbeSession } from "../../core/probes/http-probe-session.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import type { BodyEndReason } from "../../core/transcript/transcript.js";
import { sleep } from "../../core/mock/timing.js";
import { L, NOTE } from "./labels.js";
import type { ContinueRemoteParams } from "./params.js";

export { StopProbing } from "../../core/probes/probe-session.js";

/** Snapshots are JSON documents; this bounds a `/state` that grows forever. */
const STATE_MAX_BYTES = 16 * 1024 * 1024;
/** Error answers should be short. */
const SMALL_MAX_BYTES = 64 * 1024;
/** Polls in a row without a snapshot that stop the run. */
const MAX_CONSECUTIVE_FAILURES = 3;
const FAILED_ENDS: ReadonlySet<BodyEndReason> = new Set(["timeout", "error"]);

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

export class ProbeClient extends HttpProbeSession {
  private lastPollStart = -Infinity;
  private readonly t0 = performance.now();
  /** The last snapshot a poll returned (any phase). */
  last: Seen | undefined;

  constructor(
    ctx: ProbeContext,
    readonly params: ContinueRemoteParams,
  ) {
    super(ctx, "continue-remote", {
      jsonMaxBytes: SMALL_MAX_BYTES,
      // Neither applies: no request is retried and none is read as a stream.
      maxRetryAfterMs: () => 0,
      closeWaitMs: () => 0,
      // Only a time limit or a broken connection means the target stopped answering; a read cap does not.
      failedEnds: FAILED_ENDS,
      noun: "requests",
    });
  }

  now(): number {
    return performance.now() - this.t0;
  }

  request(label: string, method: string, path: string, opts: RequestOptions = {}): Promise<ExchangeResult> {
    const headers: Record<string, string> = { ...this.ctx.headers };
    for (const h of opts.without ?? []) {
      for (const k of Object.keys(headers)) if (k.toLowerCase() === h.toLowerCase()) delete headers[k];
    }
    // No 429 retries: the contract names no rate limit, and a poll is soon repeated anyway.
    return this.sendOnce(label, {
      method,
      url: this.ctx.url + path,
      headers,
      ...(opts.headers ? { extraHeaders: opts.headers } : {}),
      ...(opts.body !== undefined ? { body: opts.body } : {}),
      ...(opts.contentType !== undefined ? { contentType: opts.contentType } : {}),
      timing: "quick",
      ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      ...(opts.mayFail ? { mayFail: true } : {}),
    });
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
