/**
 * The recording client the mcp-chat probes use: every request carries Origin and the user's
 * headers, honours 429 Retry-After (bounded), paces chat POSTs, and stops the run when the
 * target stops answering (the core's HTTP probe session).
 */
import { HttpProbeSession } from "../../core/probes/http-probe-session.js";
import type { ExchangeResult } from "../../core/transport/http-exchange.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import { sleep } from "../../core/mock/timing.js";
import type { McpChatParams } from "./params.js";

export { StopProbing } from "../../core/probes/probe-session.js";
export { retryAfterMs } from "../../core/probes/http-probe-session.js";

/** Bad-input answers should be short errors; a stream there is read only this far. */
export const BAD_INPUT_MAX_BYTES = 16 * 1024;

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

export class ProbeClient extends HttpProbeSession {
  private lastChatAt = -Infinity;

  constructor(
    ctx: ProbeContext,
    private readonly params: McpChatParams,
  ) {
    super(ctx, "mcp-chat", {
      jsonMaxBytes: 1024 * 1024,
      maxRetryAfterMs: () => params.maxRetryAfterMs,
      closeWaitMs: () => Math.min(params.closeTimeoutMs, ctx.timeouts.stream),
      isTerminal,
    });
  }

  request(label: string, method: string, path: string, opts: RequestOptions = {}): Promise<ExchangeResult> {
    return this.retrying(label, async () => {
      if (opts.chat) await this.pace();
      return this.sendOnce(label, {
        method,
        url: this.ctx.url + path,
        headers: { ...this.ctx.headers, origin: opts.origin ?? this.params.origin },
        ...(opts.headers ? { extraHeaders: opts.headers } : {}),
        ...(opts.body !== undefined ? { body: opts.body } : {}),
        timing: opts.stream ? "stream" : opts.slow ? "slow" : "quick",
        ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
      });
    });
  }

  private async pace(): Promise<void> {
    const wait = this.lastChatAt + this.params.chatIntervalMs - performance.now();
    if (wait > 0) await sleep(wait, this.ctx.signal);
    this.lastChatAt = performance.now();
  }
}

/** What the exchange treats as the end of a stream (starts the close timeout). */
export function isTerminal(data: string): boolean {
  return data === "[DONE]" || data.startsWith("[ERROR]");
}
