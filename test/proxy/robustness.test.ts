/**
 * The proxy is never the cause of a failure: a target or a client that misbehaves costs its own
 * exchange or connection, the proxy goes on, and credentials never reach the transcript.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { startProxy } from "../../src/proxy/index.js";

const listen = async (server: http.Server | net.Server): Promise<string> => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe.concurrent("the proxy with a misbehaving peer", () => {
  it("a target that answers garbage, or cuts a stream, costs that exchange only", async () => {
    let n = 0;
    const garbage = net.createServer((s) => {
      s.once("data", () => {
        n++;
        if (n === 1) s.end("this is not HTTP\r\n\r\n");
        else s.end("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n10\r\ndata: {\"type\":\"te\r\n");
      });
    });
    const target = await listen(garbage);
    const proxy = await startProxy({ protocol: "mcp-chat", target });
    const first = await fetch(`${proxy.url}/servers`);
    expect(first.status).toBe(502);
    expect(((await first.json()) as { detail: string }).detail).toMatch(/agentwire proxy/);
    const cut = await fetch(`${proxy.url}/chat/stream`, { method: "POST", body: "{}" });
    await expect(cut.text()).rejects.toThrow();
    const result = await proxy.close();
    garbage.close();
    expect(result.server!.checks.length).toBeGreaterThan(0);
  });

  it("a client that leaves mid-stream: the target's answer is dropped, the proxy serves the next one", async () => {
    let closed = false;
    const target = http.createServer((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"type":"text","content":"a"}\n\n');
      const timer = setInterval(() => res.write('data: {"type":"text","content":"b"}\n\n'), 5);
      res.on("close", () => {
        clearInterval(timer);
        closed = true;
      });
    });
    const proxy = await startProxy({ protocol: "mcp-chat", target: await listen(target) });
    const abort = new AbortController();
    const res = await fetch(`${proxy.url}/chat/stream`, { method: "POST", body: "{}", signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    for (let i = 0; i < 100 && !closed; i++) await new Promise((r) => setTimeout(r, 30));
    expect(closed).toBe(true);
    const again = await fetch(`${proxy.url}/chat/stream`, { method: "POST", body: "{}" });
    expect(again.status).toBe(200);
    await again.body!.cancel();
    await proxy.close();
    target.close();
  });

  it("WebSocket: invalid UTF-8 in a text frame goes through unchanged; the target's refusal reaches the client", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, skipUTF8Validation: true, verifyClient: (info: { req: http.IncomingMessage }) => info.req.url !== "/nope" });
    wss.on("connection", (s) => s.on("message", () => s.send(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), { binary: false })));
    await new Promise((r) => wss.once("listening", r));
    const target = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`;
    const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-ws-"));
    const proxy = await startProxy({ protocol: "pi-web", target, saveTranscript: dir });
    const ws = new WebSocket(`${proxy.url}?token=secret-token-value`, { skipUTF8Validation: true });
    await new Promise((r) => ws.once("open", r));
    ws.send('{"type":"get_state","id":"1"}');
    const [data, binary] = await new Promise<[Buffer, boolean]>((r) => ws.once("message", (d, b) => r([d as Buffer, b])));
    expect([...data]).toEqual([0x7b, 0xc3, 0x28, 0x7d]);
    expect(binary).toBe(false);
    ws.close();
    const refused = new WebSocket(proxy.url.replace(/\/ws$/, "/nope"));
    const status = await new Promise<number>((r) => refused.once("unexpected-response", (_q, res) => r(res.statusCode ?? 0)));
    expect(status).toBe(401);
    const result = await proxy.close();
    wss.close();
    const transcript = readFileSync(result.server!.transcript!, "utf8");
    expect(transcript).toContain('"invalidUtf8":true');
    expect(transcript).toContain('"kind":"ws-reject"');
    expect(transcript).not.toContain("secret-token-value");
    expect(JSON.stringify(result)).not.toContain("secret-token-value");
  });

  it("stopping with a stream and a socket open: both are cut, and their ends are in the transcript", async () => {
    const sse = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"type":"text","content":"a"}\n\n');
    });
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    await new Promise((r) => wss.once("listening", r));
    const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-stop-"));
    const http1 = await startProxy({ protocol: "mcp-chat", target: await listen(sse), saveTranscript: dir });
    const ws1 = await startProxy({ protocol: "pi-web", target: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`, saveTranscript: dir });
    const res = await fetch(`${http1.url}/chat/stream`, { method: "POST", body: "{}" });
    await res.body!.getReader().read();
    const ws = new WebSocket(ws1.url);
    await new Promise((r) => ws.once("open", r));
    const closed = new Promise<number>((r) => ws.once("close", (c) => r(c)));
    const [a, b] = await Promise.all([http1.close(), ws1.close()]);
    expect(await closed).toBe(1006);
    sse.close();
    wss.close();
    expect(readFileSync(a.server!.transcript!, "utf8")).toMatch(/"kind":"body-end"[^\n]*"reason":"aborted"/);
    expect(readFileSync(b.server!.transcript!, "utf8")).toContain('"kind":"ws-close"');
  });

  it("a client slower than the target holds the target back: the proxy does not take the stream into memory", async () => {
    // Well past what the loopback sockets on both sides of the proxy buffer between them (several MB each, tuned by the kernel).
    const TOTAL = 64 * 1024 * 1024;
    let written = 0;
    const target = http.createServer(async (_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      while (written < TOTAL) {
        written += chunk.byteLength;
        if (!res.write(chunk)) await new Promise((r) => res.once("drain", r));
      }
      res.end();
    });
    const proxy = await startProxy({ protocol: "mcp-chat", target: await listen(target) });
    const res = await fetch(`${proxy.url}/servers`);
    await new Promise((r) => setTimeout(r, 500));
    // Socket buffers hold a few MB at most; without backpressure the proxy would have read it all.
    expect(written).toBeLessThan(TOTAL / 2);
    let got = 0;
    for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) got += c.byteLength;
    expect(got).toBe(TOTAL);
    await proxy.close();
    target.close();
  });

  it("WebSocket: a client that stops reading holds the target back", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
    let sender: WebSocket | undefined;
    wss.on("connection", (s) => {
      sender = s;
      const mb = Buffer.alloc(1024 * 1024, 0x62);
      for (let i = 0; i < 40; i++) s.send(mb, { binary: true });
    });
    await new Promise((r) => wss.once("listening", r));
    const proxy = await startProxy({ protocol: "pi-web", target: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws` });
    const ws = new WebSocket(proxy.url, { perMessageDeflate: false });
    await new Promise((r) => ws.once("open", r));
    ws.pause();
    await new Promise((r) => setTimeout(r, 700));
    // Most of the 40 MB is still queued at the target: the proxy stopped reading it.
    expect(sender!.bufferedAmount).toBeGreaterThan(10 * 1024 * 1024);
    let got = 0;
    const all = new Promise<void>((r) => ws.on("message", () => ++got === 40 && r()));
    ws.resume();
    await all;
    ws.close();
    await proxy.close();
    wss.close();
  });

  it("WebSocket: a target that pings a client that stops reading is held back too: the pings do not pile up in the proxy", async () => {
    const wss = new WebSocketServer({ host: "127.0.0.1", port: 0, perMessageDeflate: false });
    let sender: WebSocket | undefined;
    let pinged = 0;
    wss.on("connection", (s) => {
      sender = s;
      s.on("error", () => undefined);
      const payload = Buffer.alloc(125, 0x70);
      // About 40 MB of pings, written as fast as the socket takes them.
      const more = () => {
        if (s.readyState !== s.OPEN || pinged >= 300_000) return;
        for (let i = 0; i < 1000; i++, pinged++) s.ping(payload);
        setImmediate(more);
      };
      more();
    });
    await new Promise((r) => wss.once("listening", r));
    const proxy = await startProxy({ protocol: "pi-web", target: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws` });
    const ws = new WebSocket(proxy.url, { perMessageDeflate: false, autoPong: false } as WebSocket.ClientOptions);
    await new Promise((r) => ws.once("open", r));
    ws.pause();
    // All of them written (a loaded machine takes a while), then time for the proxy to read what it would.
    while (pinged < 300_000) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 500));
    // Most of the pings are still queued at the target: the proxy stopped reading it.
    expect(sender!.bufferedAmount).toBeGreaterThan(10 * 1024 * 1024);
    ws.terminate();
    await proxy.close();
    wss.close();
  }, 30_000);

  it("credentials are forwarded to the target but redacted from the transcript", async () => {
    let seen = "";
    const target = http.createServer((req, res) => {
      seen = `${req.headers.authorization} ${req.headers["x-api-key"]}`;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "m", object: "model", created: 0, owned_by: "x" }], echo: req.headers.authorization }));
    });
    const dir = mkdtempSync(join(tmpdir(), "agentwire-proxy-cred-"));
    const proxy = await startProxy({ protocol: "openai-chat", target: `${await listen(target)}/v1`, saveTranscript: dir });
    await (await fetch(`${proxy.url}/models`, { headers: { authorization: "Bearer sk-very-secret-1", "x-api-key": "key-very-secret-2" } })).text();
    const result = await proxy.close();
    target.close();
    expect(seen).toBe("Bearer sk-very-secret-1 key-very-secret-2");
    const transcript = readFileSync(result.server!.transcript!, "utf8");
    expect(transcript).not.toContain("sk-very-secret-1");
    expect(transcript).not.toContain("key-very-secret-2");
    expect(transcript).toContain("[redacted]");
  });
});
