/**
 * The SSE tokeniser alone (raw lines and WHATWG events from one pass) vs the least an SSE reader
 * does: a streaming decode and a split on "\n\n". Two read sizes: one event per read, as a paced
 * stream arrives, and 64 KiB reads holding hundreds of events, as a fast server's coalesced writes
 * arrive (where a per-line rescan of the read would show).
 */
import { SseReader } from "../dist/core/transport/sse-reader.js";
import { quick } from "./common.js";

const enc = new TextEncoder();

function coalesce(events, size) {
  const all = enc.encode(events.join(""));
  const out = [];
  for (let i = 0; i < all.length; i += size) out.push(all.subarray(i, i + size));
  return out;
}

function kitRate(chunks, events) {
  let seen = 0;
  const t0 = performance.now();
  const reader = new SseReader("p", "x1", "l", (e) => {
    if (e.kind === "sse-event") seen++;
  });
  chunks.forEach((c, i) => reader.push(c, i));
  reader.end();
  const ms = performance.now() - t0;
  if (seen !== events) throw new Error(`sse tokeniser: ${seen} of ${events} events`);
  return (events / ms) * 1000;
}

function baseRate(chunks, events) {
  let seen = 0;
  let tail = "";
  const dec = new TextDecoder();
  const t0 = performance.now();
  for (const c of chunks) {
    const parts = (tail + dec.decode(c, { stream: true })).split("\n\n");
    tail = parts.pop();
    for (const p of parts) if (p.startsWith("data: ")) seen++;
  }
  const ms = performance.now() - t0;
  if (seen !== events) throw new Error(`sse baseline: ${seen} of ${events} events`);
  return (events / ms) * 1000;
}

export async function benchSseTokeniser() {
  const n = quick ? 50_000 : 200_000;
  const events = [];
  for (let i = 0; i < n; i++) events.push(`data: {"choices":[{"index":0,"delta":{"content":"tok${i} é 漢 🙂"},"finish_reason":null}]}\n\n`);
  const rows = [];
  for (const [name, chunks] of [
    ["one event per read", events.map((e) => enc.encode(e))],
    ["64 KiB reads", coalesce(events, 64 * 1024)],
  ]) {
    kitRate(chunks, n);
    baseRate(chunks, n);
    rows.push({ name: `SSE tokeniser events/s (${name})`, kit: kitRate(chunks, n), base: baseRate(chunks, n), baseName: "decode + split on \\n\\n" });
  }
  return rows;
}
