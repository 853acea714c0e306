/** A mock's planned SSE writes are the framer's writes, whatever shortcut a framing takes. */
import { describe, expect, it } from "vitest";
import { planSseWrites, type PayloadBytes } from "../../src/core/mock/sse-writes.js";
import { renderSse, sseFormat, SSE_FRAMINGS, type SsePayload } from "../../src/core/transport/sse-framing.js";

const PAYLOADS: SsePayload[] = [
  '{"a":"é 漢 🙂","b":[1,2]}',
  "plain text",
  "",
  "two\nlines",
  new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
  '{"last":true}',
  "[DONE]",
];

describe("planSseWrites", () => {
  it.each(SSE_FRAMINGS.map((f) => f.name))("%s: the framer's bytes, write for write", (name) => {
    const variant = SSE_FRAMINGS.find((f) => f.name === name)!;
    const planned = [
      ...planSseWrites({ steps: PAYLOADS, format: sseFormat(variant), seed: 7, payload: (p) => p, wait: () => 0, jitter: 0, chunkGap: 0 }),
    ].map((c) => Array.from(c.bytes));
    const framed = renderSse(PAYLOADS, variant, { seed: 7 }).map((b) => Array.from(b));
    expect(planned).toEqual(framed);
  });

  it.each(SSE_FRAMINGS.map((f) => f.name))("%s: payloads also given as byte pieces give the framer's bytes, write for write", (name) => {
    const variant = SSE_FRAMINGS.find((f) => f.name === name)!;
    const enc = new TextEncoder();
    // Two heads and tails, as two streams' envelopes: each event's pieces are its own.
    const shared = [0, 1].map((k) => ({ head: enc.encode(`{"k":${k},"v":`), tail: enc.encode(`,"end":${k}}`) }));
    const texts = ['"é 漢 🙂"', "1", '""', '"two\\nlines"', "[]"];
    const steps = texts.map((t, i) => ({ text: `{"k":${i % 2},"v":${t},"end":${i % 2}}`, bytes: { ...shared[i % 2]!, body: enc.encode(t) } as PayloadBytes }));
    const withBytes = [
      ...planSseWrites({ steps, format: sseFormat(variant), seed: 7, payload: (s) => s.text, payloadBytes: (s) => s.bytes, wait: () => 0, jitter: 0, chunkGap: 0 }),
    ].map((c) => Array.from(c.bytes));
    const framed = renderSse(steps.map((s) => s.text), variant, { seed: 7 }).map((b) => Array.from(b));
    expect(withBytes).toEqual(framed);
  });
});
