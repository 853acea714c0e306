/**
 * The options of a command that shape what it judges, as the words a report's rerun command carries
 * (`RunResult.rerun`): a failure seen under --fault or --set must be seen again by the command the
 * report suggests. Credentials are never written there: their values become a placeholder.
 */

import type { RunResult } from "../core/verdicts/result.js";

/** An option's key (as commander names it) and its flag; a `--no-…` flag is written when the option is false. */
export type RerunFlags = Readonly<Record<string, string>>;

/** `agentwire test`: what reaches the probes, the checks or the built-in mock. */
export const TEST_RERUN: RerunFlags = {
  fault: "--fault",
  catalogue: "--catalogue",
  set: "--set",
  origin: "--origin",
  prompt: "--prompt",
  toolPrompt: "--tool-prompt",
  model: "--model",
  header: "--header",
  token: "--token",
  timeout: "--timeout",
  maxRequests: "--max-requests",
  maxBytes: "--max-bytes",
  closeTimeout: "--close-timeout",
  minGap: "--min-gap",
  pollInterval: "--poll-interval",
  keepConnection: "--keep-connection",
  exit: "--no-exit",
  pingWait: "--no-ping-wait",
};

/** `agentwire test-client`: what the mock plays and how long the client gets. */
export const TEST_CLIENT_RERUN: RerunFlags = {
  scenario: "--scenario",
  framing: "--framing",
  fault: "--fault",
  catalogue: "--catalogue",
  set: "--set",
  token: "--token",
  timeout: "--timeout",
};

/** `agentwire replay`: the parameters given over the recorded ones. */
export const REPLAY_RERUN: RerunFlags = { set: "--set" };

const REDACTED = "[redacted]";

/** How a credential's value is shown: the header's name stays, so the user knows what to put back. */
const PLACEHOLDERS: Record<string, (value: string) => string> = {
  header: (h) => `${h.slice(0, h.indexOf(":")).trim()}: ${REDACTED}`,
  token: () => REDACTED,
  // A mock's credential given as a setting (--set apiKey=…, --set token=…) is as secret as --token.
  set: (kv) => {
    const key = kv.slice(0, Math.max(0, kv.indexOf("=")));
    return CREDENTIAL_KEY.test(key) ? `${key}=${REDACTED}` : kv;
  },
};

/** Setting and parameter names that hold a credential. */
const CREDENTIAL_KEY = /key|token|secret|password|credential/i;

/** `options`: a command's options as commander gives them. */
export function rerunWords(options: object, flags: RerunFlags): string[] {
  const words: string[] = [];
  for (const [key, flag] of Object.entries(flags)) {
    const value = (options as Record<string, unknown>)[key];
    const negated = flag.startsWith("--no-");
    if (value === undefined || value === "") continue;
    // A --no-… option is true unless given; any other switch is written when true.
    if (typeof value === "boolean") {
      if (value !== negated) words.push(flag);
      continue;
    }
    const shown = PLACEHOLDERS[key] ?? String;
    for (const v of Array.isArray(value) ? value : [value]) words.push(flag, shown(String(v)));
  }
  return words;
}

/** The result with the words its rerun command carries, when there are any. */
export function withRerun(result: RunResult, options: object, flags: RerunFlags): RunResult {
  const rerun = rerunWords(options, flags);
  return rerun.length ? { ...result, rerun } : result;
}
