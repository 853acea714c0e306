/**
 * Parameters of the mcp-chat suite: their defaults and typed access. Probes and checks read them
 * from ctx.params, which the runner fills from these defaults, the profile and the command line.
 */
import { paramReader } from "../../core/run/params.js";
import type { SelfTestPacing, Timeouts } from "../../core/run/protocol.js";

// §1: 10 s per JSON endpoint, 30 s to stream headers, 60 s to the first event and between
// events, 180 s per stream, 2 s from the sentinel to the end of the body.
export const TIMEOUTS: Timeouts = { request: 10_000, headers: 30_000, firstEvent: 60_000, idle: 60_000, stream: 180_000, close: 2_000 };

export const DEFAULT_PARAMS = {
  /** The browser origin the frontend runs on (seed "Base Configuration"). */
  origin: "http://localhost:3000",
  /** An origin the server must not echo. */
  foreignOrigin: "http://evil.example",
  /** The happy-path chat message; it should make the model call one tool. */
  prompt: "Use one of your tools once, then answer in one sentence.",
  /** timing/streams-incrementally: least time between the first event and the sentinel. */
  minGapMs: 100,
  /** terminal/connection-closes: longest wait from the sentinel to the end of the body. */
  closeTimeoutMs: 2000,
  /** Leave the target connected to the first listed server at the end. */
  keepConnection: false,
  /** Least time between two chat POSTs (budget-master limits chat to 30/min). */
  chatIntervalMs: 0,
  /** Event types accepted besides tool_start, tool_end and text. */
  allowedEventTypes: [] as string[],
  /** Event types that mean "this stream failed", like an [ERROR] sentinel. */
  errorEventTypes: [] as string[],
  /** Longest 429 Retry-After the probes honour before giving up on a request. */
  maxRetryAfterMs: 30_000,
};

export type McpChatParams = typeof DEFAULT_PARAMS;

/**
 * The self-test against the built-in mock (`agentwire test` without --url): the mock answers on
 * loopback within milliseconds and runs its tools for SELF_TEST_MOCK_PACE.toolDuration, so the
 * least gap of a streamed answer and the waits that only run out against a broken target shrink.
 */
export const SELF_TEST: SelfTestPacing = {
  params: { minGapMs: 20, closeTimeoutMs: 500 },
  timeouts: { request: 5_000, headers: 5_000, firstEvent: 5_000, idle: 5_000, stream: 30_000, close: 500 },
};

/** The built-in mock's pace as the suite's own target (delays not set explicitly). */
export const SELF_TEST_MOCK_PACE = { firstEventDelay: 5, eventDelay: 5, toolDuration: 40 };

/** Typed view of ctx.params: a value of the wrong type falls back to the default. */
export const readParams = paramReader(DEFAULT_PARAMS);
