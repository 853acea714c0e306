/**
 * Runs the pi-web engine as a real server: node:http for GET /health and GET /, and `ws` in
 * noServer mode behind the §1 upgrade checks, so a refused upgrade is a bare status line
 * (404/401/403, or 400 for an unknown ?fault=/?scenario=/?framing=) and the socket closes.
 * Names and numbers are validated before the port is opened.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { z } from "zod";
import type { MockStartOptions, RunningMock } from "../../core/protocol.js";
import type { PiWebTransport } from "./connection.js";
import { createPiWebEngine, type PiWebEngine } from "./engine.js";
import { PI_WEB_DEFAULT_PORT, resolvePiWebOptions, type PiWebMockOptions } from "./options.js";

const ms = z.number().finite().nonnegative();

/** `settings` as the CLI or a config file passes them: plain data, unknown keys refused. */
const Settings = z.strictObject({
  firstDelay: ms.optional(),
  chunkDelay: ms.optional(),
  chunkSize: z.number().int().min(1).optional(),
  toolDelay: ms.optional(),
  slowQueryDelay: ms.optional(),
  fragment: z.number().int().nonnegative().optional(),
  pretty: z.boolean().optional(),
  escapeUnicode: z.boolean().optional(),
  pingInterval: z.number().int().nonnegative().optional(),
  largeFrames: z.boolean().optional(),
  profile: z.enum(["default", "pi-fork-0.54"]).optional(),
  token: z.string().min(1).optional(),
  allowedOrigins: z.array(z.string()).optional(),
  originCheck: z.boolean().optional(),
  confirmNewSession: z.boolean().optional(),
  sessions: z.literal("memory").optional(),
  wsPath: z.string().optional(),
});

export type PiWebStartOptions = MockStartOptions & Partial<PiWebMockOptions>;

export async function startPiWebMock(options: PiWebStartOptions = {}): Promise<RunningMock> {
  const { host = "127.0.0.1", port = PI_WEB_DEFAULT_PORT, firstByteMs, chunkDelayMs, settings, ...rest } = options;
  const parsed = Settings.safeParse(settings ?? {});
  if (!parsed.success) throw new Error(`pi-web mock: invalid settings: ${z.prettifyError(parsed.error)}`);
  const engineOptions: PiWebMockOptions = {
    ...(parsed.data as PiWebMockOptions),
    ...(firstByteMs !== undefined ? { firstDelay: firstByteMs } : {}),
    ...(chunkDelayMs !== undefined ? { chunkDelay: chunkDelayMs } : {}),
    ...definedOnly(rest),
    host,
  };
  // Fail before listening; the engine proper needs the bound port (the Origin list names it).
  resolvePiWebOptions({ ...engineOptions, port: port || PI_WEB_DEFAULT_PORT });

  let engine: PiWebEngine | undefined;
  const wss = new WebSocketServer({ noServer: true });
  const sockets = new Set<Duplex>();

  const server = http.createServer({ noDelay: true }, (req, res) => {
    const r = (engine as PiWebEngine).http(req.method ?? "GET", req.url ?? "/");
    res.writeHead(r.status, { ...r.headers, "content-length": Buffer.byteLength(r.body) });
    res.end(req.method === "HEAD" ? undefined : r.body);
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  server.on("upgrade", (req, socket, head) => upgrade(engine as PiWebEngine, wss, req, socket, head));

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
  return {
    url: `http://${shownHost}:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        engine?.dispose();
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function headersOf(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function upgrade(engine: PiWebEngine, wss: WebSocketServer, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const headers = headersOf(req);
  const info = { url: `ws://${headers.host ?? "localhost"}${req.url ?? "/"}`, headers };
  socket.on("error", () => socket.destroy());
  const decision = engine.upgrade(info);
  if (!decision.ok) {
    // A bare status line: no headers, no body (§1), then the socket closes.
    socket.end(`HTTP/1.1 ${decision.status} ${decision.statusText}\r\n\r\n`);
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    const conn = engine.connect(transportOf(ws), info);
    ws.on("message", (data: RawData, isBinary: boolean) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
      conn.onMessage(isBinary ? new Uint8Array(bytes) : bytes.toString("utf8"), isBinary);
    });
    ws.on("close", (code: number, reason: Buffer) => conn.onClose(code, reason.toString("utf8")));
    ws.on("error", () => ws.terminate());
  });
}

function transportOf(ws: WebSocket): PiWebTransport {
  return {
    send(data, options) {
      if (ws.readyState !== ws.OPEN) return;
      const binary = typeof data !== "string";
      const size = options?.fragment ?? 0;
      if (size <= 0) {
        ws.send(data, { binary, compress: false });
        return;
      }
      // Continuation frames of `size` bytes; they may cut a UTF-8 sequence, which is valid.
      const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
      if (bytes.length === 0) {
        ws.send(bytes, { binary, compress: false });
        return;
      }
      for (let at = 0; at < bytes.length; at += size) {
        ws.send(bytes.subarray(at, at + size), { binary, fin: at + size >= bytes.length, compress: false });
      }
    },
    close(code, reason) {
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, reason);
    },
    ping() {
      if (ws.readyState === ws.OPEN) ws.ping();
    },
  };
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
