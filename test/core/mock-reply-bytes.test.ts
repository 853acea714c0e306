/**
 * The node server writes an engine's replies itself (no Fetch Request or Response); msw sends the
 * same replies as Responses. Each HTTP mock, served both ways (its `reply` written straight to
 * node, its fetch-style `handle` behind a Request and a Response), puts the same bytes on the wire:
 * status line, headers in the same order, the body's length or its chunk framing (only Date may differ).
 */
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { reply, toResponse, utf8Length, type MockReply } from "../../src/core/mock/exchange.js";
import { serveFetch, serveMock, type Served } from "../../src/core/mock/serve-fetch.js";
import type { TimedChunk } from "../../src/core/mock/paced-body.js";
import { PiecesChunk, TextChunk } from "../../src/core/mock/sse-writes.js";
import { createContinueRemoteEngine } from "../../src/mocks/continue-remote/engine.js";
import { createMcpChatEngine } from "../../src/mocks/mcp-chat/engine.js";
import { createOpenaiChatEngine } from "../../src/mocks/openai-chat/engine.js";

const served: Served[] = [];
afterAll(async () => {
  for (const s of served) await s.close();
});

/** Sends raw requests one after another on fresh connections; each answer's bytes, Date blanked. */
async function exchange(url: string, requests: string[]): Promise<string[]> {
  const { port } = new URL(url);
  const out: string[] = [];
  for (const request of requests) {
    out.push(
      await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), "127.0.0.1");
        let data = "";
        socket.on("data", (d) => (data += d.toString("latin1")));
        socket.on("end", () => resolve(data.replace(/^Date: .*\r\n/gm, "Date: -\r\n")));
        socket.on("error", reject);
        socket.write(request);
      }),
    );
  }
  return out;
}

const req = (method: string, path: string, headers: Record<string, string> = {}, body = ""): string =>
  [
    `${method} ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Connection: close",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
    "",
    body,
  ].join("\r\n");

const json = { "Content-Type": "application/json" };

/** Both ways of serving, each with a fresh engine made the same way. */
async function bothWays<E extends { reply: Parameters<typeof serveMock>[0]; handle: Parameters<typeof serveFetch>[0] }>(make: () => E) {
  const node = await serveMock(make().reply);
  const fetchStyle = await serveFetch(make().handle);
  served.push(node, fetchStyle);
  return { node: node.url, fetch: fetchStyle.url };
}

describe("an HTTP mock sends the same bytes from its node path as from its fetch path", () => {
  it("openai-chat: a streamed answer, a JSON answer, a 4xx error, a preflight", async () => {
    const urls = await bothWays(() => createOpenaiChatEngine({ ttftMs: 0, chunkDelayMs: 0, created: 1_700_000_000 }));
    const stream = JSON.stringify({ model: "agentwire-mock", stream: true, messages: [{ role: "user", content: "Say hello é 漢 🙂" }] });
    const long = JSON.stringify({ model: "agentwire-mock", stream: true, messages: [{ role: "user", content: "!scenario long-stream" }] });
    const requests = [
      req("POST", "/v1/chat/completions", json, stream),
      req("POST", "/v1/chat/completions", json, long),
      req("GET", "/v1/models"),
      req("POST", "/v1/chat/completions", json, "{not json"),
      req("OPTIONS", "/v1/chat/completions", { Origin: "http://localhost:3000", "Access-Control-Request-Method": "POST" }),
    ];
    const [node, fetched] = [await exchange(urls.node, requests), await exchange(urls.fetch, requests)];
    expect(node[0]).toContain("data: [DONE]");
    expect(node[1]).toContain("data: [DONE]");
    expect(node[3]).toMatch(/^HTTP\/1\.1 400/);
    expect(node).toEqual(fetched);
  });

  it("mcp-chat: a streamed answer with CORS, a JSON answer, a 4xx error, a preflight", async () => {
    const urls = await bothWays(() => createMcpChatEngine({ firstEventDelay: 0, eventDelay: 0, toolDuration: 0 }));
    const origin = { Origin: "http://localhost:3000" };
    const requests = [
      req("POST", "/connect/weather", origin),
      req("POST", "/chat/stream", { ...json, ...origin }, JSON.stringify({ message: "weather in Paris? é 漢 🙂" })),
      req("GET", "/status", origin),
      req("POST", "/chat/stream", json, "{}"),
      req("OPTIONS", "/chat/stream", { ...origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type" }),
    ];
    const [node, fetched] = [await exchange(urls.node, requests), await exchange(urls.fetch, requests)];
    expect(node[1]).toContain("text/event-stream");
    expect(node[3]).toMatch(/^HTTP\/1\.1 4\d\d/);
    expect(node).toEqual(fetched);
  });

  it("continue-remote: a body streamed in pieces (chunked variant), plain JSON, a 4xx error, a raw fault answer", async () => {
    const chunked = await bothWays(() => createContinueRemoteEngine({ variant: "chunked" }));
    const plain = await bothWays(() => createContinueRemoteEngine({}));
    const html = await bothWays(() => createContinueRemoteEngine({ faults: ["error-html"] }));
    const requests = [
      req("POST", "/message", json, JSON.stringify({ message: "hello é 漢 🙂" })),
      req("GET", "/state"),
      req("POST", "/message", { "Content-Type": "text/plain" }, "hi"),
      req("GET", "/nowhere"),
    ];
    for (const urls of [chunked, plain, html]) {
      const [node, fetched] = [await exchange(urls.node, requests), await exchange(urls.fetch, requests)];
      expect(node[1]).toMatch(/^HTTP\/1\.1 200/);
      expect(node[2]).toMatch(/^HTTP\/1\.1 415/);
      expect(node).toEqual(fetched);
    }
  });
});

describe("a reply sends what the same Response sends", () => {
  const enc = new TextEncoder();
  const replies: [string, () => MockReply][] = [
    ["text without a Content-Type (Response adds text/plain)", () => reply(200, { "X-Mixed": " padded " }, "plain é")],
    ["an empty text body", () => reply(200, {}, "")],
    ["two names that differ only in case, set on the reply itself", () => ({ status: 200, headers: { "X-Dup": "1", "x-dup": " 2\t", "content-type": "text/x" }, body: "t" })],
    ["bytes without a Content-Type", () => reply(201, { "content-type": "application/octet-stream" }, enc.encode("bytes"))],
    ["no body", () => reply(204, { "access-control-allow-origin": "*", allow: "GET" })],
    ["a status with no body but a 200", () => reply(200, { b: "2", a: "1" })],
    ["a paced body", () => reply(200, { "content-type": "text/event-stream" }, { paced: [{ bytes: enc.encode("data: 1\n\n"), delay: 0 }, { bytes: enc.encode("data: 2\n\n"), delay: 5 }], closeDelay: 5 })],
  ];
  it.each(replies)("%s", async (_name, make) => {
    const node = await serveMock(async () => make());
    const fetchStyle = await serveFetch(async (request) => toResponse(make(), request.signal));
    served.push(node, fetchStyle);
    // The last one: two requests on one connection, the second answered once the first is out.
    const pipelined = req("GET", "/").replace("Connection: close\r\n", "") + req("GET", "/");
    const requests = [req("GET", "/"), req("HEAD", "/"), pipelined];
    const [a, b] = [await exchange(node.url, requests), await exchange(fetchStyle.url, requests)];
    // A whole body carries its length, so the second status line follows its last byte directly.
    expect(a[2]?.match(/HTTP\/1\.1 \d{3} /g)).toHaveLength(2);
    expect(a).toEqual(b);
  });
});

describe("a burst of paced writes", () => {
  /**
   * The same chunks served twice, as one zero-pause paced body and as a plain web stream (which the
   * server writes chunk by chunk with res.write); each side's answers to `requests`.
   */
  async function pacedAndWritten(chunks: () => TimedChunk[], requests: string[]): Promise<[string[], string[]]> {
    const head = { "content-type": "text/event-stream" };
    const paced = await serveMock(async () => reply(200, head, { paced: chunks(), closeDelay: 0 }));
    const written = await serveMock(async () => {
      const list = chunks();
      let i = 0;
      return reply(200, head, new ReadableStream<Uint8Array>({ pull: (c) => (i < list.length ? c.enqueue(list[i++]!.bytes) : c.close()) }));
    });
    served.push(paced, written);
    return [await exchange(paced.url, requests), await exchange(written.url, requests)];
  }

  it("puts on the wire what res.write of each chunk puts there (chunked framing included)", async () => {
    const enc = new TextEncoder();
    const chunks = [
      ...Array.from({ length: 300 }, (_, i) => enc.encode(`data: {"i":${i},"t":"é 漢 🙂"}\n\n`)),
      new Uint8Array(0),
      new Uint8Array(100_000).fill(0x61),
      enc.encode("data: [DONE]\n\n"),
    ];
    const [a, b] = await pacedAndWritten(() => chunks.map((bytes) => ({ bytes, delay: 0 })), [req("POST", "/", json, "{}")]);
    expect(a[0]).toContain("\r\n186a0\r\n");
    expect(a).toEqual(b);
  });

  it("with text chunks among the byte chunks, puts on the wire what res.write of each chunk's bytes puts there", async () => {
    const enc = new TextEncoder();
    const texts = ["data: plain\n\n", "data: é 漢 🙂\n\n", "", "data: lone \ud800 surrogate\n\n", "x".repeat(70_000)];
    const chunks = (): TimedChunk[] =>
      Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? { bytes: enc.encode(`: ${i}\n`), delay: 0 } : new TextChunk(texts[i % texts.length]!, 0)));
    const [a, b] = await pacedAndWritten(chunks, [req("POST", "/", json, "{}"), req("HEAD", "/")]);
    expect(a[0]).toContain("\r\n11170\r\n");
    expect(a[0]).toContain("lone \xef\xbf\xbd surrogate");
    expect(a).toEqual(b);
  });

  it("with byte-piece chunks among the others, puts on the wire what res.write of each chunk's bytes puts there", async () => {
    const enc = new TextEncoder();
    // Lengths whose hex length lines take one to five digits, each side of a digit boundary.
    const sizes = [1, 15, 16, 255, 256, 4095, 4096, 65_535, 65_536, 100_000];
    const chunks = (): TimedChunk[] => [
      // n bytes of one letter, cut into three pieces (the first up to 3 bytes, the last up to 2).
      ...sizes.map((n, i) => {
        const all = new Uint8Array(n).fill(0x61 + i);
        const first = Math.min(n, 3);
        const last = Math.min(n - first, 2);
        return new PiecesChunk(all.subarray(0, first), all.subarray(first, n - last), all.subarray(n - last), 0);
      }),
      new PiecesChunk(new Uint8Array(0), new Uint8Array(0), new Uint8Array(0), 0),
      new TextChunk("data: é 漢 🙂\n\n", 0),
      { bytes: enc.encode("data: [DONE]\n\n"), delay: 0 },
    ];
    const [a, b] = await pacedAndWritten(chunks, [req("POST", "/", json, "{}"), req("HEAD", "/")]);
    sizes.forEach((n, i) => expect(a[0]).toContain(`\r\n${n.toString(16)}\r\n${String.fromCharCode(0x61 + i).repeat(n)}\r\n`));
    expect(a).toEqual(b);
  });
});

describe("the Content-Length of a text body", () => {
  it("counts the UTF-8 bytes TextEncoder writes, lone surrogates as U+FFFD", () => {
    const pieces = ["a", "é", "漢", "🙂", "\ud83d", "\ude42", "\u0000", "\u07ff", "\u0800", "\uffff"];
    const enc = new TextEncoder();
    let seed = 7;
    for (let n = 0; n < 500; n++) {
      let text = "";
      for (let i = 0; i < n % 40; i++) text += pieces[(seed = (seed * 48271) % 2147483647) % pieces.length];
      expect(utf8Length(text), JSON.stringify(text)).toBe(enc.encode(text).length);
    }
  });

  it("is sent with a whole body, and not with a streamed one", async () => {
    const node = await serveMock(async (request) => (request.url.endsWith("/whole") ? reply(200, { "content-type": "application/json" }, '{"a":"é"}') : reply(200, { "content-type": "text/event-stream" }, { paced: [{ bytes: new TextEncoder().encode("data: 1\n\n"), delay: 0 }], closeDelay: 0 })));
    served.push(node);
    const [whole, streamed] = await exchange(node.url, [req("GET", "/whole"), req("GET", "/stream")]);
    expect(whole).toMatch(/\r\ncontent-length: 10\r\n/);
    expect(whole).not.toMatch(/transfer-encoding/i);
    expect(streamed).toMatch(/\r\nTransfer-Encoding: chunked\r\n/);
  });

  it("is not sent with a status that has no body", async () => {
    const node = await serveMock(async () => reply(204, { allow: "GET" }, ""));
    served.push(node);
    const [answer] = await exchange(node.url, [req("GET", "/")]);
    expect(answer).toMatch(/^HTTP\/1\.1 204 /);
    expect(answer).not.toMatch(/content-length/i);
  });
});
