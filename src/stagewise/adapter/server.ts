/**
 * `createAgentServer`: a stagewise-chat agent on node's http and `ws` — discovery, the tRPC router on the WebSocket
 * path with keep-alive, on the first free port from 5746 on loopback (§1).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket, WebSocketServer } from "ws";
import { clientErrorListener } from "../../core/mock/client-error.js";
import { createAgentParts, type AgentParts } from "./agent-parts.js";
import type { AgentRouter, RouterParts } from "./router.js";
import type { Validate } from "./chat-agent.js";
import { discoveryHandler } from "./discovery.js";
import type { AgentServer, AgentServerOptions } from "./types.js";

export { FIRST_PORT, LAST_PORT } from "./ports.js";
import { FIRST_PORT, LAST_PORT } from "./ports.js";
/** A frame larger than this closes the socket (ws answers 1009) rather than filling memory. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** What tRPC's connection handler uses of a socket: `ws`'s WebSocket, or a wrapper that behaves like one. */
export interface TrpcSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: string, listener: (...args: any[]) => void): unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  once(event: string, listener: (...args: any[]) => void): unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Hook points for servers built on the adapter that must shape the wire themselves (the kit's reference mock): a
 * core built beforehand, extra HTTP routes, a wrapper around each socket and the keep-alive. Agents never need them.
 */
export interface ServerExtras {
  /** Parts built beforehand; with no router, the server builds one with the first upgrade (and `liveChat`). */
  core?: AgentParts & { router?: AgentRouter } & Pick<RouterParts, "liveChat">;
  /** Answers a request before discovery does; returns true when it did. */
  http?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The socket tRPC talks through, in place of the accepted one. */
  socket?: (ws: WebSocket, req: IncomingMessage) => TrpcSocket;
  keepAlive?: { enabled: boolean; pingMs: number; pongWaitMs: number };
  /** What the other hooks need once sockets are served, loaded with the first upgrade next to the server's own. */
  load?: () => Promise<unknown>;
}

type ConnectionHandlerOf = typeof import("@trpc/server/adapters/ws").getWSConnectionHandler;

export async function startAgentServer(options: AgentServerOptions, validate: Validate, extras: ServerExtras = {}): Promise<AgentServer> {
  const host = options.host ?? "127.0.0.1";
  const infoPath = options.infoPath ?? "/stagewise/info";
  const wsPath = options.wsPath ?? "/stagewise/ws";
  const core: NonNullable<ServerExtras["core"]> = extras.core ?? createAgentParts(options, validate);
  const { agent, availability, state, messaging } = core;

  const discovery = discoveryHandler(infoPath, core.info);
  const http = createServer((req, res) => {
    if (!extras.http?.(req, res)) discovery(req, res);
  });
  // What node's parser refuses gets discovery's JSON error shape, not a bare 400.
  http.on("clientError", clientErrorListener((_status, message) => ({ error: message })));
  const sockets = new Set<TrpcSocket>();
  let closing: Promise<void> | undefined;
  // `ws`, tRPC's connection handler and the router (tRPC, superjson) load with the first upgrade: discovery answers
  // without them. The router is built then too, so the first subscription finds everything ready.
  let wss: WebSocketServer | undefined;
  let loading: Promise<WebSocketServer> | undefined;
  const socketServer = (): WebSocketServer | Promise<WebSocketServer> =>
    wss ??
    (loading ??= Promise.all([
      import("ws"),
      import("@trpc/server/adapters/ws"),
      core.router ?? import("./router.js").then(({ createAgentRouter }) => createAgentRouter(core)),
      extras.load?.(),
    ]).then(
      ([{ WebSocketServer: Server }, { getWSConnectionHandler }, router]) =>
        (wss = socketServerOf(new Server({ noServer: true, maxPayload: MAX_FRAME_BYTES }), getWSConnectionHandler, router)),
    ));
  const socketServerOf = (server: WebSocketServer, getWSConnectionHandler: ConnectionHandlerOf, router: AgentRouter): WebSocketServer => {
    const onConnection = getWSConnectionHandler({
      wss: server,
      router,
      keepAlive: extras.keepAlive ?? { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
      // Rejections and bad input are the toolbar's business, not the agent's log.
      onError: () => {},
    });
    server.on("connection", (ws: WebSocket, req: IncomingMessage) => {
      const socket = extras.socket ? extras.socket(ws, req) : ws;
      sockets.add(socket);
      ws.once("close", () => sockets.delete(socket));
      onConnection(socket as unknown as WebSocket, req);
    });
    return server;
  };
  // The first client's subscriptions validate their (void) input. The validator loads and compiles that schema
  // while the first upgrade is under way, not inside the first subscription: a toolbar's first values come at once.
  let warmed = false;
  const warmValidator = () => {
    if (warmed) return;
    warmed = true;
    setImmediate(() => validate("void-input", null));
  };
  http.on("upgrade", (req, socket: Duplex, head) => {
    if ((req.url ?? "").split("?")[0] !== wsPath) {
      socket.end(`HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${JSON.stringify({ error: `WebSocket is on ${wsPath}` })}`);
      return;
    }
    warmValidator();
    // While `ws` loads, a client that gives up must not end the agent with an unhandled socket error.
    const onError = () => socket.destroy();
    const handOver = (server: WebSocketServer) => {
      socket.off("error", onError);
      if (closing || socket.destroyed) socket.destroy();
      else server.handleUpgrade(req, socket, head, (ws) => server.emit("connection", ws, req));
    };
    const server = socketServer();
    if (server instanceof Promise) {
      socket.on("error", onError);
      void server.then(handOver).catch(() => {
        if (!socket.destroyed) socket.end("HTTP/1.1 500 Internal Server Error\r\n\r\n");
      });
    } else handOver(server);
  });

  const port = await listen(http, host, options.port);
  const base = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  return {
    port,
    host,
    url: `http://${base}`,
    infoUrl: `http://${base}${infoPath}`,
    wsUrl: `ws://${base}${wsPath}`,
    chat: agent,
    availability,
    state,
    messaging,
    // What tRPC's broadcastReconnectNotification sends, through each socket (and so through its wrapper).
    requestReconnect: () => {
      for (const socket of sockets) if (socket.readyState === 1) socket.send(JSON.stringify({ id: null, method: "reconnect" }));
    },
    close() {
      closing ??= new Promise<void>((resolve) => {
        agent.close();
        for (const client of wss?.clients ?? []) client.terminate();
        wss?.close();
        http.close(() => resolve());
        http.closeAllConnections();
      });
      return closing;
    },
  };
}

/** Listens on the given port, or on the first free one of 5746..5776. */
async function listen(server: Server, host: string, port: number | undefined): Promise<number> {
  const candidates = port !== undefined ? [port] : Array.from({ length: LAST_PORT - FIRST_PORT + 1 }, (_, i) => FIRST_PORT + i);
  for (const candidate of candidates) {
    const bound = await new Promise<number | null>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        server.off("listening", onListening);
        if (error.code === "EADDRINUSE" && port === undefined) resolve(null);
        else reject(error);
      };
      const onListening = () => {
        server.off("error", onError);
        const address = server.address();
        resolve(typeof address === "object" && address ? address.port : candidate);
      };
      server.once("error", onError);
      server.once("listening", onListening);
      server.listen(candidate, host);
    });
    if (bound !== null) return bound;
  }
  throw new Error(`stagewise adapter: no free port in ${FIRST_PORT}..${LAST_PORT} on ${host}`);
}
