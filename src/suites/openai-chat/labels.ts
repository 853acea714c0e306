/**
 * Exchange labels of the openai-chat probes, and the notes they publish. Checks key on these, so
 * a renamed probe cannot silently starve a check. A repeated forced probe gets `<label>#<n>`
 * (n ≥ 2); {@link baseLabel} strips it.
 */

/** The seed file of the contract every check quotes. */
export const SEED = "001_ba8f1763064c3ebc.txt";

/** P2: the bad requests, by name; bodies are built in probes.ts (they need the model). */
export const BAD_INPUT_NAMES = ["malformed-json", "empty-object", "model-only", "messages-string", "role-wizard", "tool-without-name"] as const;
export type BadInputName = (typeof BAD_INPUT_NAMES)[number];

export const L = {
  /** P0 GET /models. */
  models: "models",
  /** P1, only with --token. */
  authMissing: "auth-missing",
  authWrong: "auth-wrong",
  /** P2. */
  badInput: (name: BadInputName) => `bad-input:${name}`,
  /** P3 stream:true with a model name nobody serves. */
  unknownModel: "unknown-model",
  /** P4 / P5 text, no tools. */
  textStream: "text-stream",
  textSync: "text-sync",
  /** P6 / P7 tool_choice = the read tool. */
  forcedStream: "forced-stream",
  forcedSync: "forced-sync",
  /** P8 tool_choice "required". */
  requiredStream: "required-stream",
  /** P9 a parameterless tool, without stream_options. */
  noArgStream: "no-arg-stream",
  /** P10 two calls requested, parallel_tool_calls true. */
  parallelStream: "parallel-stream",
  /** P11 the seed §3 follow-up request. */
  followUpSync: "follow-up-sync",
  /** P12 what the Continue IDE sends. */
  continueShape: "continue-shape",
  /** P13 (opt-in) one forced stream per catalogue tool. */
  perTool: (tool: string) => `per-tool:${tool}`,
} as const;

/** The label of attempt n (1-based) of a probe. */
export const attemptLabel = (label: string, n: number): string => (n <= 1 ? label : `${label}#${n}`);
/** The probe label without its attempt suffix. */
export const baseLabel = (label: string): string => label.replace(/#\d+$/, "");

export const isBadInputLabel = (label: string): boolean => label.startsWith("bad-input:");
export const isAuthLabel = (label: string): boolean => label === L.authMissing || label === L.authWrong;
export const isPerToolLabel = (label: string): boolean => label.startsWith("per-tool:");

/**
 * Chat answers the response rules judge: every POST /chat/completions but the bad-input and auth
 * probes, whose answers belong to errors/bad-input-400 and auth/rejects-unauthenticated alone.
 */
export const isChatLabel = (label: string): boolean => label !== L.models && !isBadInputLabel(label) && !isAuthLabel(label);

/** Non-streamed chat probes. */
export const SYNC_PROBES: string[] = [L.followUpSync, L.forcedSync, L.textSync];

/** Facts the probes publish as note events. */
export const NOTE = {
  /** string: why the probes stopped early. */
  stopped: "probes-stopped",
  /** {max: number, unsent: string[]}: --max-requests was reached; the probes not sent. */
  budget: "budget-exhausted",
  /** string: why P1 was not sent (no --token). */
  authSkipped: "auth-skipped",
  /** {model, source: "param" | "models"}: the model the probes use. */
  model: "model",
  /** {catalogue, tools: string[]}: the tools the probes offer. */
  offered: "offered-tools",
  /** {check, where}: a chat request was reset before any answer; the checks it would have fed are knock-ons. */
  reset: "request-reset",
  /** {label, attempt}: a forced probe brought no call and is sent again. */
  retry: "retry",
} as const;

/** A transport error before the response head that is the target's doing (a reset), not the kit's timeout or an unreachable host. */
export function isReset(code: string | undefined, error: string): boolean {
  if (code === "ECONNRESET" || code === "EPIPE" || code === "ECONNABORTED" || code === "UND_ERR_SOCKET") return true;
  return code === undefined && /socket hang up|reset|other side closed/i.test(error);
}
