/**
 * The recording HTTP client reading a content-coded stream: the SSE reader reads the decoded text, as a fetch does,
 * while body-chunk events keep the bytes as sent; the byte limit bounds the decoded body too.
 */
import http from "node:http";
import { brotliCompressSync, constants, createDeflateRaw, createGzip, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { exchange } from "../../src/core/transport/http-exchange.js";
import { readStream, streamServers } from "../helpers/stream-server.js";

const { serve: serveWith } = streamServers();
/** A stream coded as `coding` says (the writer codes it). */
const serve = (coding: string, write: (res: http.ServerResponse) => void) => serveWith(write, { "content-encoding": coding });
const read = readStream;

const STREAM = 'data: {"type":"text","content":"héllo"}\n\ndata: [DONE]\n\n';

describe("http-exchange: a content-coded stream", () => {
  it("reads a gzip stream flushed event by event as its decoded events, attributed to the coded chunks that brought them", async () => {
    const url = await serve("gzip", (res) => {
      const gz = createGzip({ flush: constants.Z_SYNC_FLUSH });
      gz.pipe(res);
      gz.write('data: {"type":"text","content":"héllo"}\n\n');
      setTimeout(() => gz.end("data: [DONE]\n\n"), 30);
    });
    const { result, events, end } = await read(url);
    expect(result.events).toEqual(['{"type":"text","content":"héllo"}', "[DONE]"]);
    expect(end).toMatchObject({ reason: "eof" });
    const chunks = events.filter((e) => e.kind === "body-chunk");
    // As sent: the gzip header's magic bytes open the first chunk.
    expect(chunks[0]!.kind === "body-chunk" && [...chunks[0]!.bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const sse = events.filter((e) => e.kind === "sse-event");
    // The second event was written 30 ms after the first: it came out of a later coded chunk.
    const at = sse.map((e) => (e.kind === "sse-event" ? e.chunk : -1));
    expect(at[0]).toBe(0);
    expect(at[1]).toBeGreaterThan(0);
  });

  it.each([
    ["deflate", deflateSync(STREAM)],
    ["br", brotliCompressSync(STREAM)],
    ["x-gzip", gzipSync(STREAM)],
  ])("reads a %s stream as its decoded events", async (coding, body) => {
    const url = await serve(coding, (res) => res.end(body));
    const { result, end } = await read(url);
    expect(result.events).toEqual(['{"type":"text","content":"héllo"}', "[DONE]"]);
    expect(end).toMatchObject({ reason: "eof" });
  });

  it("reads raw deflate data sent as deflate, as a fetch does", async () => {
    const url = await serve("deflate", (res) => {
      const d = createDeflateRaw();
      d.pipe(res);
      d.end(STREAM);
    });
    expect((await read(url)).result.events).toEqual(['{"type":"text","content":"héllo"}', "[DONE]"]);
  });

  it("keeps what decoded of a gzip body cut before its trailer, as a fetch does", async () => {
    const whole = gzipSync(STREAM);
    const url = await serve("gzip", (res) => res.end(whole.subarray(0, whole.length - 8)));
    const { result, end } = await read(url);
    expect(result.events).toEqual(['{"type":"text","content":"héllo"}', "[DONE]"]);
    expect(end).toMatchObject({ reason: "eof" });
  });

  it("ends a small body that unpacks past the byte limit at the kit's limit", async () => {
    const event = `data: ${JSON.stringify({ type: "text", content: "a".repeat(60_000) })}\n\n`;
    const bomb = gzipSync(event.repeat(200));
    const url = await serve("gzip", (res) => res.end(bomb));
    const { result, end } = await read(url, 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(result.bytes).toBe(bomb.length);
    expect(end).toMatchObject({ reason: "limit", error: `the gzip-coded body decodes to more than the ${1024 * 1024} bytes the kit reads; reading stopped there` });
    expect(result.events.length).toBeLessThan(20);
  });

  it("ends a body whose coding breaks with the error, naming the coding", async () => {
    const url = await serve("gzip", (res) => res.end(Buffer.from("data: not gzip at all\n\n")));
    const { result, end } = await read(url);
    expect(result.events).toEqual([]);
    expect(end).toMatchObject({ reason: "error" });
    expect(end?.kind === "body-end" && end.error).toMatch(/^the body's gzip coding does not decode after \d+ coded byte\(s\): /);
  });
});
