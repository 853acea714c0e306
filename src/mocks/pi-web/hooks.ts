/**
 * What a fault (or a profile quirk) may change, as optional hooks and flags. The engine consults
 * whichever the active records carry, so a fault is a record, not a branch of its own.
 */
import { hookFolder } from "../../core/mock/hooks.js";
import type { Session } from "./sessions.js";
import type { AgentMessage, Json } from "./types.js";

/** Rewrites one outgoing event into zero or more events. Stateful rewrites get a fresh instance per run. */
export type EventRewrite = (event: Json) => Json[];

export interface PiWebHooks {
  /** §1 upgrade checks and HTTP. */
  upgrade?: {
    /** Serve the WebSocket on this path instead of the configured one. */
    wsPath?: string;
    anyPath?: boolean;
    ignoreToken?: boolean;
    ignoreOrigin?: boolean;
    noHealth?: boolean;
  };
  /** How events leave (per receiving socket). */
  wire?: { binaryEvents?: boolean; batchEvents?: boolean };
  /** Factory of an event rewrite; called once per run or per command. */
  events?: () => EventRewrite;
  rpc?: {
    responseBroadcast?: boolean;
    closeOnMalformed?: boolean;
    missingTypeSilent?: boolean;
    unknownCommandNoId?: boolean;
    strayReplyError?: boolean;
    /** Command types answered twice. */
    duplicate?: string[];
    /** Command types never answered. */
    drop?: string[];
    /** Query commands are held for the slowQueryDelay knob. */
    slowQueries?: boolean;
    /** Under pi-fork-0.54: upstream RPC commands steer / follow_up are accepted. */
    extraCommands?: boolean;
  };
  /** Every response, just before it is sent. */
  transformResponse?: (response: Json) => Json;
  /** `get_state` data. */
  transformState?: (data: Json) => Json;
  /** The history as get_messages / get_state report it. */
  transformHistory?: (messages: AgentMessage[], session: Session) => AgentMessage[];
  /** `agent_end.messages`. */
  agentEndMessages?: (messages: AgentMessage[]) => AgentMessage[];
  prompt?: {
    noRun?: boolean;
    /** A busy prompt without streamingBehavior is queued as a follow-up. */
    busyQueued?: boolean;
    /** Fork: a busy prompt gets a broadcast failure and then a success (same id). */
    busyDoubleResponse?: boolean;
    /** An invalid prompt gets a success only. */
    acceptInvalid?: boolean;
    /** Fork: an invalid prompt gets a success, then a broadcast failure. */
    invalidLateFailure?: boolean;
    dropImages?: boolean;
    /** A provider error becomes a failure response and no run. */
    errorAsResponse?: boolean;
  };
  sessions?: {
    unsorted?: boolean;
    defaultScopeCwd?: boolean;
    switchIgnored?: boolean;
    switchMissingCreates?: boolean;
    newKeepsHistory?: boolean;
    /** Fork: new/switch during a run silently drops the rest of it (no agent_end). */
    suppressRunOnChange?: boolean;
    changedLate?: boolean;
  };
  queue?: {
    clearStillInjects?: boolean;
    abortClears?: boolean;
    steerNewRun?: boolean;
    steerRunsAllTools?: boolean;
    followUpAsSteer?: boolean;
  };
  abort?: { ignored?: boolean; idleError?: boolean; earlyResponse?: boolean; noAgentEnd?: boolean };
  stream?: { toolArgsMismatch?: boolean; toolUseAsStop?: boolean; buffered?: boolean };
  tools?: { noResultMessage?: boolean };
  fanout?: { unicast?: boolean };
  dialogs?: { ignoreReplies?: boolean; lastReplyWinsMs?: number };
}

type FlagGroup = "upgrade" | "wire" | "rpc" | "prompt" | "sessions" | "queue" | "abort" | "stream" | "tools" | "fanout" | "dialogs";
const GROUPS: FlagGroup[] = ["upgrade", "wire", "rpc", "prompt", "sessions", "queue", "abort", "stream", "tools", "fanout", "dialogs"];

function chainRewrites(a: (() => EventRewrite) | undefined, b: (() => EventRewrite) | undefined) {
  if (!a || !b) return a ?? b;
  return (): EventRewrite => {
    const ra = a();
    const rb = b();
    return (e) => ra(e).flatMap(rb);
  };
}

/** Folds records into one: flag groups merge (arrays concatenate), transforms compose in order. */
export const combineHooks: (list: readonly PiWebHooks[]) => PiWebHooks = hookFolder<PiWebHooks>({
  merge: GROUPS,
  concatArrays: true,
  compose: ["transformResponse", "transformState", "transformHistory", "agentEndMessages"],
  custom(out, h) {
    out.events = chainRewrites(out.events, h.events);
  },
});

/** A rewrite that passes everything through. */
export const identityRewrite: EventRewrite = (e) => [e];
