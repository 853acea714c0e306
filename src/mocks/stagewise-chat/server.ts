/**
 * The stagewise-chat mock as a real server: the kit's agent adapter (node's http, `ws`, the real @trpc/server
 * connection handler with its keep-alive, the first free port from 5746 on loopback) around the mock's engine, whose
 * tapped sockets and discovery carry the faults and framings. Names and knobs are checked before the port opens.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket } from "ws";
import { startOptions } from "../../core/mock/start.js";
import type { MockStartOptions, RunningMock } from "../../core/run/protocol.js";
import { formatSchemaErrors, registry } from "../../core/schemas/schema-registry.js";
import type { Validate } from "../../stagewise/adapter/chat-agent.js";
import { MAX_FRAME_BYTES, startAgentServer, type TrpcSocket } from "../../stagewise/adapter/server.js";
import { createStagewiseEngine, type EngineSettings, type StagewiseEngine } from "./engine.js";
import { resolveStagewiseOptions, type StagewiseMockOptions } from "./options.js";
import { INFO_PATH, STAGEWISE_DEFAULT_PORT, WS_PATH } from "./pace.js";
import { ClientRecorder } from "./recorder.js";
import { loadSuperjson } from "./superjson-ref.js";
import { FrameBlock, textFrame } from "./ws-frames.js";
import { headersOf, validTarget } from "../../core/mock/node-request.js";
import { dropOnError } from "../../core/mock/ws-cut.js";

export type StagewiseStartOptions = MockStartOptions & Partial<StagewiseMockOptions> & EngineSettings;

/** Control bodies are tiny; anything longer is refused unread. */
const MAX_BODY = 64 * 1024;
const KEEP_ALIVE = { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 };

export const nodeValidate: Validate = (schema, value) => {
  const result = registry.validate("stagewise-chat", schema, value);
  return result.ok ? null : formatSchemaErrors(result.errors);
};

export interface RunningStagewiseMock extends RunningMock {
  engine: StagewiseEngine;
  wsUrl: string;
}

export async function startStagewiseMock(given: StagewiseStartOptions = {}): Promise<RunningStagewiseMock> {
  const { viaTrpc, ...options } = given;
  const start = await startOptions<StagewiseMockOptions>(options, {
    defaultPort: STAGEWISE_DEFAULT_PORT,
    settings: () => import("./settings.js"),
    firstByteKey: "firstDelayMs",
    chunkDelayKey: "chunkDelayMs",
  });
  const resolved = resolveStagewiseOptions(start.engine);
  const engine = createStagewiseEngine(resolved, nodeValidate, { viaTrpc });
  const { hooks } = engine;
  const recorder = new ClientRecorder(options.bus);
  // The default port means the toolbar's scan: the first free one from 5746 (§1).
  const port = hooks.port ?? (start.port === STAGEWISE_DEFAULT_PORT ? undefined : start.port);
  const keepAlive = hooks.keepAlive === false ? { ...KEEP_ALIVE, enabled: false } : { ...KEEP_ALIVE, pingMs: hooks.keepAlive ? hooks.keepAlive.pingMs : resolved.pingMs };

  const listen = (at: number | undefined) =>
    startAgentServer({ host: start.host, ...(at !== undefined ? { port: at } : {}), infoPath: INFO_PATH, wsPath: hooks.wsPath ?? WS_PATH }, nodeValidate, {
      core: engine.core,
      keepAlive,
      // The hooks' superjson, with the server's tRPC and `ws`.
      load: loadSuperjson,
      http: (req, res) => {
        serveHttp(engine, req, res, recorder);
        return true;
      },
      socket: (ws, req) => tap(engine, ws, req, recorder),
    });
  let server;
  try {
    // A fault's port is a place outside the toolbar's range, not one exact port: the next free one will do.
    for (let at = port, tries = 0; ; at = (at ?? 0) + 1, tries++) {
      try {
        server = await listen(at);
        break;
      } catch (error) {
        if (hooks.port === undefined || tries >= 30 || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      }
    }
  } catch (error) {
    engine.close();
    throw error;
  }
  return {
    url: server.url,
    wsUrl: server.wsUrl,
    engine,
    close: async () => {
      engine.close();
      await server.close();
    },
  };
}

function serveHttp(engine: StagewiseEngine, req: IncomingMessage, res: ServerResponse, recorder: ClientRecorder): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const send = (status: number, headers: Record<string, string>, body: string) => {
    if (res.headersSent) return;
    res.writeHead(status, { ...headers, "content-length": String(Buffer.byteLength(body)) });
    res.end(req.method === "HEAD" ? undefined : body);
  };
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_BODY) {
      send(413, { "content-type": "application/json", connection: "close" }, JSON.stringify({ error: `request body over ${MAX_BODY} bytes` }));
      req.destroy();
    } else chunks.push(chunk);
  });
  req.on("end", () => {
    const json = (status: number, error: string) => send(status, { "content-type": "application/json" }, JSON.stringify({ error }));
    if (!validTarget(req, "http")) return json(400, "malformed Host header or request target");
    if (!["GET", "HEAD", "OPTIONS", "POST"].includes(req.method ?? "")) return json(405, `${req.method ?? ""} is not served here; discovery is GET ${INFO_PATH}`);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const answer = engine.http(req.method ?? "GET", path, Buffer.concat(chunks).toString("utf8"));
    recorder.http(req.method ?? "GET", req.url ?? "/", headersOf(req), answer);
    send(answer.status, answer.headers, answer.body);
  });
  req.on("error", () => res.destroy());
}

function tap(engine: StagewiseEngine, ws: WebSocket, req: IncomingMessage, recorder: ClientRecorder): TrpcSocket {
  const id = recorder.open(req.url ?? "/", headersOf(req));
  let byMock = false;
  // What is sent in one run of the event loop (a burst of deltas) leaves in one write: the socket is corked from the
  // first frame to the next tick, and uncorked before a close or a terminate, which would drop what it holds. Whole
  // text frames go into it as the mock builds them when `ws` would write the same bytes (no extension negotiated).
  const raw = (ws as unknown as { _socket?: Duplex })._socket;
  const plainFrames = raw !== undefined && ws.extensions === "";
  // A burst's live chat updates are framed into one buffer, written before any other frame and when the burst ends.
  // Only they are gathered: the agent emits them, never while `ws` is reading a toolbar frame (tRPC calls procedures
  // after a microtask at least), so none is pending when `ws` writes a reply of its own (a pong, a close).
  const block = new FrameBlock();
  const writeBlock = () => {
    const frames = block.take();
    if (frames) raw!.write(frames);
  };
  let corked = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    writeBlock();
    raw!.uncork();
  };
  const socket = engine.connect(
    {
      send(data, { binary, fragment, live }) {
        if (ws.readyState !== ws.OPEN) return;
        if (!corked && raw) {
          corked = true;
          raw.cork();
          process.nextTick(uncork);
        }
        // Recorded whole, as the toolbar reassembles it.
        recorder.frame(id, "out", data, binary);
        if (live === true && fragment <= 0 && plainFrames && block.add(data)) return;
        if (plainFrames) writeBlock();
        if (fragment <= 0 && !binary && plainFrames) {
          raw.write(textFrame(data));
          return;
        }
        if (fragment <= 0) {
          ws.send(binary ? Buffer.from(data, "utf8") : data, { binary, compress: false });
          return;
        }
        // Continuation frames of `fragment` bytes; they may cut a UTF-8 sequence, which is valid.
        const bytes = Buffer.from(data, "utf8");
        for (let at = 0; at < bytes.length; at += fragment) ws.send(bytes.subarray(at, at + fragment), { binary, fin: at + fragment >= bytes.length, compress: false });
      },
      close: (code, reason) => {
        byMock = true;
        uncork();
        ws.close(code, reason);
      },
      terminate: () => {
        byMock = true;
        uncork();
        ws.terminate();
      },
    },
    req.url ?? "/",
    (text) => Buffer.from(text, "utf8"),
  );
  if ("error" in socket) {
    // The selection is refused before anything else crosses the socket.
    ws.close(1008, socket.error.slice(0, 120));
    recorder.close(id, 1008, socket.error.slice(0, 120), "kit");
    return ws;
  }
  ws.on("message", (data: Buffer | Buffer[] | ArrayBuffer, isBinary: boolean) => {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
    recorder.frame(id, "in", bytes.toString("utf8"), isBinary);
    socket.receive(bytes.toString("utf8"), isBinary);
  });
  // A cut at the mock's own cap (a message over MAX_FRAME_BYTES, too many parts) is the kit's close, not the toolbar's.
  const cut = dropOnError(ws, MAX_FRAME_BYTES);
  ws.on("close", (code: number, reason: Buffer) => {
    recorder.close(id, code, reason.toString("utf8"), byMock || cut.cause !== undefined ? "kit" : "client", cut.cause);
    socket.closed(code, reason.toString("utf8"));
  });
  return socket;
}
