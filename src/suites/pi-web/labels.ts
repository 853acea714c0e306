/**
 * Labels: the names probes give connections (ws-open / ws-reject `label`) and outgoing messages
 * (ws-frame `label`), and the names of the facts they publish as notes. Checks key on them, so
 * they live in one list: a renamed probe cannot silently starve a check.
 */

/** Connection labels. */
export const C = {
  /** The connection that drives everything (reopened with the same label after a server close). */
  main: "main",
  /** A second client that only listens (fan-out, unicast) and answers one dialog twice. */
  passive: "passive",
  otherPath: (path: string) => `upgrade:other-path:${path}`,
  noToken: "upgrade:no-token",
  wrongToken: "upgrade:wrong-token",
  foreignOrigin: "upgrade:foreign-origin",
  noOrigin: "upgrade:no-origin",
} as const;

/** The two long-lived clients whose traffic the protocol checks judge. */
export const isClientConnection = (label: string | undefined): boolean => label === C.main || label === C.passive;
export const isUpgradeProbe = (label: string | undefined): boolean => !!label && label.startsWith("upgrade:");

/** Scenarios the probes run as prompts (the mock selects them by a `scenario:<name> ` prefix). */
export const RUN_SCENARIOS = ["text", "thinking", "tool", "two-tools", "error", "error-retry", "ext-error", "long"] as const;
export type RunScenario = (typeof RUN_SCENARIOS)[number];

/** Outgoing message labels. */
export const M = {
  health: "health",
  abortIdle: "abort:idle",
  stateInitial: "state:initial",
  usageInitial: "usage:initial",
  messagesInitial: "messages:initial",

  badMalformed: "bad:malformed",
  badArray: "bad:array",
  badNumber: "bad:number",
  badTypeless: "bad:typeless",
  unknownCommand: "bad:unknown-command",
  stateAfterBad: "state:after-bad-input",
  echo: (kind: string) => `echo:${kind}`,

  prompt: (scenario: string) => `prompt:${scenario}`,
  history: (scenario: string) => `history:${scenario}`,
  images: "prompt:images",
  invalidPrompt: "prompt:invalid",
  busyPrompt: "prompt:busy",
  midRun: (what: string) => `mid-run:${what}`,
  stateAfterRun: "state:after-run",

  queuePrompt: (name: string) => `prompt:queue-${name}`,
  steer: (name: string) => `steer:${name}`,
  followUp: (name: string) => `follow-up:${name}`,
  queueState: (name: string) => `state:queue-${name}`,
  clear: (name: string) => `clear:${name}`,
  abortQueue: "abort:queue",

  abortPrompt: "prompt:abort",
  abortRun: "abort:run",
  stateAfterAbort: "state:after-abort",

  dialogPrompt: "prompt:ext-dialogs",
  reply: (method: string) => `reply:${method}`,
  secondReply: "reply:second",
  strayUnknown: "reply:stray-unknown",
  strayFireAndForget: "reply:stray-fire-and-forget",
  stateAfterStray: "state:after-stray",

  sessionsAll: "sessions:all",
  sessionsDefault: "sessions:default",
  sessionsCwd: "sessions:cwd",
  stateBeforeNew: "state:before-new",
  newSession: "new:after-run",
  stateAfterNew: "state:after-new",
  messagesAfterNew: "messages:after-new",
  switchListed: "switch:listed",
  stateAfterSwitch: "state:after-switch",
  messagesAfterSwitch: "messages:after-switch",
  switchMissing: "switch:missing",
  stateAfterMissing: "state:after-missing",
  midRunPrompt: "prompt:new-mid-run",
  newMidRun: "new:mid-run",
  stateAfterNewMidRun: "state:after-new-mid-run",
  sessionsAfterNew: "sessions:after-new",
} as const;

export const isPromptLabel = (l: string | undefined): boolean => !!l && l.startsWith("prompt:");
/** Prompts sent while idle that must start a run (cmd/prompt-accepted). The error scenarios are event/error-run's. */
export const isRunPrompt = (l: string | undefined): boolean =>
  !!l &&
  l.startsWith("prompt:") &&
  l !== M.prompt("error") &&
  l !== M.prompt("error-retry") &&
  l !== M.invalidPrompt &&
  l !== M.busyPrompt &&
  l !== M.dialogPrompt;
export const isHistoryLabel = (l: string | undefined): boolean => !!l && l.startsWith("history:");
export const isMidRunLabel = (l: string | undefined): boolean => !!l && l.startsWith("mid-run:");
export const isEchoLabel = (l: string | undefined): boolean => !!l && l.startsWith("echo:");

/** Facts the probes publish as note events. */
export const NOTE = {
  /** string: why the probes stopped early. */
  stopped: "probes-stopped",
  /** {request: ms}: the kit's effective per-command timeout (min of 30 s and --timeout). */
  timeouts: "timeouts",
  /** {token: boolean}: whether the run had a token to test 401 with. */
  auth: "auth",
  /** string: why the remaining runs were skipped. */
  runsSkipped: "runs-skipped",
  /**
   * {topic: Topic, reason: string}: the probes drove a scenario to its end and the target took
   * another path the contract allows (no tool call, no provider failure, no dialog), so the
   * checks about that behaviour do not apply to it.
   */
  notApplicable: "not-applicable",
} as const;

/** Behaviours a target may legally never show when prompted for them (contract §4: scenario-bound checks). */
export const TOPIC = {
  /** The tool prompts were answered without a tool call. */
  tools: "tools",
  /** The queue prompts ran no tool, so nothing could be queued while one ran. */
  queue: "queue",
  /** The prompts meant to provoke a provider failure were answered normally. */
  providerError: "provider-error",
  /** The dialog command opened no dialog. */
  dialogs: "dialogs",
} as const;
export type Topic = (typeof TOPIC)[keyof typeof TOPIC];
