/**
 * Runs the pi-web engine as a real server: node:http for GET /health and GET /, and `ws` in
 * noServer mode behind the §1 upgrade checks, so a refused upgrade is a bare status line
 * (404/401/403, or 400 for an unknown ?fault=/?scenario=/?framing=) and the socket closes.
 * Names and numbers are validated before the port is opened.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { RawData, WebSocket, WebSocketServer } from "ws";
import { startOptions } from "../../core/mock/start.js";
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import type { PiWebTransport } from "./connection.js";
import { createPiWebEngine, type PiWebEngine } from "./engine.js";
import { PI_WEB_DEFAULT_PORT, PI_WEB_WS_PATH, resolvePiWebOptions, type PiWebMockOptions } from "./options.js";
import { headersOf, validTarget } from "../../core/mock/node-request.js";
import { clientErrorListener } from "../../core/mock/client-error.js";
import { dropOnError } from "../../core/mock/ws-cut.js";

export type PiWebStartOptions = MockStartOptions & Partial<PiWebMockOptions>;

/** A client message longer than this is refused unread and its socket cut (`ws`'s default, named so the cut says it). */
export const PI_WEB_MAX_PAYLOAD = 100 * 1024 * 1024;

export async function startPiWebMock(options: PiWebStartOptions = {}): Promise<RunningMock> {
  const start = await startOptions<PiWebMockOptions>(options, {
    defaultPort: PI_WEB_DEFAULT_PORT,
    settings: () => import("./settings.js"),
    firstByteKey: "firstDelay",
    chunkDelayKey: "chunkDelay",
  });
  const { host, port } = start;
  // node:crypto (for the constant-time comparison) loads only for a mock that checks a token.
  const crypto = start.engine.token !== undefined ? await import("node:crypto") : undefined;
  const engineOptions: PiWebMockOptions = { ...start.engine, host, ...(crypto ? { sameToken: sameToken(crypto) } : {}) };
  // Fail before listening; the engine proper needs the bound port (the Origin list names it).
  resolvePiWebOptions({ ...engineOptions, port: port || PI_WEB_DEFAULT_PORT });

  let engine: PiWebEngine | undefined;
  // `ws` loads with the first upgrade: /health answers before it is needed.
  let ready: WebSocketServer | undefined;
  let loading: Promise<WebSocketServer> | undefined;
  const socketServer = () =>
    ready ??
    (loading ??= import("ws").then((m) => {
      ready = new m.WebSocketServer({ noServer: true, maxPayload: PI_WEB_MAX_PAYLOAD });
      return ready;
    }));
  const sockets = new Set<Duplex>();

  const server = http.createServer({ noDelay: true }, (req, res) => {
    let r: { status: number; headers: Record<string, string>; body: string };
    try {
      r = validTarget(req, "ws")
        ? (engine as PiWebEngine).http(req.method ?? "GET", req.url ?? "/")
        : { status: 400, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: "malformed Host header or request target" }) };
    } catch (e) {
      // No request may end the mock: an unforeseen failure is this request's 500, nothing more.
      r = { status: 500, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: `mock error: ${(e as Error).message}` }) };
    }
    res.writeHead(r.status, { ...r.headers, "content-length": Buffer.byteLength(r.body) });
    res.end(req.method === "HEAD" ? undefined : r.body);
  });
  // What node's parser refuses gets the mock's JSON error shape ({error}), not a bare 400.
  server.on("clientError", clientErrorListener((_status, message) => ({ error: message })));
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("upgrade", (req, socket, head) => upgrade(engine as PiWebEngine, socketServer, req, socket, head));

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port;
      engine = createPiWebEngine({ ...engineOptions, port: bound });
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shownHost}:${bound}`;
  return {
    url,
    // Clients open the WebSocket; /health and / answer on the HTTP base.
    urls: [`ws://${shownHost}:${bound}${engineOptions.wsPath ?? PI_WEB_WS_PATH}`, url],
    close: () =>
      new Promise<void>((resolve) => {
        engine?.dispose();
        for (const ws of ready?.clients ?? []) ws.terminate();
        ready?.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Constant-time token comparison; digests first, so tokens of different lengths compare safely too. */
function sameToken({ createHash, timingSafeEqual }: typeof import("node:crypto")): (given: string, expected: string) => boolean {
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return (given, expected) => timingSafeEqual(digest(given), digest(expected)) && given === expected;
}

type SocketServer = () => WebSocketServer | Promise<WebSocketServer>;

function upgrade(engine: PiWebEngine, socketServer: SocketServer, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  socket.on("error", () => socket.destroy());
  try {
    accept(engine, socketServer, req, socket, head);
  } catch {
    // No upgrade may end the mock: whatever failed, this socket alone is refused.
    if (!socket.destroyed) socket.end("HTTP/1.1 500 Internal Server Error\r\n\r\n");
  }
}

function accept(engine: PiWebEngine, socketServer: SocketServer, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  if (!validTarget(req, "ws")) {
    socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    return;
  }
  const headers = headersOf(req);
  const info = { url: `ws://${headers.host ?? "localhost"}${req.url ?? "/"}`, headers };
  const decision = engine.upgrade(info);
  if (!decision.ok) {
    // A bare status line: no headers, no body (§1), then the socket closes.
    socket.end(`HTTP/1.1 ${decision.status} ${decision.statusText}\r\n\r\n`);
    return;
  }
  const handOver = (wss: WebSocketServer) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn = engine.connect(transportOf(ws, socket), info);
      ws.on("message", (data: RawData, isBinary: boolean) => {
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
        try {
          conn.onMessage(isBinary ? new Uint8Array(bytes) : bytes.toString("utf8"), isBinary);
        } catch {
          // A frame the engine could not handle ends this connection (1011), never the mock.
          ws.close(1011, "mock error");
        }
      });
      // A cut at the mock's own cap is recorded as the kit's close, not the client's.
      const cut = dropOnError(ws, PI_WEB_MAX_PAYLOAD);
      ws.on("close", (code: number, reason: Buffer) => conn.onClose(code, reason.toString("utf8"), cut.cause));
    });
  const wss = socketServer();
  if (wss instanceof Promise) {
    void wss.then(handOver).catch(() => {
      if (!socket.destroyed) socket.end("HTTP/1.1 500 Internal Server Error\r\n\r\n");
    });
  } else handOver(wss);
}

/**
 * `ws` writes every frame to the socket at once (one writev each). Frames written in the same tick
 * (a zero-delay stream is one chain of microtasks) are held back by corking the socket and leave
 * together when the tick is over: the same frames, byte for byte, in fewer system calls. A paced
 * frame still leaves in the tick it was written; a close lets the held frames out first.
 */
function burstOf(socket: Duplex): { hold(): void; release(): void } {
  let corked = false;
  const release = () => {
    if (!corked) return;
    corked = false;
    socket.uncork();
  };
  return {
    hold() {
      if (corked) return;
      corked = true;
      socket.cork();
      process.nextTick(release);
    },
    release,
  };
}

function transportOf(ws: WebSocket, socket: Duplex): PiWebTransport {
  const burst = burstOf(socket);
  const message = (data: string | Buffer, binary: boolean, size: number) => {
    if (ws.readyState !== ws.OPEN) return;
    burst.hold();
    if (size <= 0) {
      ws.send(data, { binary, compress: false });
      return;
    }
    // Continuation frames of `size` bytes; they may cut a UTF-8 sequence, which is valid.
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    if (bytes.length === 0) {
      ws.send(bytes, { binary, compress: false });
      return;
    }
    for (let at = 0; at < bytes.length; at += size) {
      ws.send(bytes.subarray(at, at + size), { binary, fin: at + size >= bytes.length, compress: false });
    }
  };
  // A view of the engine's bytes, not a copy: it never changes a message's bytes once handed over.
  const view = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return {
    send(data, options) {
      message(typeof data === "string" ? data : view(data), typeof data !== "string", options?.fragment ?? 0);
    },
    sendUtf8(bytes, options) {
      message(view(bytes), false, options?.fragment ?? 0);
    },
    close(code, reason) {
      // The close frame leaves now, after the frames before it (the mock may terminate the socket next).
      burst.release();
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, reason);
    },
    ping() {
      if (ws.readyState === ws.OPEN) ws.ping();
    },
  };
}
