/**
 * Parameters of the openai-chat server suite: defaults and typed access. Probes and checks read
 * them from ctx.params (defaults, then the profile, then the command line: --model,
 * --max-requests, --set key=value...).
 */
import { paramReader } from "../../core/run/params.js";
import type { SelfTestPacing, Timeouts } from "../../core/run/protocol.js";

// §1: 10 s for /models and rejections, 60 s to headers, to the first chunk and between events,
// 300 s per stream, 2 s from [DONE] to the end of the body.
export const TIMEOUTS: Timeouts = { request: 10_000, headers: 60_000, firstEvent: 60_000, idle: 60_000, stream: 300_000, close: 2_000 };

export const DEFAULT_PARAMS = {
  /** Model every probe names; "" = the first id GET /models lists. */
  model: "",
  /** Cap on POSTs sent to the backend (paid APIs); 0 = unlimited. */
  maxRequests: 0,
  /** max_tokens of every probe. */
  maxTokens: 512,
  /** A forced probe that gets no tool call is sent again this many times. */
  retries: 1,
  /** P13: one forced probe per non-disabled catalogue tool (opt-in). */
  perTool: false,
  /** Tool catalogue the probes offer and the argument rules use: seed | continue-2026 | continue-cli-2026 | none. */
  catalogue: "seed",
  /** timing/streams-incrementally: least time from the first content chunk to the last chunk. */
  minGapMs: 100,
  /** done/connection-closes: longest wait from [DONE] to the end of the body. */
  closeTimeoutMs: 2000,
  /** errors/bad-input-400 accepts 422 as well as 400 (profile openai-compatible: FastAPI validation). */
  badInputAllow422: false,
  /** Longest 429 Retry-After the probes honour before giving up on a request. */
  maxRetryAfterMs: 30_000,
};

export type OpenaiChatParams = typeof DEFAULT_PARAMS;

/**
 * The self-test against the built-in mock (`agentwire test` without --url): the mock answers on
 * loopback within milliseconds at SELF_TEST_MOCK_PACE, so the least gap of the text stream and
 * the waits that only run out against a broken target shrink.
 */
export const SELF_TEST: SelfTestPacing = {
  params: { minGapMs: 20, closeTimeoutMs: 300 },
  timeouts: { request: 5_000, headers: 5_000, firstEvent: 5_000, idle: 5_000, stream: 30_000, close: 300 },
};

/** The built-in mock's pace as the suite's own target (delays not set explicitly). */
export const SELF_TEST_MOCK_PACE = { ttftMs: 5, chunkDelayMs: 5 };

/** Typed view of ctx.params: a value of the wrong type falls back to the default. */
export const readParams = paramReader(DEFAULT_PARAMS, { numbersAsStrings: true });
