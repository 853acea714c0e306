/**
 * Serves a fetch-style handler, `(Request) => Promise<Response>`, on node:http. The mocks are
 * written once as such handlers so the node server and the msw handlers run the same engine.
 * Each chunk the Response body yields becomes one socket write, so framing and timing survive.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface ServeOptions {
  host?: string;
  port?: number;
  /** Largest request body accepted (bytes); larger requests get 413. */
  maxBodyBytes?: number;
}

export interface Served {
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

export async function serveFetch(handler: FetchHandler, options: ServeOptions = {}): Promise<Served> {
  const host = options.host ?? "127.0.0.1";
  const maxBody = options.maxBodyBytes ?? 1024 * 1024;
  const open = new Set<http.ServerResponse>();
  const controllers = new Set<AbortController>();

  const server = http.createServer({ noDelay: true }, (req, res) => {
    open.add(res);
    const abort = new AbortController();
    controllers.add(abort);
    res.on("close", () => {
      open.delete(res);
      controllers.delete(abort);
      abort.abort();
    });
    void respond(req, res, abort.signal).catch((err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: `mock error: ${(err as Error).message}` }));
      } else {
        res.destroy();
      }
    });
  });

  async function respond(req: http.IncomingMessage, res: http.ServerResponse, signal: AbortSignal) {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.byteLength;
      if (size > maxBody) {
        res.writeHead(413, { "content-type": "application/json" });
        res.end(JSON.stringify({ detail: `request body larger than ${maxBody} bytes` }));
        return;
      }
      chunks.push(c);
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const method = req.method ?? "GET";
    const body = chunks.length && method !== "GET" && method !== "HEAD" ? Buffer.concat(chunks) : undefined;
    const request = new Request(`http://${req.headers.host ?? host}${req.url ?? "/"}`, {
      method,
      headers,
      ...(body ? { body } : {}),
      signal,
    });
    const response = await handler(request);
    const outHeaders: Record<string, string | string[]> = {};
    response.headers.forEach((value, key) => {
      outHeaders[key] = value;
    });
    res.writeHead(response.status, outHeaders);
    if (!response.body) {
      res.end();
      return;
    }
    res.flushHeaders();
    const reader = response.body.getReader();
    try {
      for (;;) {
        if (signal.aborted) break;
        const { done, value } = await reader.read();
        if (done) break;
        // Wait for the kernel to take big writes, so memory stays flat on long streams.
        if (!res.write(value)) await new Promise<void>((r) => res.once("drain", () => r()));
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    res.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of controllers) c.abort();
        for (const r of open) r.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
