import { createParser } from "eventsource-parser";
import { createMcpChatEngine } from "../../../src/mocks/mcp-chat/engine.js";
import type { McpChatMockOptions } from "../../../src/mocks/mcp-chat/options.js";

/** Timing small enough for fast tests that are not about timing. */
export const FAST: McpChatMockOptions = { firstEventDelay: 0, eventDelay: 0, toolDuration: 0 };

export const ORIGIN = "http://localhost:3000";
export const BASE = "http://localhost:8000";

export async function readChunks(body: ReadableStream<Uint8Array> | null): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  if (!body) return out;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}

export function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export const utf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/**
 * Event data as a WHATWG parser sees them, fed chunk by chunk through a streaming decoder.
 * eventsource-parser holds a CR at the end of its input (an LF might follow), so at EOF a final
 * CR is completed with an LF: at end of stream a lone CR is a complete line end.
 */
export function sseData(chunks: Uint8Array[]): string[] {
  const data: string[] = [];
  const parser = createParser({ onEvent: (e) => data.push(e.data) });
  const decoder = new TextDecoder();
  let last = "";
  for (const c of chunks) {
    const text = decoder.decode(c, { stream: true });
    if (text) last = text;
    parser.feed(text);
  }
  parser.feed(decoder.decode());
  if (last.endsWith("\r")) parser.feed("\n");
  return data;
}

/** Canonical body → payloads (asserting the canonical shape on the way). */
export function canonicalPayloads(text: string): string[] {
  if (!text.endsWith("\n\n")) throw new Error(`not canonical: ${JSON.stringify(text.slice(-20))}`);
  return text
    .slice(0, -2)
    .split("\n\n")
    .map((e) => {
      if (!e.startsWith("data: ") || e.includes("\n")) throw new Error(`not canonical: ${JSON.stringify(e)}`);
      return e.slice(6);
    });
}

export const parsed = (payloads: string[]) => payloads.map((p) => (p.startsWith("[") ? p : JSON.parse(p)));

export function engine(options: McpChatMockOptions = {}) {
  return createMcpChatEngine({ ...FAST, ...options });
}

export type Engine = ReturnType<typeof engine>;

export function req(path: string, init: RequestInit & { json?: unknown } = {}): Request {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  return new Request(BASE + path, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
}

export async function chat(e: Engine, message = "hi", init: RequestInit = {}, path = "/chat/stream") {
  const res = await e.handle(req(path, { method: "POST", json: { message }, ...init }));
  const chunks = await readChunks(res.body);
  return { res, chunks, text: utf8(concat(chunks)) };
}

export async function connect(e: Engine, id = "weather") {
  const res = await e.handle(req(`/connect/${encodeURIComponent(id)}`, { method: "POST" }));
  return { res, body: (await res.json()) as Record<string, unknown> };
}

export async function status(e: Engine) {
  return (await (await e.handle(req("/status"))).json()) as Record<string, unknown>;
}
