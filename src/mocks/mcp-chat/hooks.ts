/**
 * What a fault or a framing may change, as optional hooks and flags. The engine applies whichever
 * the active records carry, so adding a fault means adding a record, not a branch in the engine.
 */
import { hookFolder } from "../../core/mock/hooks.js";
import type { ChunkTransform as CoreChunkTransform } from "../../core/mock/sse-writes.js";
import type { TimedChunk } from "../../core/mock/paced-body.js";
import type { SseStreamHooks } from "../../core/mock/sse-framings.js";
import type { StepTransform } from "./events.js";
import type { McpServerEntry } from "./registry.js";
import type { ConnectionState } from "./state.js";

/** Timing knobs in milliseconds (see options.ts for defaults). */
export interface McpChatTiming {
  headersDelay: number;
  firstEventDelay: number;
  eventDelay: number;
  toolDuration: number;
  closeDelay: number;
  jitter: number;
  /** Between the writes of one event when a framing cuts it (split-*). */
  chunkGap: number;
}

/** One body write and the pause before it. */
export type Chunk = TimedChunk;

export type ChunkTransform = CoreChunkTransform;
export type Json = Record<string, unknown>;

export interface HookContext {
  state: ConnectionState;
  servers: readonly McpServerEntry[];
}

export interface StreamHooks extends SseStreamHooks {
  timing?: Partial<McpChatTiming>;
  /** Rewrites the answer's steps. Faults skip refusals (not-connected); framings do not. */
  transformEvents?: StepTransform;
}

export interface HttpHooks {
  /** Replaces the scenario of an answer. */
  scenario?: string;
  transformServers?: (list: Json[]) => Json[];
  transformConnect?: (body: Json) => Json;
  transformStatus?: (body: Json, ctx: HookContext) => Json;
  transformDisconnect?: (body: Json) => Json;
  /** Tools as connect and status report them. */
  transformTools?: (tools: Json[]) => Json[];
  transformChatSync?: (body: Json) => Json;
  /** The body of every 4xx/5xx. */
  errorBody?: (detail: string, status: number) => unknown;
  state?: {
    acceptUnknownIds?: boolean;
    dropStateOnUnknownId?: boolean;
    /** Status for connecting the already connected id (instead of a 200 no-op). */
    reconnectStatus?: number;
    disconnectKeepsState?: boolean;
    /** Status for a disconnect while disconnected (instead of 200). */
    idleDisconnectStatus?: number;
  };
  cors?: {
    /** Status for every OPTIONS instead of a preflight answer. */
    preflightStatus?: number;
    omitOnStream?: boolean;
    wildcard?: boolean;
    reflectAny?: boolean;
  };
  chat?: {
    acceptBadInput?: boolean;
    answerWhileDisconnected?: boolean;
  };
}

export interface Hooks extends StreamHooks, HttpHooks {}

/** Folds several records into one: transforms compose in order, flags and overrides merge. */
export const combineHooks: (list: readonly Hooks[]) => Hooks = hookFolder<Hooks>({
  merge: ["sse", "timing", "state", "cors", "chat"],
  last: ["scenario", "streamContentType", "errorBody"],
  compose: [
    "transformEvents",
    "transformChunks",
    "transformServers",
    "transformConnect",
    "transformStatus",
    "transformDisconnect",
    "transformChatSync",
    "transformTools",
  ],
});
