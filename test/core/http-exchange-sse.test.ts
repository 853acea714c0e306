/** The recording HTTP client reading SSE: standard parsing on the wire, and a bounded line. */
import { describe, expect, it } from "vitest";
import { exchange, MAX_LINE_BYTES } from "../../src/core/transport/http-exchange.js";
import { TranscriptBus, type TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { readStream, streamServers } from "../helpers/stream-server.js";

/** A server answering every request with an event stream that `write` writes. */
const { serve } = streamServers();
const read = readStream;

describe("http-exchange: SSE on the wire", () => {
  it("reads a BOM-prefixed, CR-only stream written in pieces as a browser does", async () => {
    const url = await serve((res) => {
      const pieces = ["\uFEFFdata: a\r", "\rdata: [DO", "NE]\r\r"];
      let i = 0;
      const next = () => (i < pieces.length ? res.write(pieces[i++], () => setTimeout(next, 20)) : res.end());
      next();
    });
    const { result, events } = await read(url);
    expect(result.events).toEqual(["a", "[DONE]"]);
    expect(result.endReason).toBe("eof");
    const lines = events.filter((e) => e.kind === "sse-line").map((e) => (e.kind === "sse-line" ? [e.line, e.eol] : []));
    expect(lines).toEqual([["data: a", "\r"], ["", "\r"], ["data: [DONE]", "\r"], ["", "\r"]]);
  });

  it("sees [DONE] at the CR that ends it, so the close timeout runs while the body stays open", async () => {
    const url = await serve((res) => res.write("data: a\r\rdata: [DONE]\r\r"));
    const bus = new TranscriptBus();
    const t0 = performance.now();
    const result = await exchange(bus, {
      probe: "p",
      label: "l",
      method: "POST",
      url,
      body: "{}",
      stream: true,
      timeouts: { headers: 5000, total: 20_000, close: 200 },
      isTerminal: (d) => d === "[DONE]",
    });
    expect(result.events).toEqual(["a", "[DONE]"]);
    expect(result.endReason).toBe("close-timeout");
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it("stops at the line cap when a line never ends, instead of buffering it", async () => {
    const piece = Buffer.alloc(256 * 1024, 0x61);
    let sent = 0;
    const url = await serve((res) => {
      res.write("data: ok\n\ndata: ");
      // Up to 1 GiB with no newline; the writes stop when the kit hangs up.
      const pump = () => {
        while (sent < 1024 ** 3 && !res.destroyed) {
          sent += piece.length;
          if (!res.write(piece)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (sent = Infinity));
      pump();
    });
    const { result, events } = await read(url, Number.MAX_SAFE_INTEGER);
    expect(result.endReason).toBe("limit");
    expect(result.events).toEqual(["ok"]);
    expect(result.bytes).toBeLessThan(MAX_LINE_BYTES + 4 * 1024 * 1024);
    const end = events.find((e) => e.kind === "body-end");
    expect(end).toMatchObject({ reason: "limit", error: `an SSE line is longer than ${MAX_LINE_BYTES} characters; reading stopped there` });
    // The cut line is not reported as a line; the complete ones are.
    expect(events.filter((e) => e.kind === "sse-line")).toHaveLength(2);
  });

  it("caps a line at the body cap when that is smaller", async () => {
    const url = await serve((res) => res.end(`data: ${"a".repeat(300_000)}\n\n`));
    const { result, events } = await read(url, 100_000);
    expect(result.endReason).toBe("limit");
    expect(events.find((e) => e.kind === "body-end")).toMatchObject({ error: "an SSE line is longer than 100000 characters; reading stopped there" });
  });

  it("keeps the first payloads of a stream in the result, up to 64 KiB of them", async () => {
    const data = Array.from({ length: 20 }, (_, i) => String(i % 10).repeat(10_000));
    const url = await serve((res) => res.end(`${data.map((d) => `data: ${d}\n\n`).join("")}data: [DONE]\n\n`));
    const { result, events } = await read(url);
    expect(events.filter((e) => e.kind === "sse-event")).toHaveLength(21);
    // Six payloads fit in 64 KiB; the seventh, and all after it, are left to the bus.
    expect(result.events).toEqual(data.slice(0, 6));
  });

  it("stamps a chunk's lines and events with the chunk's time, and later chunks with later times", async () => {
    const url = await serve((res) => {
      res.write("data: a\n\ndata: b\n\n");
      setTimeout(() => res.end("data: [DONE]\n\n"), 30);
    });
    const { events } = await read(url);
    const chunks = events.filter((e) => e.kind === "body-chunk");
    expect(chunks).toHaveLength(2);
    for (const c of chunks) {
      const index = c.kind === "body-chunk" ? c.index : -1;
      const fromIt = events.filter((e) => (e.kind === "sse-line" && e.chunkEnd === index) || (e.kind === "sse-event" && e.chunk === index));
      expect(fromIt.length).toBeGreaterThan(0);
      for (const e of fromIt) expect(e.t).toBe(c.t);
    }
    expect(chunks[1]!.t).toBeGreaterThan(chunks[0]!.t);
    // Sequence numbers still follow the order of emission.
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i));
  });

  it("re-arms the idle timeout on every chunk and still ends a stream that goes silent", async () => {
    const url = await serve((res) => {
      let n = 0;
      // Chunks every 60 ms for over twice the 250 ms idle limit, then silence.
      const tick = () => {
        if (res.destroyed) return;
        res.write(`data: ${n}\n\n`);
        if (++n < 10) setTimeout(tick, 60);
      };
      tick();
    });
    const bus = new TranscriptBus();
    const result = await exchange(bus, {
      probe: "p",
      label: "l",
      method: "POST",
      url,
      body: "{}",
      stream: true,
      timeouts: { headers: 5000, total: 20_000, idle: 250 },
    });
    expect(result.events).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    expect(result.endReason).toBe("idle-timeout");
  });
});

