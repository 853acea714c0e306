/**
 * Parameters of the stagewise-chat suite: defaults and typed access. Probes and checks read them
 * from ctx.params, filled by the runner from these defaults, the profile and the command line
 * (`--origin`, `--prompt`, `--tool-prompt`, `--set key=value`).
 *
 * The prompts go out through `chat.sendMessage`. An echo agent echoes them, so the default prompt
 * is long enough for a reply of 200 characters (chat/stream-incremental), and the tool prompt asks
 * for a file to be written, which an agent is expected to do through a tool that needs approval.
 */
import { paramReader } from "../../core/run/params.js";
import type { SelfTestPacing, Timeouts } from "../../core/run/protocol.js";

// §1: discovery answers within 2 s; the kit gives a mutation 10 s (trpc/mutation-answered); a
// minute for a behaviour the probes asked for (§4); 2 s settle/close.
export const TIMEOUTS: Timeouts = { request: 10_000, headers: 5_000, firstEvent: 10_000, idle: 60_000, stream: 120_000, close: 2_000 };

export const DEFAULT_PARAMS = {
  /** Origin of discovery and upgrades: the toolbar runs in the developer's page (§1). */
  origin: "http://localhost:3000",
  /** An Origin no page of the developer has (security/ws-foreign-origin). */
  foreignOrigin: "https://evil.example",
  infoPath: "/stagewise/info",
  wsPath: "/stagewise/ws",
  /** Prefix of the chat procedures ("" for the private router's root paths). */
  chatPrefix: "chat.",
  /** switchChat and deleteChat take the chat id bare ("c1"), not as {chatId}. */
  chatIdAsString: false,
  /** Overrides the turn prompt (--prompt). */
  prompt: "",
  promptText:
    "Please answer in a few sentences: what makes a good commit message? Keep it plain, and do not use any tools. (This prompt is deliberately a little long, so that an agent that only echoes it still streams a reply of more than two hundred characters.)",
  /** Overrides the tool prompt (--tool-prompt). */
  toolPrompt: "",
  toolPromptText: "Please write a file notes.txt containing the word hello. Use your file-writing tool; I will approve it.",
  /** Longest wait for a behaviour the probes asked for (§4: unseen in 60 s is not exercised) (ms). */
  behaviourMs: 60_000,
  /** r2: a mutation's update may come up to this long after its result (ms). */
  updateWaitMs: 2_000,
  /** r14: stop while working → isWorking false within this long (ms). */
  stopMs: 5_000,
  /** Quiet time that proves "nothing was emitted" (rejections, no-op switch) (ms). */
  quietMs: 300,
  /**
   * Wait for the server's PING on a silent connection until 35 s after it opened
   * (trpc/keepalive-ping); `--no-ping-wait` leaves that check incomplete for a quicker run.
   */
  slow: true,
  /** The longest silence before the server's PING (§1: 30 s, plus 5 s of room); only a proof against a quick mock shortens it (ms). */
  pingAfterMs: 35_000,
  /** Fresh snapshots taken at random points mid-stream (§4: five). */
  midStreamSnapshots: 5,
  /** Inbound messages per connection before the kit stops reading (flood protection). */
  maxFrames: 2_000_000,
  /** Inbound messages per connection within one second before the kit cuts it as a flood. */
  maxFramesPerSecond: 20_000,
};

export type StagewiseParams = typeof DEFAULT_PARAMS;

/** Against the built-in mock: quiet times shrink, the limits the checks judge by stay. */
export const SELF_TEST: SelfTestPacing = {
  params: { quietMs: 80 },
  timeouts: { request: 5_000, headers: 2_000, firstEvent: 2_000, idle: 5_000, stream: 30_000, close: 250 },
};

export const readParams = paramReader(DEFAULT_PARAMS);
