/**
 * What a fault may change in the continue-remote mock, as optional hooks and flags. The engine and
 * the machine apply whichever the active faults carry, so a fault is a record, not a branch.
 *
 * Faults given when the mock starts act on everything; faults a request selects (the
 * `x-agentwire-fault` header or `?fault=`) act on that request's answer only, so the hooks that
 * shape the running turn (`machine`, `options`, `server`) need the start-time selection.
 */
import { hookFolder } from "../../core/mock/hooks.js";
import type { ContinueRemoteMachine } from "./machine.js";
import type { ResolvedContinueRemoteOptions } from "./options.js";
import type { RouteName } from "./routes.js";
import type { ContinueRemoteScenario } from "./scenarios.js";

export type Json = Record<string, unknown>;

/** An answer before it is written: JSON `value`, or `raw` text with its own content type. */
export interface Answer {
  status: number;
  value: unknown;
  raw?: { text: string; contentType: string };
  /** `JSON.stringify(value)`, when the engine has it already (a GET /state of an unchanged state). */
  text?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/** What a hook may read, and the per-engine memory of the faults that count or remember (cleared on reset). */
export interface FaultContext {
  machine: ContinueRemoteMachine;
  opts: ResolvedContinueRemoteOptions;
  memo: Map<string, unknown>;
}

/** Flags the machine reads while it runs turns. */
export interface MachineFaults {
  /** The newest waiting message starts first. */
  lifo?: boolean;
}

export interface ContinueRemoteHooks {
  /** Option overrides for the engine (pacing, delays). */
  options?: Partial<Pick<ResolvedContinueRemoteOptions, "speed" | "stateDelayMs">>;
  machine?: MachineFaults;
  /** How the node server listens. */
  server?: { host?: string };
  /**
   * The GET /state body as served (a deep copy, free to change). A hook whose deviation must hold
   * for later requests too (an id that rotates) changes the machine through `ctx.machine`.
   */
  transformState?: (snapshot: Json, ctx: FaultContext) => Json;
  /** The text queued for a message (the user entry shows it). */
  transformText?: (text: string) => string;
  /** The scenario a message runs. */
  transformScenario?: (scenario: ContinueRemoteScenario) => ContinueRemoteScenario;
  /** The 200 body of POST /message; `busy` says whether a turn was running when it arrived. */
  transformAck?: (body: Json, busy: boolean) => Json;
  /** Any answer as it leaves the engine (content types, HTML pages); `route` is undefined for unknown paths. */
  transformAnswer?: (answer: Answer, route: RouteName | undefined) => Answer;
  message?: {
    acceptEmpty?: boolean;
    /** A non-string `message` is queued as its JSON text. */
    acceptNonString?: boolean;
    /** Status for a message that arrives while busy (not queued). */
    busyStatus?: number;
    /** A message that arrives while busy is answered 200 and forgotten. */
    dropWhileBusy?: boolean;
    /** The answer waits until the queue has run dry (capped at `waitCapMs`). */
    waitForIdle?: boolean;
  };
  body?: {
    /** A POST body of any content type is parsed when it is JSON. */
    anyContentType?: boolean;
    /** Status for a body that is not JSON (instead of 400). */
    malformedStatus?: number;
    /** Status for a POST whose content type is not JSON (instead of 415). */
    wrongTypeStatus?: number;
  };
  permission?: {
    /** Any `requestId` answers the pending request. */
    anyId?: boolean;
    /** An answer with nothing pending gets 200. */
    nonePendingOk?: boolean;
    /** A non-boolean `approved` is read by JavaScript truthiness ("false" approves). */
    truthy?: boolean;
    /** A denial runs the tool all the same. */
    denyRuns?: boolean;
    /** The answer takes effect this long after its 200. */
    applyAfterMs?: number;
  };
  exit?: {
    /** POST /exit answers but the server goes on. */
    ignore?: boolean;
    /** POST /exit answers this status with no body. */
    emptyStatus?: number;
    /** GET /exit shuts down as POST does. */
    onGet?: boolean;
  };
  pause?: {
    ignore?: boolean;
    idleSuccess?: boolean;
  };
  routes?: {
    /** Unknown paths and wrong methods answer 200 `{}`. */
    unknownOk?: boolean;
  };
  cors?: {
    /** `Access-Control-Allow-Origin: *` on every answer, and preflights approved. */
    wildcard?: boolean;
  };
  /** After a 400 answer, GET /state shows `isProcessing:true` for this long (ms). */
  corruptAfterBadInputMs?: number;
}

/** Folds several records into one: transforms compose in order, flag groups merge. */
export const combineHooks: (list: readonly ContinueRemoteHooks[]) => ContinueRemoteHooks = hookFolder<ContinueRemoteHooks>({
  merge: ["options", "machine", "server", "message", "body", "permission", "exit", "pause", "routes", "cors"],
  last: ["corruptAfterBadInputMs"],
  compose: ["transformState", "transformText", "transformScenario", "transformAck", "transformAnswer"],
});
