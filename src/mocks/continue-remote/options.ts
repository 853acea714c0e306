/** Options of the continue-remote reference mock, with the contract's defaults (§6 knobs). */
import { givenNumbers, nonNegativeProblem, optionFailure } from "../../core/mock/option-checks.js";
import { MockOptionError } from "../../core/run/protocol.js";
import { faultProfileProblem, findFault, unknownFault } from "./faults.js";
import { isVariant, VARIANTS, type ContinueRemoteVariant } from "./variants.js";
import type { TranscriptBus } from "../../core/transcript/transcript.js";

export type ContinueRemoteProfile = "seed" | "cn-session";
/** `time`: steps follow the pacing; `poll`: each busy GET /state applies one step; `manual`: POST /__agentwire/step does. */
export type ContinueRemoteClock = "time" | "poll" | "manual";

export interface ContinueRemotePacing {
  thinkMs: number;
  chunkMs: number;
  chunkChars: number;
  gapMs: number;
  toolMs: number;
  /** Factor on every pacing time; 0 applies a turn at once. */
  speed: number;
}

export interface ContinueRemoteMockOptions extends Partial<ContinueRemotePacing> {
  profile?: ContinueRemoteProfile;
  clock?: ContinueRemoteClock;
  /** Scenarios used in turn by messages without `#scenario:`, before `defaultScenario`. */
  scenarios?: string[];
  defaultScenario?: string;
  ackDelayMs?: number;
  stateDelayMs?: number;
  /** 0 waits forever; a positive value denies an unanswered request after that long (time clock). */
  permissionTimeoutMs?: number;
  exitDelayMs?: number;
  /** `append` puts a tool's result after its start (the seed example); `replace` puts it in its place. */
  resultMode?: "append" | "replace";
  /** seed: a message during a turn answers `willInterrupt:true` and replaces the turn (legacy). */
  interruptOnMessage?: boolean;
  /** seed: chat entries carry `messageType:"chat"`. */
  chatMessageType?: boolean;
  /** seed: the optional `messageQueueLength` is sent. */
  reportQueue?: boolean;
  /** seed: the optional `pendingPermission` is sent. */
  reportPending?: boolean;
  /** Seconds without a request after which an idle server exits (§1 Timeouts); 0 never. */
  idleTimeoutS?: number;
  /** A first message queued at start, as `cn serve "<prompt>"` does (§3.1). */
  initialPrompt?: string;
  /** How answers are sent (§6 HTTP variants); plain JSON when absent. */
  variant?: ContinueRemoteVariant;
  /** Origins allowed to read answers and send JSON POSTs (CORS); none by default, as the real server. */
  cors?: string[];
  /** A bearer token every client route requires (401 without it); none by default, as the real server. */
  token?: string;
  /** Largest request body in bytes (413 above). */
  bodyLimit?: number;
  /** What `/diff` answers; null plays a directory without a `main` branch (404). */
  diff?: string | null;
  /** Faults (§7) active on every request; see faults.ts. */
  faults?: string[];
  /** Called once `/exit` has answered and `exitDelayMs` has passed. */
  onExit?: () => void;
  /** The clock of `timestamp` (ms since the epoch). */
  now?: () => number;
  /** Records client traffic for the client checks; the mock then outlives `/exit` (503, no onExit). */
  bus?: TranscriptBus;
}

export type ResolvedContinueRemoteOptions = Required<Omit<ContinueRemoteMockOptions, "onExit" | "diff" | "initialPrompt" | "variant" | "token" | "bus">> & {
  token: string | undefined;
  bus: TranscriptBus | undefined;
  variant: ContinueRemoteVariant | undefined;
  onExit: (() => void) | undefined;
  initialPrompt: string | undefined;
  diff: string | null;
};

export const DEFAULT_PACING: ContinueRemotePacing = {
  thinkMs: 400,
  chunkMs: 60,
  chunkChars: 6,
  gapMs: 150,
  toolMs: 800,
  speed: 1,
};

export const DEFAULT_DIFF = [
  "diff --git a/notes.txt b/notes.txt",
  "index 0000000..e69de29 100644",
  "--- a/notes.txt",
  "+++ b/notes.txt",
  "@@ -0,0 +1 @@",
  "+Remember to run npm install.",
  "",
].join("\n");

const NUMBERS = [
  "thinkMs",
  "chunkMs",
  "chunkChars",
  "gapMs",
  "toolMs",
  "speed",
  "ackDelayMs",
  "stateDelayMs",
  "permissionTimeoutMs",
  "exitDelayMs",
  "idleTimeoutS",
  "bodyLimit",
] as const;
const CHOICES = {
  profile: ["seed", "cn-session"],
  clock: ["time", "poll", "manual"],
  resultMode: ["append", "replace"],
} as const;

export function resolveContinueRemoteOptions(o: ContinueRemoteMockOptions = {}): ResolvedContinueRemoteOptions {
  // Programmatic options get the checks settings.ts gives the command line: a wrong one is named.
  givenNumbers(NUMBERS, o, nonNegativeProblem(), optionFailure("continue-remote"));
  if (o.chunkChars !== undefined && !(Number.isInteger(o.chunkChars) && o.chunkChars >= 1)) {
    throw new MockOptionError(`continue-remote mock: chunkChars must be an integer >= 1, got ${String(o.chunkChars)}`);
  }
  for (const [key, allowed] of Object.entries(CHOICES) as [keyof typeof CHOICES, readonly string[]][]) {
    const v = o[key];
    if (v !== undefined && !allowed.includes(v)) {
      throw new MockOptionError(`continue-remote mock: ${key} must be one of ${allowed.join(", ")}, got "${String(v)}"`);
    }
  }
  if (o.variant !== undefined && !isVariant(o.variant)) {
    throw new MockOptionError(
      `continue-remote mock: unknown variant "${String(o.variant)}" (known: ${VARIANTS.map((v) => v.name).join(", ")})`,
    );
  }
  const profile = o.profile ?? "seed";
  for (const name of o.faults ?? []) {
    const fault = findFault(name);
    const problem = fault ? faultProfileProblem(fault, profile) : unknownFault(name);
    if (problem) throw new MockOptionError(`continue-remote mock: ${problem}`);
  }
  return {
    ...DEFAULT_PACING,
    profile: "seed",
    clock: "time",
    scenarios: [],
    defaultScenario: "read-file",
    ackDelayMs: 0,
    stateDelayMs: 0,
    permissionTimeoutMs: 0,
    exitDelayMs: 100,
    idleTimeoutS: 0,
    resultMode: "append",
    interruptOnMessage: false,
    chatMessageType: false,
    reportQueue: true,
    reportPending: true,
    bodyLimit: 100 * 1024,
    cors: [],
    faults: [],
    now: () => Date.now(),
    ...definedOnly(o),
    onExit: o.onExit,
    initialPrompt: o.initialPrompt,
    variant: o.variant,
    token: o.token,
    bus: o.bus,
    diff: o.diff === undefined ? DEFAULT_DIFF : o.diff,
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
