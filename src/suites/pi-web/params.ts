/**
 * Parameters of the pi-web suite: defaults and typed access. Probes and checks read them from
 * ctx.params, filled by the runner from these defaults, the profile and the command line
 * (`--origin`, `--prompt`, `--set key=value`).
 *
 * Every prompt starts with `scenario:<name> `: the reference mock (§6) selects its scenario by
 * that prefix, and a real agent reads the rest as an ordinary instruction. When a real agent
 * legally does not show the behaviour (no tool call, no provider error), the checks about it are
 * skipped as not applicable; when it could not be brought about at all, they end incomplete.
 */
import { paramReader } from "../../core/run/params.js";
import type { SelfTestPacing, Timeouts } from "../../core/run/protocol.js";

// §1: the client gives up on a command after 30 s; 10 s to the 101 and to agent_start
// (cmd/prompt-accepted); a minute of silence inside a run; 5 min per run; 2 s settle/close.
export const TIMEOUTS: Timeouts = { request: 30_000, headers: 10_000, firstEvent: 10_000, idle: 60_000, stream: 300_000, close: 2_000 };

export const DEFAULT_PARAMS = {
  /** Origin of the upgrade; "" = `http://<target host>:<port>` (§1: the fork rejects a missing Origin). */
  origin: "",
  /** An Origin the server must refuse (conn/origin-403). */
  foreignOrigin: "http://evil.example",
  /** WebSocket path of the target. */
  wsPath: "/ws",
  /** Paths that must not upgrade (conn/other-path-404). */
  otherPaths: ["/socket", "/ws/x"] as string[],
  /** Overrides the text prompt (--prompt). */
  prompt: "",
  promptText: "scenario:text Say hello in one short sentence.",
  promptThinking: "scenario:thinking Think step by step, then answer in one sentence: what is 17 times 3?",
  promptTool: "scenario:tool Use the read tool to read README.md, then summarise it in one sentence.",
  promptTwoTools: "scenario:two-tools Read README.md with the read tool and run `ls` with the bash tool, then answer in one sentence.",
  promptError: "scenario:error Say hello.",
  promptErrorRetry: "scenario:error-retry Say hello.",
  promptExtError: "scenario:ext-error Say hello.",
  promptLong:
    "scenario:long Write about 80 short lines of prose that mix ASCII, é, 漢字, 🙂, \"quotes\" and \\backslashes\\. Use no tools.",
  promptImages: "scenario:text Describe the attached image in one word.",
  promptQueue: "scenario:queue Run `sleep 1` with the bash tool, then run `echo done` with the bash tool, then answer in one sentence.",
  promptAbort: "scenario:abort Write a very long essay, at least 3000 words, about the history of computing. Use no tools.",
  /** A prompt that runs an extension command which asks confirm, select, input and editor dialogs. */
  dialogCommand: "scenario:ext-dialogs",
  /** Text of the steer and follow-up messages the queue probes send (a suffix keeps them apart). */
  steerText: "Focus on the first result only.",
  followUpText: "Then say goodbye.",
  /** cmd/prompt-accepted: longest wait from an idle prompt to agent_start (ms). */
  firstEventMs: 10_000,
  /** cmd/abort: longest wait from abort to agent_end (ms). */
  abortEndMs: 5_000,
  /** timing/query-latency: longest answer time of a query command (ms). */
  queryLatencyMs: 2_000,
  /** stream/incremental: least time from the first delta to message_end, and least distinct 10-ms slots. */
  incrementalMinMs: 100,
  incrementalSlots: 3,
  /** How long the probes wait for a dialog's follow-up after answering it (ms). */
  dialogTimeoutMs: 5_000,
  /** After a run that ended in an error, how long to wait for auto_retry_start (ms). */
  retryGraceMs: 1_000,
  /** Quiet time that proves "no reply" (idle abort, stray replies, bad input) (ms). */
  quietMs: 300,
  /** Inbound messages per connection before the kit stops reading (flood protection). */
  maxFrames: 2_000_000,
  /**
   * Inbound messages per connection within one second before the kit cuts it as a flood. An agent
   * streams a few hundred a second; low enough to trip even when the kit itself reads slowly.
   */
  maxFramesPerSecond: 5_000,
};

export type PiWebParams = typeof DEFAULT_PARAMS;

/**
 * The self-test against the built-in mock (`agentwire test` without --url). The mock answers on
 * loopback within milliseconds, so the quiet times that prove "no reply" and the waits that only
 * run out against a broken target shrink; the limits the checks judge by keep a wide margin over
 * the mock's pace (a loaded machine must not turn into a failed check).
 */
export const SELF_TEST: SelfTestPacing = {
  params: { quietMs: 50, retryGraceMs: 150, dialogTimeoutMs: 1_000, firstEventMs: 2_000, abortEndMs: 2_000 },
  timeouts: { request: 5_000, headers: 2_000, firstEvent: 2_000, idle: 2_000, stream: 30_000, close: 250 },
};

/**
 * The built-in mock's pace as the suite's own target (delays not set explicitly): long answers
 * still stream for a few hundred milliseconds in many deltas (stream/incremental) and a queued
 * tool call still runs long enough to queue messages behind it.
 */
export const SELF_TEST_MOCK_PACE = { firstDelay: 5, chunkDelay: 2, chunkSize: 16, toolDelay: 20 };

/** Typed view of ctx.params: a value of the wrong type falls back to the default. */
export const readParams = paramReader(DEFAULT_PARAMS);

/** Profile parameters (§5) that change what a check accepts. */
export interface ForkAllowances {
  /** A rejected prompt may get a success plus a broadcast failure with the same id. */
  latePromptFailure: boolean;
  /** list_sessions without scope may list the cwd only. */
  defaultScopeCwd: boolean;
  /** switch_session to a missing file may succeed (and create it). */
  switchMissingCreates: boolean;
  /** new/switch during a run may suppress the rest of it: session_changed closes the run. */
  sessionChangeEndsRun: boolean;
}

export function forkAllowances(params: Readonly<Record<string, unknown>>): ForkAllowances {
  const on = (k: string) => params[k] === true || params[k] === "true";
  return {
    latePromptFailure: on("latePromptFailure"),
    defaultScopeCwd: on("defaultScopeCwd"),
    switchMissingCreates: on("switchMissingCreates"),
    sessionChangeEndsRun: on("sessionChangeEndsRun"),
  };
}
