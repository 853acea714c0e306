/**
 * Every mock outlives any request: malformed request lines, Host headers and methods get a 4xx in
 * the protocol's own error shape, and a body over the cap is refused from its Content-Length.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningMock } from "../../src/core/run/protocol.js";
import { PROTOCOLS } from "../../src/protocols.js";

interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

/** Sends raw bytes and reads until the server closes (or answers a complete response). */
function raw(url: string, request: string): Promise<RawAnswer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname);
    let data = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer to ${JSON.stringify(request.slice(0, 60))}: ${JSON.stringify(data)}`));
    }, 5000);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const [head = "", body = ""] = splitOnce(data, "\r\n\r\n");
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head.toLowerCase(), body });
    };
    socket.on("data", (d) => {
      data += d.toString("latin1");
      const [head, body] = splitOnce(data, "\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(head ?? "")?.[1];
      if (body !== undefined && length !== undefined && Buffer.byteLength(body, "latin1") >= Number(length)) done();
    });
    socket.on("end", done);
    socket.on("error", () => done());
    socket.write(request);
  });
}

function splitOnce(s: string, sep: string): [string, string | undefined] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + sep.length)];
}

/** The status of a plain request after the bad one: the mock is still there. */
async function alive(id: string): Promise<number> {
  return (await fetch(url(id) + (id === "pi-web" ? "/health" : "/"))).status;
}

const mocks = new Map<string, RunningMock>();
beforeAll(async () => {
  for (const p of PROTOCOLS) mocks.set(p.id, await p.startMock({ host: "127.0.0.1", port: 0 }));
});
afterAll(async () => {
  for (const m of mocks.values()) await m.close();
});

const url = (id: string) => mocks.get(id)!.url;

/** The error body each protocol answers its own HTTP errors with. */
const ERROR_SHAPE: Record<string, (body: any) => boolean> = {
  "mcp-chat": (b) => typeof b.detail === "string",
  "openai-chat": (b) =>
    typeof b.error?.message === "string" && typeof b.error?.type === "string" && "code" in b.error && !("detail" in b),
  "pi-web": (b) => typeof b.error === "string",
  "continue-remote": (b) => typeof b.error === "string",
  "stagewise-chat": (b) => typeof b.error === "string",
};

describe.each(PROTOCOLS.map((p) => p.id))("%s mock under malformed requests", (id) => {
  it("answers a malformed Host header 400 with its own error body, and keeps serving", async () => {
    const a = await raw(url(id), "GET / HTTP/1.1\r\nHost: [\r\nConnection: close\r\n\r\n");
    expect(a.status).toBe(400);
    expect(a.headers).toContain("application/json");
    expect(ERROR_SHAPE[id]!(JSON.parse(a.body))).toBe(true);
    expect(await alive(id)).toBeLessThan(500);
  });

  it.each([
    ["a Content-Length that is not a number", "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n"],
    ["a control byte in the request target", "GET /a\x01b HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["a chunk size that is not hex", "POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"],
  ])("answers what node's HTTP parser refuses (%s) 400 with its own error body", async (what, request) => {
    // pi-web answers without reading a body: its 404 is out before the parser meets the chunk.
    if (id === "pi-web" && what.includes("chunk")) return;
    const a = await raw(url(id), request);
    expect(a.status).toBe(400);
    expect(a.headers).toContain("application/json");
    const body = JSON.parse(a.body);
    expect(ERROR_SHAPE[id]!(body)).toBe(true);
    expect(JSON.stringify(body)).toContain("malformed HTTP request");
    expect(await alive(id)).toBeLessThan(500);
  });

  it("answers a scheme-relative request target without ending", async () => {
    const a = await raw(url(id), "GET //[ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    expect(a.status).toBeGreaterThanOrEqual(400);
    expect(a.status).toBeLessThan(500);
    expect(await alive(id)).toBeLessThan(500);
  });

  it("refuses a WebSocket upgrade with a malformed Host without ending", async () => {
    const a = await raw(
      url(id),
      "GET /ws HTTP/1.1\r\nHost: [\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    );
    expect(a.status).toBeGreaterThanOrEqual(400);
    expect(a.status).toBeLessThan(500);
    expect(await alive(id)).toBeLessThan(500);
  });

  it("answers TRACE 405 with its own error body", async () => {
    const a = await raw(url(id), "TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    if (id === "pi-web") {
      // pi-web serves only GET endpoints: anything else is its plain 404 (§6).
      expect(a.status).toBeLessThan(500);
    } else {
      expect(a.status).toBe(405);
      expect(ERROR_SHAPE[id]!(JSON.parse(a.body))).toBe(true);
    }
    expect(await alive(id)).toBeLessThan(500);
  });
});

describe.each(["mcp-chat", "openai-chat"])("%s mock under an oversized body", (id) => {
  it("refuses from Content-Length alone, as JSON, without waiting for the body", async () => {
    // The head claims 1 GiB and no byte of it is sent: only an answer from the head can come back.
    const path = id === "openai-chat" ? "/v1/chat/completions" : "/chat/stream";
    const a = await raw(
      url(id),
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1073741824\r\n\r\n`,
    );
    expect(a.status).toBe(413);
    expect(ERROR_SHAPE[id]!(JSON.parse(a.body))).toBe(true);
    expect(await alive(id)).toBeLessThan(500);
  });
});

describe.each(PROTOCOLS.map((p) => p.id))("%s mock under a burst of malformed requests", (id) => {
  it("answers each below 500 (or lets the HTTP parser refuse it) and is still serving after all", async () => {
    const methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "TRACE", "TRACK", "FOO"];
    const hosts = ["[", "[::1", "a b", "user:pw@127.0.0.1", "", "127.0.0.1:99999", "%", "xn--", "127.0.0.1"];
    const targets = ["//[", "/%", "/..%2f..%2f", "*", "http://x/y", "/ws?token=%zz", "/v1/chat/completions?x=%", "/chat/stream#frag", "/\u00e9"];
    const extras = ["", "Content-Length: 3\r\n", "Transfer-Encoding: chunked\r\n", "Upgrade: websocket\r\nConnection: Upgrade\r\n", "Content-Length: -1\r\n"];
    let seed = 11;
    const pick = <T,>(xs: T[]): T => xs[(seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % xs.length]!;
    for (let i = 0; i < 120; i++) {
      const extra = pick(extras);
      const body = extra.startsWith("Content-Length: 3") ? "{}x" : extra.startsWith("Transfer-Encoding") ? "0\r\n\r\n" : "";
      const host = pick(hosts);
      const request = `${pick(methods)} ${pick(targets)} HTTP/1.1\r\n${host ? `Host: ${host}\r\n` : ""}${extra}Connection: close\r\n\r\n${body}`;
      const a = await raw(url(id), request);
      // 0: the socket closed without an answer (node's parser refusing the request line).
      expect(a.status === 0 || (a.status >= 100 && a.status < 500), `${a.status} for ${JSON.stringify(request)}`).toBe(true);
    }
    expect(await alive(id)).toBeLessThan(500);
  });
});
