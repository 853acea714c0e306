/**
 * Serves a mock on node:http. The engines answer with replies (exchange.ts), written here straight
 * to the `ServerResponse` from the parsed node request: no Fetch Request, Headers or Response per
 * answer, and each paced write one chunk, so framing and timing survive. msw sends the same reply
 * as a Response. A fetch-style handler, `(Request) => Promise<Response>`, is served the same way
 * (`serveFetch`).
 */
import { clientErrorListener, type ErrorBody } from "./client-error.js";
import { fromResponse, isPaced, replyHeaders, toRequest, type MockHeaders, type MockReply, type MockRequest } from "./exchange.js";
import { takeOverPacedBody, type PacedSource, type TimedChunk } from "./paced-body.js";
import { PiecesChunk, TextChunk } from "./sse-writes.js";
import { sleep } from "./timing.js";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FetchHandler = (request: Request) => Promise<Response>;
export type ReplyHandler = (request: MockRequest) => Promise<MockReply>;

export type { ErrorBody };

/** FastAPI-style `{detail}`, the default shape. */
const detailBody: ErrorBody = (_status, message) => ({ detail: message });

/** Methods the Fetch API cannot carry; a mock answers them 405 rather than failing to build a Request. */
const UNSUPPORTED_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

export interface ServeOptions {
  host?: string;
  port?: number;
  /** Largest request body accepted (bytes); larger requests get 413. */
  maxBodyBytes?: number;
  /** Body of the errors answered here (400, 405, 413, 500, and what node's parser refuses); default `{detail}`. */
  errorBody?: ErrorBody;
}

export interface Served {
  url: string;
  port: number;
  server: http.Server;
  close(): Promise<void>;
}

/** A request the handler cannot take, the client's mistake: answered 400 with this message. */
class MalformedRequest extends Error {}

/** A fetch-style handler on node:http: the request built as a Fetch Request, its Response sent as a reply. */
export function serveFetch(handler: FetchHandler, options: ServeOptions = {}): Promise<Served> {
  return serveMock(async (mock) => {
    let request: Request;
    try {
      request = await toRequest(mock);
    } catch (e) {
      // What node's parser lets through but the Fetch API refuses is the client's mistake.
      throw new MalformedRequest(`malformed request: ${(e as Error).message}`);
    }
    return fromResponse(await handler(request));
  }, options);
}

export async function serveMock(handler: ReplyHandler, options: ServeOptions = {}): Promise<Served> {
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
    // Made when first asked for: most answers never wait on anything the client could cut short.
    let abort: AbortController | undefined;
    let cutShort = false;
    const signal = (): AbortSignal => {
      if (!abort) {
        abort = new AbortController();
        controllers.add(abort);
        if (cutShort) abort.abort();
      }
      return abort.signal;
    };
    res.on("close", () => {
      open.delete(res);
      // Only an answer cut short stops the handler: aborting after a finished one would build an
      // AbortError (and its stack) per request for nobody.
      cutShort = !res.writableFinished;
      if (!abort) return;
      controllers.delete(abort);
      if (cutShort) abort.abort();
    });
    void respond(req, res, signal).catch((err: unknown) => {
      // Whatever failed, only this response is lost: the server goes on serving.
      try {
        if (!res.headersSent) {
          if (err instanceof MalformedRequest) fail(res, 400, err.message);
          else fail(res, 500, `mock error: ${(err as Error).message}`);
        } else res.destroy();
      } catch {
        res.destroy();
      }
    });
  });
  // What node's parser refuses never reaches the handler: answered in the same shape.
  server.on("clientError", clientErrorListener(errorBody));

  async function respond(req: http.IncomingMessage, res: http.ServerResponse, signal: () => AbortSignal) {
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
    // A Host with user:password@ parses, but a Fetch Request refuses a URL with credentials.
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
    // Without a length or a transfer coding a request has no body (RFC 9112 §6.3): nothing to wait for.
    const bodiless = req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined;
    if (bodiless) req.resume();
    const chunks = bodiless ? [] : await readBody(req, maxBody);
    if (!chunks) return tooLarge();
    const body = chunks.length && method !== "GET" && method !== "HEAD" ? (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)) : undefined;
    const answer = await handler(new NodeRequest(method, url, req.headers, signal, body));
    const writing = writeReply(res, answer, signal);
    if (writing) await writing;
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

/**
 * Writes a reply: the head (in name order, as a Fetch Response sends it), then the body. A whole
 * body is written at once, with no promise; a streamed one returns the promise of its end.
 */
function writeReply(res: http.ServerResponse, answer: MockReply, signalOf: () => AbortSignal): Promise<void> | undefined {
  const head: Record<string, string> = {};
  for (const [k, v] of replyHeaders(answer)) head[k] = v;
  res.writeHead(answer.status, head);
  const body = answer.body;
  if (body === null) {
    res.end();
    return;
  }
  if (typeof body === "string" || body instanceof Uint8Array) {
    // Head and body in one write, with the Content-Length the head carries (see replyHeaders).
    res.end(body);
    return;
  }
  const signal = signalOf();
  const paced = isPaced(body) ? sourceOf(body.paced, body.closeDelay) : takeOverPacedBody(body);
  if (paced) return writePaced(res, paced, signal);
  return writeStream(res, body as ReadableStream<Uint8Array>, signal);
}

async function writeStream(res: http.ServerResponse, body: ReadableStream<Uint8Array>, signal: AbortSignal): Promise<void> {
  res.flushHeaders();
  const reader = body.getReader();
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

function sourceOf(chunks: Iterable<{ bytes: Uint8Array; delay: number }>, closeDelay: number): PacedSource {
  const it = chunks[Symbol.iterator]();
  let halted = false;
  return {
    next: () => (halted ? { done: true, value: undefined } : it.next()),
    closeDelay,
    stop: () => {
      if (halted) return;
      halted = true;
      it.return?.();
    },
  };
}

/**
 * Writes a mock's paced body straight to the socket: each chunk after its pause, waiting for the
 * kernel on big writes; zero pauses cost no timer. The head goes out alone only before a pause (or
 * a source that fails); otherwise it rides with the first write. A burst of zero-pause chunks goes
 * out as one socket write (see {@link ChunkBatch}): the bytes node's chunked encoding gives each.
 */
async function writePaced(res: http.ServerResponse, paced: PacedSource, signal: AbortSignal): Promise<void> {
  const batch = new ChunkBatch(res);
  // Before a pause: what is gathered goes out (the head with it), or the head alone.
  const flush = () => {
    batch.send();
    batch.head();
  };
  try {
    // The signal is read after each wait only: nothing aborts it between two waits.
    for (let go = !signal.aborted; go; ) {
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
        if (signal.aborted) break;
      }
      batch.add(next.value);
      // A bounded backlog: memory stays flat on a long stream, and a short answer is not held up
      // by one event-loop turn per batch.
      if (batch.full()) {
        batch.send();
        if (batch.backlog() >= MAX_BACKLOG) {
          await batch.drained();
          go = !signal.aborted;
        }
      }
    }
    batch.send();
  } catch (e) {
    flush();
    throw e;
  } finally {
    paced.stop();
  }
  res.end();
}

/** A batched write: text (encoded into the batch), bytes, or byte pieces copied in. */
type BatchPart = string | Uint8Array | PiecesChunk;

/**
 * Chunks in HTTP/1.1 chunked framing, one buffer of `size` bytes: `<hex length>\r\n<bytes>\r\n`
 * each, as node writes them (`sizes` holds each chunk's byte length).
 */
function framed(chunks: readonly BatchPart[], sizes: readonly number[], size: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < chunks.length; i++) {
    const c = chunks[i] as BatchPart;
    const n = sizes[i] as number;
    at = writeHex(out, at, n);
    out[at++] = 0x0d;
    out[at++] = 0x0a;
    if (typeof c === "string") out.write(c, at, "utf8");
    else if (c instanceof PiecesChunk) c.copyInto(out, at);
    else out.set(c, at);
    at += n;
    out[at++] = 0x0d;
    out[at++] = 0x0a;
  }
  return out;
}

const HEX = Buffer.from("0123456789abcdef", "latin1");

/** Digits of `n` in lowercase hex, as `n.toString(16)` (a chunk's length line). */
function hexDigits(n: number): number {
  let d = 1;
  // A chunk is far below 2^32 bytes: unsigned shifts are exact.
  while (n >= 16) {
    n >>>= 4;
    d++;
  }
  return d;
}

/** Writes `n` in lowercase hex at `at`; returns the offset after it. */
function writeHex(out: Buffer, at: number, n: number): number {
  const end = at + hexDigits(n);
  for (let i = end - 1; i >= at; i--) {
    out[i] = HEX[n & 15] as number;
    n >>>= 4;
  }
  return end;
}

/** Whether node frames this answer's writes as chunks (a chunked answer with a body: not to a HEAD). */
function chunked(res: http.ServerResponse): boolean {
  return (res as unknown as { chunkedEncoding?: boolean }).chunkedEncoding === true && res.req.method !== "HEAD";
}

/** Bytes gathered into one socket write before it goes out. */
const BATCH_BYTES = 64 * 1024;

/**
 * The chunks of a zero-pause burst, written together. On a chunked answer with its socket, as one
 * buffer framed as node frames each `res.write` (`<hex length>\r\n<bytes>\r\n`, empty chunks
 * skipped): the same bytes on the wire, without node's work per write (four queued pieces, a
 * length string). Otherwise (a socket not yet assigned, a HEAD) chunk by chunk through `res.write`.
 */
class ChunkBatch {
  private chunks: BatchPart[] = [];
  private sizes: number[] = [];
  private bytes = 0;
  /** The bytes of the batch framed as chunks. */
  private framedBytes = 0;
  /** Whether the head went to the socket (`headersSent` is true as soon as writeHead built it). */
  private headOut = false;

  constructor(private readonly res: http.ServerResponse) {}

  add(chunk: TimedChunk): void {
    // A text chunk goes in as its text, byte pieces as they are: copied once, into the batch's buffer.
    const c = chunk instanceof TextChunk ? chunk.text : chunk instanceof PiecesChunk ? chunk : chunk.bytes;
    const n = typeof c === "string" ? Buffer.byteLength(c, "utf8") : c.byteLength;
    if (n === 0) return;
    this.chunks.push(c);
    this.sizes.push(n);
    this.bytes += n;
    this.framedBytes += hexDigits(n) + 4 + n;
  }

  full(): boolean {
    return this.bytes >= BATCH_BYTES;
  }

  send(): void {
    const chunks = this.chunks;
    const sizes = this.sizes;
    const size = this.framedBytes;
    if (chunks.length === 0) return;
    this.chunks = [];
    this.sizes = [];
    this.bytes = 0;
    this.framedBytes = 0;
    const res = this.res;
    const socket = res.socket;
    // The head rides with the first batch.
    if (socket) socket.cork();
    try {
      this.head();
      const direct = socket !== null && chunked(res);
      if (direct) socket.write(framed(chunks, sizes, size));
      else for (const c of chunks) res.write(c instanceof PiecesChunk ? c.bytes : c);
    } finally {
      if (socket) socket.uncork();
    }
  }

  /** Sends the head, once. */
  head(): void {
    if (this.headOut) return;
    this.headOut = true;
    this.res.flushHeaders();
  }

  /** Bytes waiting in node for the kernel. */
  backlog(): number {
    return (this.res.socket?.writableLength ?? 0) + this.res.writableLength;
  }

  drained(): Promise<void> {
    const target = this.res.socket ?? this.res;
    return new Promise<void>((r) => target.once("drain", () => r()));
  }
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

const utf8 = new TextDecoder();

/** A node request as the engines read it: headers from node's parse, the body read once. */
class NodeRequest implements MockRequest {
  readonly headers: MockHeaders;
  readonly url: string;

  constructor(
    readonly method: string,
    readonly parsedUrl: URL,
    raw: http.IncomingHttpHeaders,
    private readonly signalOf: () => AbortSignal,
    private readonly body: Buffer | undefined,
  ) {
    this.headers = new NodeHeaders(raw);
    this.url = parsedUrl.href;
  }

  get signal(): AbortSignal {
    return this.signalOf();
  }

  text(): Promise<string> {
    // As Request.text(): UTF-8, a leading BOM dropped.
    return Promise.resolve(this.body ? utf8.decode(this.body) : "");
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const b = this.body;
    return Promise.resolve(b ? (b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer) : new ArrayBuffer(0));
  }

  clone(): MockRequest {
    // The body is held whole: reading it again is free.
    return this;
  }
}

class NodeHeaders implements MockHeaders {
  constructor(private readonly raw: http.IncomingHttpHeaders) {}

  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
  }

  forEach(fn: (value: string, key: string) => void): void {
    for (const k of Object.keys(this.raw).sort()) {
      const v = this.get(k);
      if (v !== null) fn(v, k);
    }
  }
}
