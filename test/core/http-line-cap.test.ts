/**
 * A stream that never ends its line costs the kit bounded memory: the SSE readers hold the line in
 * progress, so the exchange stops at MAX_LINE_BYTES (reason "limit") instead of buffering up to
 * its byte cap, however long the line would go on.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchange, MAX_LINE_BYTES } from "../../src/core/transport/http-exchange.js";
import { TranscriptBus } from "../../src/core/transcript/transcript.js";

const GIB = 1024 * 1024 * 1024;
let server: http.Server;
let url: string;

beforeAll(async () => {
  const chunk = Buffer.alloc(64 * 1024, 97);
  server = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: ");
    // 1 GiB of one line, written as the client reads it.
    let sent = 0;
    const pump = () => {
      while (sent < GIB && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("an endless SSE line", () => {
  it("is cut at the line cap, far below the byte cap, with the reason recorded", async () => {
    const bus = new TranscriptBus();
    const ends: { reason: string; error?: string }[] = [];
    bus.subscribe((e) => {
      if (e.kind === "body-end") ends.push(e);
    });
    let peak = 0;
    const before = process.memoryUsage().heapUsed;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed - before)), 5);
    const maxBytes = 256 * 1024 * 1024;
    const r = await exchange(bus, {
      probe: "p", label: "l", method: "GET", url, stream: true,
      timeouts: { headers: 5000, total: 60_000 }, maxBytes,
    });
    clearInterval(sampler);
    expect(r.endReason).toBe("limit");
    expect(r.bytes).toBeLessThanOrEqual(MAX_LINE_BYTES + 128 * 1024);
    expect(ends[0]?.error).toMatch(/line is longer than/);
    // The line is held twice (raw-line view and event parser): a few times the line cap at most.
    expect(peak).toBeLessThan(8 * MAX_LINE_BYTES);
    expect(peak).toBeLessThan(maxBytes / 4);
  });
});
