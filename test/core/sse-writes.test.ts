/** A mock's planned SSE writes are the framer's writes, whatever shortcut a framing takes. */
import { describe, expect, it } from "vitest";
import { planSseWrites } from "../../src/core/mock/sse-writes.js";
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
});
