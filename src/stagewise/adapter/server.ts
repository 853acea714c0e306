/**
 * `createAgentServer`: a stagewise-chat agent on node's http and `ws` — discovery, the tRPC router on the WebSocket
 * path with keep-alive, on the first free port from 5746 on loopback (§1).
 */
import { createServer, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { applyWSSHandler } from "@trpc/server/adapters/ws";
import { WebSocketServer } from "ws";
import { ChatAgent, type Validate } from "./chat-agent.js";
import { discoveryHandler } from "./discovery.js";
import { createAgentRouter } from "./router.js";
import { AvailabilityChannel, MessagingMirror, StateChannel } from "./side-channels.js";
import type { AgentServer, AgentServerOptions, IdKind } from "./types.js";

/** The toolbar scans upward from here (§1). */
export const FIRST_PORT = 5746;
export const LAST_PORT = 5776;
/** A frame larger than this closes the socket (ws answers 1009) rather than filling memory. */
const MAX_FRAME_BYTES = 64 * 1024 * 1024;

const PREFIX: Record<IdKind, string> = { chat: "chat", message: "msg", "tool-call": "call" };

function defaultIds(): (kind: IdKind) => string {
  let n = 0;
  // A random stem per run keeps ids from a restarted agent's persisted chats from colliding.
  const stem = Math.random().toString(36).slice(2, 8);
  return (kind) => `${PREFIX[kind]}-${stem}${(++n).toString(36)}`;
}

export async function startAgentServer(options: AgentServerOptions, validate: Validate): Promise<AgentServer> {
  const host = options.host ?? "127.0.0.1";
  const infoPath = options.infoPath ?? "/stagewise/info";
  const wsPath = options.wsPath ?? "/stagewise/ws";
  const ids = options.idGenerator ?? defaultIds();
  const initialChats = options.initialChats ?? [
    { id: ids("chat"), title: options.defaultChatTitle ?? "New chat", createdAt: new Date().toISOString(), isActive: true, messages: [] },
  ];
  const agent = new ChatAgent({
    defaultChatTitle: options.defaultChatTitle ?? "New chat",
    coalesceMs: options.coalesceMs ?? 20,
    idGenerator: ids,
    initialChats,
    hooks: options.hooks ?? {},
    validate,
  });
  const availability = new AvailabilityChannel(validate);
  const state = new StateChannel(agent.store, validate);
  const messaging = new MessagingMirror(agent.store, () => ids("message"));
  const router = createAgentRouter({ agent, availability, state, messaging, validate });

  const info = { name: options.name ?? "agentwire agent", description: options.description ?? "A stagewise chat agent", capabilities: { toolCalling: false, chatHistory: true } };
  const http = createServer(discoveryHandler(infoPath, info));
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  http.on("upgrade", (req, socket: Duplex, head) => {
    if ((req.url ?? "").split("?")[0] !== wsPath) {
      socket.end(`HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${JSON.stringify({ error: `WebSocket is on ${wsPath}` })}`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
  });
  const handler = applyWSSHandler({
    wss,
    router,
    keepAlive: { enabled: true, pingMs: 30_000, pongWaitMs: 5_000 },
    // Rejections and bad input are the toolbar's business, not the agent's log.
    onError: () => {},
  });

  const port = await listen(http, host, options.port);
  const base = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
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
    requestReconnect: () => handler.broadcastReconnectNotification(),
    close() {
      closing ??= new Promise<void>((resolve) => {
        agent.close();
        for (const client of wss.clients) client.terminate();
        wss.close();
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
