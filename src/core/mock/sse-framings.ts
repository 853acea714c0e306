/**
 * The framings every SSE mock offers: each protocol-agnostic variant of core/sse-framing as a
 * framing record. A mock adds its own termination and payload variants after these. Browser-safe.
 */
import { SSE_FRAMINGS, type SseFramingVariant } from "../sse-framing.js";

export interface SseFramingRecord {
  name: string;
  description: string;
  sse: SseFramingVariant;
  /** Least pause between the writes of one event (ms), whatever the configured gap. */
  minChunkGap?: number;
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
