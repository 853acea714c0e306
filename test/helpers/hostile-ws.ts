/**
 * Small misbehaving WebSocket servers for robustness tests: an HTTP server that answers a few
 * requests as the protocol's agent does (so the target is found and reachable) and serves one
 * behaviour on every upgrade; close() is prompt even mid-flood (the HTTP hostile servers' `serve`).
 */
import { WebSocketServer, type WebSocket } from "ws";
import { serve, type Hostile } from "./hostile-servers.js";

export type HostileWs = Hostile;

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
  const wss = new WebSocketServer({ noServer: true, ...(o.path ? { path: o.path } : {}) });
  const h = await serve(
    (req, res) => {
      const route = o.routes?.[req.url ?? ""] ?? o.routes?.["*"];
      if (route) {
        res.writeHead(200, { "content-type": "application/json", ...route.headers });
        res.end(JSON.stringify(route.body));
        return;
      }
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("not a websocket server");
    },
    behaviour === "no-upgrade" ? undefined : (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => behaviour(ws)),
  );
  return {
    url: h.url,
    close: () => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      return h.close();
    },
  };
}
