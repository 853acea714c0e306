/**
 * Serves a fetch-style handler, `(Request) => Promise<Response>`, on node:http. The mocks are
 * written once as such handlers so the node server and the msw handlers run the same engine.
 * Each chunk the Response body yields becomes one socket write, so framing and timing survive.
 */
import { takeOverPacedBody, type PacedSource } from "./paced-body.js";
import { sleep } from "./timing.js";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FetchHandler = (request: Request) => Promise<Response>;

/** The JSON body of an error the server answers itself, in the protocol's own error shape. */
export type ErrorBody = (status: number, message: string) => unknown;

/** FastAPI-style `{detail}`, the default shape. */
const detailBody: ErrorBody = (_status, message) => ({ detail: message });

/** Methods the Fetch API cannot carry; a mock answers them 405 rather than failing to build a Request. */
const UNSUPPORTED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

export interface ServeOptions {
  host?: string;
  port?: number;
  /** Largest request body accepted (bytes); larger requests get 413. */
  maxBodyBytes?: number;
  /** Body of the errors answered here (400, 405, 413, 500); default `{detail}`. */
  errorBody?: ErrorBody;
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
  const errorBody = options.errorBody ?? detailBody;
  const fail = (res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    const body = JSON.stringify(errorBody(status, message));
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers });
    res.end(body);
  };
  const open = new Set<http.ServerResponse>();
  const controllers = new Set<AbortController>();

  const server = http.createServer({ noDelay: true }, (req, res) => {
    open.add(res);
    const abort = new AbortController();
    controllers.add(abort);
    res.on("close", () => {
      open.delete(res);
      controllers.delete(abort);
      // Only an answer cut short stops the handler: aborting after a finished one would build an
      // AbortError (and its stack) per request for nobody.
      if (!res.writableFinished) abort.abort();
    });
    void respond(req, res, abort.signal).catch((err: unknown) => {
      // Whatever failed, only this response is lost: the server goes on serving.
      try {
        if (!res.headersSent) fail(res, 500, `mock error: ${(err as Error).message}`);
        else res.destroy();
      } catch {
        res.destroy();
      }
    });
  });

  async function respond(req: http.IncomingMessage, res: http.ServerResponse, signal: AbortSignal) {
    const method = req.method ?? "GET";
    if (UNSUPPORTED_METHODS.has(method)) {
      fail(res, 405, `method ${method} is not allowed`, { allow: "GET, HEAD, POST, OPTIONS" });
      return;
    }
    let url: URL | undefined;
    try {
      url = new URL(`http://${req.headers.host ?? host}${req.url ?? "/"}`);
    } catch {
      // Left undefined: answered 400 below.
    }
    // A Host with user:password@ parses, but a Request refuses a URL with credentials.
    if (!url || url.username || url.password) {
      fail(res, 400, "malformed Host header or request target");
      return;
    }
    const tooLarge = () => {
      // The rest of the body is not read: the connection closes once the answer is out.
      fail(res, 413, `request body larger than ${maxBody} bytes`, { connection: "close" });
    };
    // A declared length over the cap is refused before a byte of the body is read.
    if (Number(req.headers["content-length"] ?? 0) > maxBody) return tooLarge();
    const chunks = await readBody(req, maxBody);
    if (!chunks) return tooLarge();
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v === undefined) continue;
      for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
    }
    const body = chunks.length && method !== "GET" && method !== "HEAD" ? Buffer.concat(chunks) : undefined;
    let request: Request;
    try {
      request = new Request(url, { method, headers, ...(body ? { body } : {}), signal });
    } catch (e) {
      // What node's parser lets through but the Fetch API refuses is the client's mistake.
      fail(res, 400, `malformed request: ${(e as Error).message}`);
      return;
    }
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
    const paced = takeOverPacedBody(response.body);
    if (paced) {
      await writePaced(res, paced, signal);
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
        if (!res.write(value) && res.writableLength >= MAX_BACKLOG) await drained(res);
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
  // Node loads the Fetch API classes (undici, tens of ms) on first use: have them load while the
  // first client connects (after the caller has told the URL), not inside its first answer.
  setImmediate(() => void Headers);
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

/**
 * Writes a mock's paced body straight to the socket: each chunk after its pause, one write each,
 * waiting for the kernel on big writes; zero pauses cost no timer. The head goes out alone only
 * before a pause (or a source that fails); otherwise it rides with the first write.
 */
async function writePaced(res: http.ServerResponse, paced: PacedSource, signal: AbortSignal): Promise<void> {
  let flushed = false;
  const flush = () => {
    if (flushed) return;
    flushed = true;
    res.flushHeaders();
  };
  try {
    for (;;) {
      if (signal.aborted) break;
      // A source that throws (a fault that drops the connection) propagates: the caller resets,
      // after the head, as when the head went out first.
      const next = paced.next();
      if (next.done) {
        if (paced.closeDelay > 0) {
          flush();
          await sleep(paced.closeDelay, signal);
        }
        break;
      }
      if (next.value.delay > 0) {
        flush();
        await sleep(next.value.delay, signal);
      }
      if (signal.aborted) break;
      flushed = true;
      // Past the socket's high-water mark the writes queue in node and go out together (one writev),
      // so a zero-pause burst waits only when a bounded backlog builds up: memory stays flat on a
      // long stream, and a short answer is not held up by one event-loop turn per 16 KiB.
      if (!res.write(next.value.bytes) && res.writableLength >= MAX_BACKLOG) await drained(res);
    }
  } catch (e) {
    flush();
    throw e;
  } finally {
    paced.stop();
  }
  res.end();
}

/** Bytes a response may queue in node before its writer waits for the kernel to take them. */
const MAX_BACKLOG = 1024 * 1024;

function drained(res: http.ServerResponse): Promise<void> {
  return new Promise<void>((r) => res.once("drain", () => r()));
}

/** The request body's chunks, or undefined once it outgrows `max` (the rest is left unread). */
function readBody(req: http.IncomingMessage, max: number): Promise<Buffer[] | undefined> {
  // Events, not an async iterator: this runs for every request, and most bodies are one chunk.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.byteLength;
      if (size > max) {
        req.off("data", onData);
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    };
    req.on("data", onData);
    req.once("end", () => resolve(chunks));
    req.once("error", reject);
    // A client gone before the end of its body sent no request to answer.
    req.once("close", () => (req.complete ? resolve(chunks) : reject(new Error("the client closed the connection before the end of its request body"))));
  });
}
