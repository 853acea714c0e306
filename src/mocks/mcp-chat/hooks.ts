/**
 * What a fault or a framing may change, as optional hooks and flags. The engine applies whichever
 * the active records carry, so adding a fault means adding a record, not a branch in the engine.
 */
import type { SseFormat } from "../../core/sse-framing.js";
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
export interface Chunk {
  bytes: Uint8Array;
  delay: number;
}

export type ChunkTransform = (chunks: Iterable<Chunk>) => Iterable<Chunk>;
export type Json = Record<string, unknown>;

export interface HookContext {
  state: ConnectionState;
  servers: readonly McpServerEntry[];
}

export interface StreamHooks {
  /** Overrides single fields of the SSE format (line end, prefix, chunking...). */
  sse?: Partial<SseFormat>;
  timing?: Partial<McpChatTiming>;
  /** Rewrites the answer's steps. Faults skip refusals (not-connected); framings do not. */
  transformEvents?: StepTransform;
  /** Rewrites the body writes (splitting, buffering). */
  transformChunks?: ChunkTransform;
  /** Content-Type of a stream instead of text/event-stream. */
  streamContentType?: string;
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

/** Runs `a` then `b` on the same extra arguments; either may be absent. */
function chain<T, A extends unknown[]>(
  a: ((x: T, ...rest: A) => T) | undefined,
  b: ((x: T, ...rest: A) => T) | undefined,
): ((x: T, ...rest: A) => T) | undefined {
  if (!a || !b) return a ?? b;
  return (x, ...rest) => b(a(x, ...rest), ...rest);
}

/** Folds several records into one: transforms compose in order, flags and overrides merge. */
export function combineHooks(list: readonly Hooks[]): Hooks {
  const out: Hooks = {};
  for (const h of list) {
    if (h.sse) out.sse = { ...out.sse, ...h.sse };
    if (h.timing) out.timing = { ...out.timing, ...h.timing };
    if (h.state) out.state = { ...out.state, ...h.state };
    if (h.cors) out.cors = { ...out.cors, ...h.cors };
    if (h.chat) out.chat = { ...out.chat, ...h.chat };
    out.scenario = h.scenario ?? out.scenario;
    out.streamContentType = h.streamContentType ?? out.streamContentType;
    out.errorBody = h.errorBody ?? out.errorBody;
    out.transformEvents = chain(out.transformEvents, h.transformEvents);
    out.transformChunks = chain(out.transformChunks, h.transformChunks);
    out.transformServers = chain(out.transformServers, h.transformServers);
    out.transformConnect = chain(out.transformConnect, h.transformConnect);
    out.transformStatus = chain(out.transformStatus, h.transformStatus);
    out.transformDisconnect = chain(out.transformDisconnect, h.transformDisconnect);
    out.transformChatSync = chain(out.transformChatSync, h.transformChatSync);
    out.transformTools = chain(out.transformTools, h.transformTools);
  }
  return out;
}
