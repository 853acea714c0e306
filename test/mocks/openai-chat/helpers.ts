import { createParser } from "eventsource-parser";
import { createOpenaiChatEngine } from "../../../src/mocks/openai-chat/engine.js";
import { OPENAI_CHAT_CATALOGUES } from "../../../src/mocks/openai-chat/index.js";
import type { OpenaiChatMockOptions } from "../../../src/mocks/openai-chat/options.js";

/** Pacing small enough for tests that are not about timing, and a fixed `created`. */
export const FAST: OpenaiChatMockOptions = { ttftMs: 0, chunkDelayMs: 0, created: 1_700_000_000 };

export const BASE = "http://localhost:8000/v1";
export const MODEL = "agentwire-mock";

export type Json = Record<string, unknown>;

/** The seed catalogue's tools as the kit's probes offer them (disabled ones left out). */
export const SEED_TOOLS = (OPENAI_CHAT_CATALOGUES[0]?.tools ?? [])
  .filter((t) => t.policy !== "disabled")
  .map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));

export const user = (content: string) => ({ role: "user", content });

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

/** Event data as a WHATWG parser sees them, fed chunk by chunk through a streaming decoder. */
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

export const parsed = (payloads: string[]): (Json | string)[] =>
  payloads.map((p) => (p === "[DONE]" ? p : (JSON.parse(p) as Json)));

export function engine(options: OpenaiChatMockOptions = {}) {
  return createOpenaiChatEngine({ ...FAST, ...options });
}

export type Engine = ReturnType<typeof engine>;

export function req(path: string, init: RequestInit & { json?: unknown } = {}): Request {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  return new Request(BASE + path, { ...rest, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
}

/** POSTs a chat completion request (model and a user message filled in unless given). */
export async function complete(e: Engine, body: Json, init: RequestInit = {}, path = "/chat/completions") {
  const full = { model: MODEL, messages: [user("hi")], ...body };
  const res = await e.handle(req(path, { method: "POST", json: full, ...init }));
  const chunks = await readChunks(res.body);
  const text = utf8(concat(chunks));
  return { res, chunks, text };
}

/** A streamed completion, its canonical payloads parsed (chunks as objects, "[DONE]" as is). */
export async function stream(e: Engine, body: Json, init: RequestInit = {}, path?: string) {
  const r = await complete(e, { stream: true, ...body }, init, path);
  return { ...r, events: parsed(canonicalPayloads(r.text)) };
}

export const chunkObjects = (events: (Json | string)[]) => events.filter((e): e is Json => typeof e === "object");

export const deltas = (events: (Json | string)[]) =>
  chunkObjects(events)
    .filter((c) => Array.isArray(c.choices) && c.choices.length > 0)
    .map((c) => ((c.choices as Json[])[0] as Json).delta as Json);

export const toolDeltas = (events: (Json | string)[]) =>
  deltas(events).flatMap((d) => (Array.isArray(d.tool_calls) ? (d.tool_calls as Json[]) : []));

export const finishReasons = (events: (Json | string)[]) =>
  chunkObjects(events)
    .filter((c) => Array.isArray(c.choices) && c.choices.length > 0)
    .map((c) => ((c.choices as Json[])[0] as Json).finish_reason);

export const contentText = (events: (Json | string)[]) =>
  deltas(events)
    .map((d) => (typeof d.content === "string" ? d.content : ""))
    .join("");

/** Calls assembled the spec way: per index, identity from the first delta, arguments joined. */
export function assemble(events: (Json | string)[]): { id: string; name: string; arguments: string }[] {
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const t of toolDeltas(events)) {
    const i = t.index as number;
    const f = (t.function ?? {}) as Json;
    calls[i] ??= { id: String(t.id ?? ""), name: String(f.name ?? ""), arguments: "" };
    calls[i].arguments += typeof f.arguments === "string" ? f.arguments : "";
  }
  return calls;
}

/** A forced-function request as the suite's P6 sends it. */
export const forcedRead = {
  tools: SEED_TOOLS,
  tool_choice: { type: "function", function: { name: "read_file" } },
  parallel_tool_calls: false,
  messages: [user('Read the file README.md.\ncall read_file {"filepath":"README.md"}')],
};

/** A text request with usage, as the suite's P4 sends it. */
export const textStream = {
  stream: true,
  stream_options: { include_usage: true },
  messages: [user("Count from 1 to 30, separated by spaces.")],
};
