/**
 * What a fault or a framing may change, as optional hooks and flags. The engine applies whichever
 * the active records carry, so adding a fault means adding a record, not a branch in the engine.
 *
 * Levels, from the request to the bytes:
 *   auth / input / models / errorBody          how a request is accepted or refused
 *   transformAnswer                           the decided answer (calls, names, arguments, text)
 *   transformSteps                            the stream's events (chunks, sentinel, extras)
 *   sse / pacing / transformChunks            framing, timing and the body writes
 *   transformCompletion / syncContentType     the non-streamed body
 */
import { firstReason, hookFolder } from "../../core/mock/hooks.js";
import type { SseStreamHooks } from "../../core/mock/sse-framings.js";
import type { Answer } from "./answer.js";
import type { Envelope } from "./chunks.js";
import type { ApiError } from "./errors.js";
import type { OpenaiChatPacing } from "./pacing.js";
import type { ChatRequest } from "./request.js";
import type { AnswerContext } from "./rules.js";
import type { Json, Step } from "./steps.js";
import type { UsageMeter } from "./usage.js";

export interface StreamContext {
  request: ChatRequest;
  /** The answer being streamed (its text iterable belongs to the generator: do not iterate it). */
  answer: Answer;
  includeUsage: boolean;
  /** The request ends with tool results. */
  followUp: boolean;
  env: Envelope;
  meter: UsageMeter;
  /** Seeded randomness. */
  random: () => number;
  /** A chunk in this stream's envelope. */
  chunk(delta: Json, finish?: string | null): Json;
  /** The usage chunk with the counts so far. */
  usageChunk(): Json;
}

export interface CompletionContext {
  request: ChatRequest;
  answer: Answer;
  followUp: boolean;
}

export type StepsHook = (steps: Iterable<Step>, ctx: StreamContext) => Iterable<Step>;
export type AnswerHook = (answer: Answer, ctx: AnswerContext) => Answer;

export interface StreamHooks extends SseStreamHooks {
  /** Pacing that wins over every other layer. */
  pacing?: Partial<OpenaiChatPacing>;
  transformSteps?: StepsHook;
}

export interface RequestHooks {
  auth?: {
    /** With an API key configured, requests without Authorization are answered anyway. */
    acceptMissing?: boolean;
    /** With an API key configured, any bearer key is accepted. */
    acceptAnyKey?: boolean;
  };
  input?: {
    /** Invalid requests are answered as if they asked for plain text. */
    lenient?: boolean;
    /** Status for malformed JSON (the body stays an ErrorResponse). */
    malformedStatus?: number;
    /** Replaces the status and body of every bad-input error. */
    badInput?: (e: ApiError) => { status: number; body: unknown };
    /** Refuses single messages (400). */
    rejectMessage?: (message: Json, index: number) => string | null;
    /** 406 for `stream: true` when Accept lacks text/event-stream. */
    requireStreamAccept?: boolean;
  };
  /** An unknown model with `stream: true` gets a 200 stream carrying the error. */
  unknownModelAsStream?: boolean;
  transformModels?: (body: Json) => unknown;
  /** The body of every error response. */
  errorBody?: (e: ApiError) => unknown;
  transformAnswer?: AnswerHook;
  transformCompletion?: (body: Json, ctx: CompletionContext) => Json;
  /** Content-Type of non-streamed completions. */
  syncContentType?: string;
}

export interface Hooks extends StreamHooks, RequestHooks {}

/** Folds several records into one: transforms compose in order, flags and overrides merge. */
export const combineHooks: (list: readonly Hooks[]) => Hooks = hookFolder<Hooks>({
  merge: ["sse", "pacing", "auth"],
  last: ["unknownModelAsStream", "streamContentType", "syncContentType", "errorBody"],
  compose: ["transformModels", "transformAnswer", "transformSteps", "transformChunks", "transformCompletion"],
  // Message refusals all apply: the first reason given wins.
  custom(out, h) {
    if (!h.input) return;
    const rejectMessage = firstReason(out.input?.rejectMessage, h.input.rejectMessage);
    out.input = { ...out.input, ...h.input, ...(rejectMessage ? { rejectMessage } : {}) };
  },
});
