/**
 * The recording client of the openai-chat probes: every request carries the user's headers (the
 * bearer token among them), POSTs are counted against --max-requests, a 429 Retry-After is
 * honoured (bounded), and the run stops when the target stops answering (the core's HTTP probe
 * session).
 */
import { HttpProbeSession, type HttpTiming } from "../../core/probes/http-probe-session.js";
import type { ExchangeResult } from "../../core/transport/http-exchange.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import type { TranscriptEvent } from "../../core/transcript/transcript.js";
import { isTerminalData } from "./checks/support.js";
import { isChatLabel, isReset, NOTE } from "./labels.js";
import type { OpenaiChatParams } from "./params.js";

export { StopProbing } from "../../core/probes/probe-session.js";

/** Rejections should be short errors; a stream there is read only this far. */
export const REJECTION_MAX_BYTES = 16 * 1024;

export type Timing =
  /** GET /models and requests that should be rejected before a model runs. */
  | "quick"
  /** A non-streamed completion: the model runs before the head. */
  | "completion"
  /** A stream. */
  | "stream";

const TIMING: Record<Timing, HttpTiming> = { quick: "quick", completion: "slow", stream: "stream" };

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

export class ProbeClient extends HttpProbeSession {
  /** Some exchange got a response head: the target was reached. */
  private answered = false;
  private posts = 0;
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
    super(ctx, "openai-chat", {
      jsonMaxBytes: 4 * 1024 * 1024,
      maxRetryAfterMs: () => params.maxRetryAfterMs,
      // A little beyond --close-timeout, so a body that ends just late is measured rather than
      // cut (never beyond the stream limit).
      closeWaitMs: () => Math.min(Math.max(ctx.timeouts.close, params.closeTimeoutMs) + 500, ctx.timeouts.stream),
      isTerminal: isTerminalData,
    });
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

  /**
   * A POST, or undefined when --max-requests is spent (the label is recorded as unsent) or, for a
   * stream, once streams have stopped being sent (the run's note says why).
   */
  async post(label: string, path: string, opts: RequestOptions): Promise<Answer | undefined> {
    if (this.left <= 0) {
      this.unsent.push(label);
      return undefined;
    }
    if (opts.timing === "stream" && this.streamsStopped !== undefined) {
      this.ctx.progress(`openai-chat: ${label} not sent (streams do not end)`);
      return undefined;
    }
    return this.send(label, "POST", path, opts);
  }

  private send(label: string, method: string, path: string, opts: RequestOptions): Promise<Answer> {
    return this.retrying(label, () => this.once(label, method, path, opts), () => method !== "POST" || this.left > 0) as Promise<Answer>;
  }

  private async once(label: string, method: string, path: string, opts: RequestOptions): Promise<Answer> {
    const stream = opts.timing === "stream";
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
      result = await this.sendOnce(
        label,
        {
          method,
          url: this.base + path,
          headers: opts.replaceHeaders ?? this.headers,
          ...(opts.headers ? { extraHeaders: opts.headers } : {}),
          ...(opts.body !== undefined ? { body: opts.body } : {}),
          timing: TIMING[opts.timing],
          ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
        },
        (r) => {
          // A reachable target that resets a chat request (or breaks its body off) fails
          // request/not-reset; what the request would have fed is that rule's knock-on.
          const broken = r.status === undefined ? this.answered && isReset(r.code, r.error ?? "") : r.endReason === "error";
          if (broken && isChatLabel(label)) this.note(NOTE.reset, { check: "openai-chat/request/not-reset", where: label });
          if (r.status !== undefined) this.answered = true;
        },
      );
    } finally {
      unsubscribe?.();
    }
    if (!stream) toolCalled = hasMessageToolCall(result.json);
    return { ...result, toolCalled };
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
