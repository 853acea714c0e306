/**
 * Parameters of the continue-remote suite: their defaults and typed access. Probes and checks read
 * them from ctx.params, which the runner fills from these defaults, the profile and the command line.
 */
import { paramReader } from "../../core/run/params.js";
import type { SelfTestPacing, Timeouts } from "../../core/run/protocol.js";

// §1 Kit timing: a 10 s request timeout; the turn timeout is the turnTimeoutMs parameter.
export const TIMEOUTS: Timeouts = { request: 10_000, headers: 10_000, firstEvent: 10_000, idle: 10_000, stream: 120_000, close: 2_000 };

export const DEFAULT_PARAMS = {
  /** The first turn's message (phase 3). */
  prompt: "Read the README file",
  /** Three distinct messages (phase 4), the last two sent while busy; CJK, emoji and a line break test fidelity. */
  queuePrompts: ["Say hello in Japanese: こんにちは 👩‍💻", "List the files here.\nThen stop.", "Reply with one word: done"],
  /** A message that keeps the agent busy long enough to interrupt or pause it (phase 5). */
  slowPrompt: "Count slowly from 1 to 200, one number per line, then say done.",
  /** Sent while the slow turn runs, under seed (a legacy server interrupts for it). */
  interruptPrompt: "Stop counting and just say OK.",
  /** A message meant to make the agent ask for permission (phase 6); empty: no extra turn. */
  permissionPrompt: "",
  /** Gap between the starts of two polls of GET /state (single-flight). */
  pollIntervalMs: 500,
  /** Longest wait for a turn (and the turns queued behind it) to end. */
  turnTimeoutMs: 120_000,
  /** Wait after GET and HEAD /exit before checking that the server still answers. */
  getExitWaitMs: 1000,
  /** Skip POST /exit (the server keeps running). */
  noExit: false,
  /** timing/responsive: /state p95 and POST /message limits. */
  stateP95Ms: 500,
  messageMaxMs: 1000,
  /** timing/responsive: a POST /message slower than this whose turn was already over when it answered waited for its turn. */
  blockingMs: 50,
  /** An origin and a host name the server must not trust. */
  foreignOrigin: "http://evil.example",
  foreignHost: "evil.example",
};

export type ContinueRemoteParams = typeof DEFAULT_PARAMS;

/** The built-in mock's pace as the suite's own target (delays not set explicitly): every step stays visible to a 10 ms poller. */
export const SELF_TEST_MOCK_PACE = { thinkMs: 10, chunkMs: 5, chunkChars: 24, gapMs: 10, toolMs: 30, exitDelayMs: 20 };

/**
 * The self-test against the built-in mock (`agentwire test` without --url): quick polls and short
 * waits, and `#scenario:` directives so the mock's turn asks for permission twice (approve, deny).
 */
export const SELF_TEST: SelfTestPacing = {
  params: {
    pollIntervalMs: 10,
    turnTimeoutMs: 10_000,
    getExitWaitMs: 100,
    // The first queued turn is long enough (two tools) for the next two to be sent while it runs; the others add a tool error and a plain chat.
    queuePrompts: ["#scenario:multi-tool Read the README, then list the files: こんにちは 👩‍💻", "#scenario:tool-error Read missing.txt.\nThen stop.", "#scenario:chat Reply with one word: done"],
    slowPrompt: "#scenario:multi-tool Read the README, then list the files, slowly",
    permissionPrompt: "#scenario:permission-twice Write the notes file twice",
  },
  timeouts: { request: 3000, headers: 3000, firstEvent: 3000, idle: 3000, stream: 10_000, close: 500 },
};

/** Typed view of ctx.params: a value of the wrong type falls back to the default. */
export const readParams = paramReader(DEFAULT_PARAMS);
