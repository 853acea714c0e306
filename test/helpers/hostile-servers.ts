/**
 * Small misbehaving HTTP servers for robustness tests: each answers every request (or only
 * POST /chat/stream, behind a minimal well-behaved mcp-chat backend) in one hostile way.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { ProtocolDef } from "../../src/core/run/protocol.js";
import type { RunResult } from "../../src/core/verdicts/result.js";
import { runSuite, type SuiteOptions } from "../../src/core/run/runner.js";

export interface Hostile {
  url: string;
  close(): Promise<void>;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Serves `handler` on loopback (and `upgrade` on upgrade requests); close() destroys every socket still open. */
export async function serve(handler: Handler, upgrade?: (req: http.IncomingMessage, socket: import("node:stream").Duplex, head: Buffer) => void): Promise<Hostile> {
  const server = http.createServer(handler);
  if (upgrade) server.on("upgrade", upgrade);
  const sockets = new Set<import("node:net").Socket>();
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
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Runs the suite against a hostile target of its own, closed after the run; and how long the run took. */
export async function runAgainst(protocol: ProtocolDef, target: Hostile, opts: SuiteOptions = {}): Promise<{ r: RunResult; ms: number }> {
  try {
    const t0 = performance.now();
    const r = await runSuite(protocol, { url: target.url, ...opts });
    return { r, ms: performance.now() - t0 };
  } finally {
    await target.close();
  }
}

/** A URL where nothing listens: a port opened and closed again. */
export async function closedPortUrl(): Promise<string> {
  const h = await serve(() => undefined);
  await h.close();
  return h.url;
}

/** Writes `write()` every `ms` until the client goes away. */
export function forever(res: http.ServerResponse, ms: number, write: () => void): void {
  const timer = setInterval(() => {
    if (res.destroyed || res.writableEnded) clearInterval(timer);
    else write();
  }, ms);
  res.on("close", () => clearInterval(timer));
}

// No CORS headers: a hostile target should earn no pass anywhere.
export const SSE_HEAD = { "content-type": "text/event-stream" };

/** Hostile answers, usable for every path or just for the stream. */
export const behaviours = {
  /** Sends a 200 head, then nothing, forever. */
  headersThenHang: ((_req, res) => {
    res.writeHead(200, SSE_HEAD);
    res.flushHeaders();
  }) as Handler,
  /** Streams random bytes (no line structure) forever. */
  garbageForever: ((_req, res) => {
    res.writeHead(200, SSE_HEAD);
    let seed = 7;
    forever(res, 1, () => {
      const chunk = Buffer.alloc(8192);
      for (let i = 0; i < chunk.length; i++) chunk[i] = (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
      res.write(chunk);
    });
  }) as Handler,
  /** Starts an event, then resets the connection in the middle of it. */
  resetMidEvent: ((_req, res) => {
    res.writeHead(200, SSE_HEAD);
    res.write('data: {"type": "tool_start", "id": "tc-1", "name": "echo", "args": {"text": "hi"}}\n\ndata: {"type": "te');
    setTimeout(() => res.socket?.resetAndDestroy(), 50);
  }) as Handler,
  /** Valid text events every 50 ms, never a sentinel, never the end. */
  neverEnds: ((_req, res) => {
    res.writeHead(200, SSE_HEAD);
    forever(res, 50, () => res.write('data: {"type": "text", "content": "and "}\n\n'));
  }) as Handler,
};

/**
 * A minimal, mostly well-behaved mcp-chat backend (one server, tool `echo`) whose POST
 * /chat/stream is `stream`: the JSON probes get through, so the stream checks meet the hostility.
 */
export function backendWithStream(stream: Handler): Handler {
  let connected: string | null = null;
  const tools = [{ name: "echo", description: "Echo the input back" }];
  return (req, res) => {
    const origin = req.headers.origin ?? "";
    const cors = origin === "http://localhost:3000" ? { "access-control-allow-origin": origin, "access-control-allow-credentials": "true" } : {};
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", ...cors });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? "/", "http://x");
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "", "access-control-allow-methods": "GET, POST" });
      res.end();
      return;
    }
    const path = url.pathname;
    if (path === "/servers") return json(200, [{ id: "echo", name: "Echo", path: "/echo.py" }]);
    if (path === "/status") return json(200, connected ? { connected: true, server_id: connected, tools } : { connected: false, server_id: null, tools: [] });
    if (path === "/disconnect") {
      connected = null;
      return json(200, { success: true });
    }
    if (path.startsWith("/connect/")) {
      const id = decodeURIComponent(path.slice("/connect/".length));
      if (id !== "echo") return json(404, { detail: `Server '${id}' not found` });
      connected = id;
      return json(200, { success: true, server_id: id, server_name: "Echo", tools });
    }
    if (path === "/chat/stream") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        let message: unknown;
        try {
          message = (JSON.parse(body) as { message?: unknown }).message;
        } catch {
          return json(400, { detail: "malformed JSON" });
        }
        if (typeof message !== "string") return json(422, { detail: "message must be a string" });
        if (!connected) return json(409, { detail: "Not connected" });
        stream(req, res);
      });
      return;
    }
    json(404, { detail: "Not Found" });
  };
}
