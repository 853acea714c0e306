/**
 * What an HTTP mock engine reads of a request and what it answers, without the Fetch API classes.
 * A Fetch `Request` is a `MockRequest` as it is (msw, tests); the node server passes a lighter one
 * read straight from node:http, and writes a `MockReply` straight to the socket, so a node mock
 * builds no Request, Headers or Response per answer (nor loads undici for its first one). The
 * engines describe their answers once, as replies; `toResponse` turns one into the Response msw
 * sends, with the bytes the node server writes. Browser-safe.
 */
import { pacedBody, type TimedChunk } from "./paced-body.js";

export interface MockHeaders {
  /** The value of a header (repeated ones joined with ", "), or null. */
  get(name: string): string | null;
  /** Every header, names lower-case, in name order (as Fetch Headers iterate). */
  forEach(fn: (value: string, key: string) => void): void;
}

export interface MockRequest {
  readonly method: string;
  /** The absolute URL. */
  readonly url: string;
  /** `url` parsed, when the server parsed it already (node): read it, never change it. */
  readonly parsedUrl?: URL;
  readonly headers: MockHeaders;
  /** Aborts when the client goes away. */
  readonly signal: AbortSignal;
  /** The body decoded as UTF-8 (a BOM dropped), "" when none. */
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
  /** A request whose body can be read again. */
  clone(): MockRequest;
}

/** A body written chunk by chunk, each after its pause (see paced-body.ts). */
export interface PacedReplyBody {
  readonly paced: Iterable<TimedChunk>;
  /** The pause after the last write before the body ends (ms). */
  readonly closeDelay: number;
}

export type ReplyBody = string | Uint8Array | ReadableStream<Uint8Array> | PacedReplyBody | null;

export interface MockReply {
  status: number;
  /** Header names lower-case; a mock may still set or replace one before the reply is sent. */
  headers: Record<string, string>;
  body: ReplyBody;
}

/** What a Fetch Response adds to a text body sent without a Content-Type. */
export const TEXT_CONTENT_TYPE = "text/plain;charset=UTF-8";

export function reply(status: number, headers: Record<string, string>, body: ReplyBody = null): MockReply {
  const lower: Record<string, string> = {};
  for (const k in headers) lower[k.toLowerCase()] = headers[k] as string;
  return { status, headers: lower, body };
}

export function isPaced(body: ReplyBody): body is PacedReplyBody {
  return body !== null && typeof body === "object" && "paced" in body;
}

/** The reply as a Fetch Response (msw, tests); `signal` stops a paced body when the client goes away. */
export function toResponse(r: MockReply, signal?: AbortSignal): Response {
  const body = isPaced(r.body) ? pacedBody(r.body.paced, r.body.closeDelay, signal) : r.body;
  const length = wholeLength(r);
  return new Response(body as BodyInit | null, { status: r.status, headers: length === undefined ? r.headers : { ...r.headers, "content-length": length } });
}

/**
 * The Content-Length a whole body (text or bytes) goes out with, unless the reply names its own
 * length or transfer coding: a JSON answer of a real server carries its length, and a client reads
 * it with one parse instead of chunk frames. A streamed body has none.
 */
function wholeLength(r: MockReply): string | undefined {
  const body = r.body;
  if (typeof body !== "string" && !(body instanceof Uint8Array)) return undefined;
  // An answer that has no body by its status says no length either (RFC 9110 §8.6).
  if (r.status < 200 || r.status === 204 || r.status === 304) return undefined;
  for (const k in r.headers) {
    const name = k.toLowerCase();
    if (name === "content-length" || name === "transfer-encoding") return undefined;
  }
  return String(typeof body === "string" ? utf8Length(body) : body.byteLength);
}

/** Bytes of `text` in UTF-8 (a lone surrogate is sent as U+FFFD, three bytes). */
export function utf8Length(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2;
      i++;
    } else n += 2;
  }
  return n;
}

/** A Response (an extension route's) as a reply. */
export function fromResponse(response: Response): MockReply {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { status: response.status, headers, body: response.body };
}

/** The request as a Fetch Request, for code written on the Fetch API (extension routes). */
export function toRequest(request: MockRequest): Promise<Request> | Request {
  if (request instanceof Request) return request;
  return (async () => {
    const headers = new Headers();
    request.headers.forEach((value, key) => headers.append(key, value));
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.clone().arrayBuffer();
    return new Request(request.url, { method: request.method, headers, signal: request.signal, ...(body?.byteLength ? { body } : {}) });
  })();
}

const HTTP_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

/**
 * The headers a reply goes out with, in name order, as a Fetch Response would send them: a text
 * body without a Content-Type gets the one Response adds. The node server and the recorders read
 * these, so both paths send and record the same head.
 */
export function replyHeaders(r: MockReply): [string, string][] {
  const out: [string, string][] = [];
  let typed = false;
  for (const k in r.headers) {
    const name = k.toLowerCase();
    // Two names that differ only in case are one header: joined as Headers joins them.
    if (name !== k) return joinedHeaders(r);
    if (name === "content-type") typed = true;
    out.push([name, normalised(r.headers[k] as string)]);
  }
  if (typeof r.body === "string" && !typed) out.push(["content-type", TEXT_CONTENT_TYPE]);
  const length = wholeLength(r);
  if (length !== undefined) out.push(["content-length", length]);
  return out.sort(byHeaderName);
}

/** `replyHeaders` for headers whose names are not all lower-case. */
function joinedHeaders(r: MockReply): [string, string][] {
  const byName = new Map<string, string>();
  for (const k in r.headers) {
    const name = k.toLowerCase();
    const value = normalised(r.headers[k] as string);
    const had = byName.get(name);
    byName.set(name, had === undefined ? value : `${had}, ${value}`);
  }
  if (typeof r.body === "string" && !byName.has("content-type")) byName.set("content-type", TEXT_CONTENT_TYPE);
  const length = wholeLength(r);
  if (length !== undefined) byName.set("content-length", length);
  return [...byName].sort(byHeaderName);
}

/** As Headers normalises a value: leading and trailing HTTP whitespace dropped. */
function normalised(value: string): string {
  const v = String(value);
  return isHttpWhitespace(v.charCodeAt(0)) || isHttpWhitespace(v.charCodeAt(v.length - 1)) ? v.replace(HTTP_WHITESPACE, "") : v;
}

function isHttpWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function byHeaderName(a: [string, string], b: [string, string]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

/** The reply's status and head as a recorder reads them. */
export function replyHead(r: MockReply): { status: number; headers: Pick<MockHeaders, "forEach"> } {
  return { status: r.status, headers: { forEach: (fn) => replyHeaders(r).forEach(([k, v]) => fn(v, k)) } };
}
