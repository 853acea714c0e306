/**
 * The framings every SSE mock offers: each protocol-agnostic variant of core/sse-framing as a
 * framing record. A mock adds its own termination and payload variants after these. Browser-safe.
 */
import type { NamedItem } from "../run/protocol.js";
import { SSE_FRAMINGS, type SseFormat, type SseFramingVariant } from "../transport/sse-framing.js";
import type { ChunkTransform } from "./sse-writes.js";

/** What a fault or a framing may change of any SSE stream; a mock adds its own step hooks. */
export interface SseStreamHooks {
  /** Overrides single fields of the SSE format (line end, prefix, chunking...). */
  sse?: Partial<SseFormat>;
  /** Rewrites the body writes (splitting, buffering). */
  transformChunks?: ChunkTransform;
  /** Content-Type of a stream instead of text/event-stream. */
  streamContentType?: string;
}

export interface SseMockFraming extends NamedItem, SseStreamHooks {
  /** Least pause between the writes of one event (ms), whatever the configured gap. */
  minChunkGap?: number;
}

export interface SseFramingRecord extends SseMockFraming {
  sse: SseFramingVariant;
}

/**
 * Framings that cut one event into several writes. Writes with no pause between them coalesce into
 * one TCP read, which would hide the very split a client is tested on: give them at least 1 ms.
 */
const MIN_SPLIT_GAP_MS = 1;

export const DEFAULT_SSE_FRAMING = "canonical";

export function sseFramingRecords(): SseFramingRecord[] {
  return SSE_FRAMINGS.map((v) => ({
    name: v.name,
    description: v.description,
    sse: v,
    ...(v.chunking !== undefined && v.chunking !== "event" && v.chunking !== "whole" ? { minChunkGap: MIN_SPLIT_GAP_MS } : {}),
  }));
}
