/**
 * Small misbehaving WebSocket servers for robustness tests: an HTTP server that answers a few
 * requests as the protocol's agent does (so the target is found and reachable) and serves one
 * behaviour on every upgrade. Every socket is tracked so that close() is prompt even mid-flood.
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { WebSocketServer, type WebSocket } from "ws";

export interface HostileWs {
  url: string;
  close(): Promise<void>;
}

export type WsBehaviour = (ws: WebSocket) => void;

/** A JSON answer, by request URL ("*": every URL not named); other URLs get a plain-text 200. */
export type Routes = Record<string, { body: unknown; headers?: Record<string, string> }>;

/** How each protocol's agent answers plain HTTP. */
export const routes = {
  /** pi's GET /health. */
  piWeb: { "/health": { body: { status: "ok", clients: 0 } } },
  /** stagewise discovery (/stagewise/info), answered on every path, open to any page. */
  stagewise: { "*": { body: { name: "x", description: "y", capabilities: { toolCalling: false, chatHistory: true } }, headers: { "access-control-allow-origin": "*" } } },
} satisfies Record<string, Routes>;

export interface HostileWsOptions {
  routes?: Routes;
  /** The only path upgraded (others get 400); default every path. */
  path?: string;
}

/** Serves `behaviour` on upgrade (any token, any Origin); "no-upgrade" never upgrades. */
export async function hostileWs(behaviour: WsBehaviour | "no-upgrade", o: HostileWsOptions = {}): Promise<HostileWs> {
  const server = http.createServer((req, res) => {
    const route = o.routes?.[req.url ?? ""] ?? o.routes?.["*"];
    if (route) {
      res.writeHead(200, { "content-type": "application/json", ...route.headers });
      res.end(JSON.stringify(route.body));
      return;
    }
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("not a websocket server");
  });
  const wss = new WebSocketServer({ noServer: true, ...(o.path ? { path: o.path } : {}) });
  if (behaviour !== "no-upgrade") {
    server.on("upgrade", (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => behaviour(ws)));
  }
  const sockets = new Set<Socket>();
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
