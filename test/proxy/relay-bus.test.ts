/**
 * The proxy's bus: relayed chunks are judged after the relay's turn, stamped when they arrived,
 * in the order the traffic had, and never pile up without bound.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SseReader } from "../../src/core/transport/sse-reader.js";
import { readTranscript, type TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { startProxy } from "../../src/proxy/index.js";
import { BATCH_AT, JUDGE_AFTER_MS, RelayBus } from "../../src/proxy/relay-bus.js";

const enc = new TextEncoder();
const nextTurn = () => new Promise<void>((r) => setImmediate(r));
/** Past the wait a queued chunk has before its batch is judged. */
const batchDue = () => new Promise<void>((r) => setTimeout(r, JUDGE_AFTER_MS + 5));
const busyFor = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

function recorded() {
  const bus = new RelayBus();
  const seen: TranscriptEvent[] = [];
  bus.subscribe((ev) => seen.push(ev));
  const reader = new SseReader("proxy", "p1", "chat", (ev) => bus.emit(ev));
  let index = 0;
  const chunk = (text: string) => bus.chunk({ kind: "body-chunk", probe: "proxy", exchange: "p1", label: "chat", index: index++, bytes: enc.encode(text) }, reader);
  return { bus, seen, chunk };
}

describe("RelayBus", () => {
  it("judges a chunk after the relay's turn, its lines and event stamped with the chunk's arrival", async () => {
    const { bus, seen, chunk } = recorded();
    const before = bus.emit({ kind: "note", probe: "proxy", name: "first", value: 1 });
    // Nothing queued: an event goes out at once.
    expect(seen).toEqual([before]);
    chunk('data: {"a":1}\n\n');
    expect(seen.length).toBe(1);
    busyFor(40);
    await batchDue();
    expect(seen.map((e) => e.kind)).toEqual(["note", "body-chunk", "sse-line", "sse-line", "sse-event"]);
    const [, ...fromChunk] = seen;
    expect(new Set(fromChunk.map((e) => e.t)).size).toBe(1);
    // Stamped when it came, not when it was judged 40 ms later.
    expect(fromChunk[0]!.t - seen[0]!.t).toBeLessThan(20);
    expect(seen.map((e) => e.seq)).toEqual([0, 1, 2, 3, 4]);
  });

  it("an event handed over while chunks wait comes after them, in the order given", async () => {
    const { bus, seen, chunk } = recorded();
    chunk("data: one\n\n");
    bus.emit({ kind: "note", probe: "proxy", name: "between", value: 1 });
    chunk("data: two\n\n");
    expect(seen).toEqual([]);
    await batchDue();
    const order = seen.map((e) => (e.kind === "sse-event" ? `event ${e.data}` : e.kind === "note" ? "note" : e.kind === "body-chunk" ? `chunk ${e.index}` : undefined)).filter(Boolean);
    expect(order).toEqual(["chunk 0", "event one", "note", "chunk 1", "event two"]);
  });

  it("a request or an answer's head handed over with `later` waits for the batch too, in order", async () => {
    const { bus, seen, chunk } = recorded();
    bus.later({ kind: "http-response", probe: "proxy", exchange: "p1", label: "chat", status: 200, headers: {} });
    chunk("data: one\n\n");
    expect(seen).toEqual([]);
    await batchDue();
    expect(seen.map((e) => e.kind)).toEqual(["http-response", "body-chunk", "sse-line", "sse-line", "sse-event"]);
  });

  it("a paced stream's chunks wait for each other and are judged together, in order; a full batch goes on the next turn", async () => {
    const { seen, chunk } = recorded();
    const events = () => seen.filter((e) => e.kind === "sse-event").map((e) => (e as { data: string }).data);
    chunk("data: 0\n\n");
    await nextTurn();
    chunk("data: 1\n\n");
    await nextTurn();
    // Judged one by one, each event would have been judged alone on a cold core.
    expect(events()).toEqual([]);
    await batchDue();
    expect(events()).toEqual(["0", "1"]);
    for (let i = 0; i < BATCH_AT; i++) chunk(`data: ${i}\n\n`);
    await nextTurn();
    expect(events().length).toBe(2 + BATCH_AT);
  });

  it("drain judges what waits at once (before an exchange's end and before verdicts)", () => {
    const { bus, seen, chunk } = recorded();
    chunk("data: one\n\n");
    bus.drain();
    expect(seen.map((e) => e.kind)).toEqual(["body-chunk", "sse-line", "sse-line", "sse-event"]);
  });

  it("a flood is judged at once past the cap: the queue does not grow with the stream", () => {
    const { seen, chunk } = recorded();
    for (let i = 0; i < 10_000; i++) chunk("data: x\n\n");
    // Drained each time the queue passed its cap; what waits is less than one cap's worth.
    const chunks = seen.filter((e) => e.kind === "body-chunk").length;
    expect(chunks).toBeGreaterThan(5_000);
    expect(10_000 - chunks).toBeLessThan(4_100);
  });

  it("a long batch stops to let the sockets have a turn, then goes on in order", async () => {
    const { bus, seen, chunk } = recorded();
    bus.subscribe((ev) => void (ev.kind === "body-chunk" && busyFor(0.2)));
    for (let i = 0; i < 200; i++) chunk(`data: ${i}\n\n`);
    await nextTurn();
    const first = seen.filter((e) => e.kind === "sse-event").length;
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(200);
    while (seen.filter((e) => e.kind === "sse-event").length < 200) await nextTurn();
    expect(seen.filter((e) => e.kind === "sse-event").map((e) => (e as { data: string }).data)).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
  });

  it("through the proxy: the transcript keeps the traffic's order, each chunk's lines and events at its time", async () => {
    const target = http.createServer(async (req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const text of ["one", "two", "three"]) {
        res.write(`data: {"type":"text","content":"${text}"}\n\n`);
        await new Promise((r) => setTimeout(r, 15));
      }
      res.end("data: [DONE]\n\n");
    });
    await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
    const dir = mkdtempSync(join(tmpdir(), "agentwire-relay-bus-"));
    try {
      const proxy = await startProxy({ protocol: "mcp-chat", target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, saveTranscript: dir });
      for (let i = 0; i < 2; i++) await (await fetch(`${proxy.url}/chat/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"message":"hi"}' })).text();
      const result = await proxy.close();
      const { events } = readTranscript(readFileSync(result.server!.transcript!, "utf8"));
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
      for (const exchange of ["p1", "p2"]) {
        const own = events.filter((e) => "exchange" in e && e.exchange === exchange);
        const kinds = own.map((e) => e.kind).filter((k) => k !== "sse-line");
        expect(kinds[0]).toBe("http-request");
        expect(kinds[1]).toBe("http-response");
        expect(kinds.at(-1)).toBe("body-end");
        expect(own.filter((e) => e.kind === "sse-event").map((e) => (e as { data: string }).data)).toEqual(["one", "two", "three", "[DONE]"].map((t) => (t.startsWith("[") ? t : `{"type":"text","content":"${t}"}`)));
        // Every line and event follows its chunk, stamped with the chunk's arrival.
        let chunk: TranscriptEvent | undefined;
        for (const e of own) {
          if (e.kind === "body-chunk") chunk = e;
          else if (e.kind === "sse-line" || e.kind === "sse-event") expect([e.kind, e.t]).toEqual([e.kind, chunk!.t]);
        }
      }
    } finally {
      target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
