/** The recording HTTP client reading a plain (non-stream) answer: the whole body is the text the checks parse. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { exchange } from "../../src/core/transport/http-exchange.js";
import { TranscriptBus, type TranscriptEvent } from "../../src/core/transcript/transcript.js";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function serveJson(body: string): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    // In pieces, as a large answer arrives.
    for (let i = 0; i < body.length; i += 64 * 1024) res.write(body.slice(i, i + 64 * 1024));
    res.end();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/state`;
}

async function get(url: string, maxBytes?: number) {
  const bus = new TranscriptBus();
  const events: TranscriptEvent[] = [];
  bus.subscribe((e) => events.push(e));
  const result = await exchange(bus, { probe: "p", label: "l", method: "GET", url, timeouts: { headers: 5000, total: 30_000, close: 2000 }, ...(maxBytes !== undefined ? { maxBytes } : {}) });
  return { result, end: events.find((e) => e.kind === "body-end") as Extract<TranscriptEvent, { kind: "body-end" }> };
}

async function serveEncoded(encoding: string, body: Buffer): Promise<string> {
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-encoding": encoding });
    res.end(body);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/state`;
}

describe("http-exchange: a plain answer", () => {
  it.each([
    ["gzip", gzipSync],
    ["br", brotliCompressSync],
    ["deflate", deflateSync],
    // Raw deflate sent as "deflate": a fetch reads it too.
    ["deflate", deflateRawSync],
  ] as const)("reads a %s body as a client's fetch does", async (encoding, compress) => {
    const body = JSON.stringify({ isProcessing: false, messages: [] });
    const { result } = await get(await serveEncoded(encoding, compress(Buffer.from(body))));
    expect(result.text).toBe(body);
    expect(result.json).toEqual({ isProcessing: false, messages: [] });
  });

  it("does not unpack a compressed body past the byte limit, and ends it at the kit's limit", async () => {
    const { result, end } = await get(await serveEncoded("gzip", gzipSync(Buffer.alloc(5_000_000))), 100_000);
    // Not the coded bytes read as text, which the rules would judge as the server's answer.
    expect(result.text).toBeUndefined();
    expect(end.reason).toBe("limit");
    expect(end.error).toContain("gzip coding decodes to more than the 100000 bytes");
  });


  it("keeps a JSON body over a mebibyte whole, so it parses (a real /state with large tool output)", async () => {
    const body = JSON.stringify({ messages: [{ role: "tool", content: "x".repeat(1_300_000) + "é" }], isProcessing: false });
    const { result, end } = await get(await serveJson(body));
    expect(end.reason).toBe("eof");
    expect(end.text).toBe(body);
    expect(JSON.parse(result.text!)).toMatchObject({ isProcessing: false });
  });

  it("a body past the byte limit ends as limit, not as a shorter body", async () => {
    const { end } = await get(await serveJson(JSON.stringify({ pad: "y".repeat(300_000) })), 100_000);
    expect(end.reason).toBe("limit");
  });
});
