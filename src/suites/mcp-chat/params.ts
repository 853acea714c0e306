/**
 * Parameters of the mcp-chat suite: their defaults and typed access. Probes and checks read them
 * from ctx.params, which the runner fills from these defaults, the profile and the command line.
 */
import { paramReader } from "../../core/params.js";

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

/** Typed view of ctx.params: a value of the wrong type falls back to the default. */
export const readParams = paramReader(DEFAULT_PARAMS);
