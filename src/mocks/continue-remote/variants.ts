/**
 * The §6 HTTP variants: the same JSON answers, sent in the other ways a client must cope with
 * (split bytes, slow bytes, layout, key order, unknown keys, headers, 304, gzip). Browser-safe.
 */
import { reply, type MockReply, type MockRequest } from "../../core/mock/exchange.js";

export const VARIANTS = [
  { name: "chunked", description: "the body split at arbitrary bytes, inside multi-byte characters too" },
  { name: "drip", description: "one byte every 5 ms" },
  { name: "pretty", description: "indented JSON" },
  { name: "shuffle-keys", description: "object keys in reverse order" },
  { name: "extra-fields", description: "unknown keys on the body and on each history entry" },
  { name: "no-charset", description: "Content-Type application/json without a charset" },
  { name: "etag", description: "a weak ETag, and 304 when If-None-Match matches" },
  { name: "connection-close", description: "Connection: close on every answer" },
  { name: "gzip", description: "gzip-encoded bodies" },
] as const;

export type ContinueRemoteVariant = (typeof VARIANTS)[number]["name"];

export function isVariant(name: string): name is ContinueRemoteVariant {
  return VARIANTS.some((v) => v.name === name);
}

const DRIP_MS = 5;
const CHUNK_BYTES = 7;

/** Whether `variant` sends the JSON text of the value as it is (the others rewrite the value or its layout). */
export function keepsText(variant: ContinueRemoteVariant | undefined): boolean {
  return variant !== "shuffle-keys" && variant !== "extra-fields" && variant !== "pretty";
}

/**
 * The JSON answer `content.value` with `status`, written as `variant` says. `content.text`, when
 * given, is the value's JSON text: used where the variant keeps the text, so the value (which may
 * be built only when read) is not read then.
 */
export function encodeAnswer(
  status: number,
  content: { readonly value: unknown; readonly text?: string },
  request: MockRequest,
  variant: ContinueRemoteVariant | undefined,
): MockReply {
  let text: string;
  if (content.text !== undefined && keepsText(variant)) text = content.text;
  else {
    let v = content.value;
    if (variant === "shuffle-keys") v = reverseKeys(v);
    if (variant === "extra-fields") v = withExtraFields(v);
    text = variant === "pretty" ? JSON.stringify(v, null, 2) : JSON.stringify(v);
  }
  const headers: Record<string, string> = {
    "content-type": variant === "no-charset" ? "application/json" : "application/json; charset=utf-8",
    "x-powered-by": "Express",
  };
  // Lower-case names already: no copy through reply().
  if (variant === undefined) return { status, headers, body: text };
  if (variant === "connection-close") headers.connection = "close";
  if (variant === "etag") {
    const tag = `W/"${fnv1a(text)}"`;
    headers.etag = tag;
    if (status === 200 && request.headers.get("if-none-match") === tag) return reply(304, { etag: tag });
  }
  if (variant !== "gzip" && variant !== "chunked" && variant !== "drip") return reply(status, headers, text);
  const bytes = new TextEncoder().encode(text);
  if (variant === "gzip") {
    headers["content-encoding"] = "gzip";
    const body = new Response(bytes).body?.pipeThrough(new CompressionStream("gzip"));
    return reply(status, headers, body ?? null);
  }
  if (variant === "chunked") return reply(status, headers, streamOf(splitBytes(bytes), 0));
  return reply(status, headers, streamOf([...bytes].map((b) => Uint8Array.of(b)), DRIP_MS));
}

/** Pieces of a few bytes, with a cut one byte into every multi-byte character (○ is E2 97 8B). */
export function splitBytes(bytes: Uint8Array): Uint8Array[] {
  const cuts = new Set<number>();
  for (let i = CHUNK_BYTES; i < bytes.length; i += CHUNK_BYTES) cuts.add(i);
  bytes.forEach((b, i) => {
    if (b >= 0xc0 && i + 1 < bytes.length) cuts.add(i + 1);
  });
  const out: Uint8Array[] = [];
  let from = 0;
  for (const at of [...cuts].sort((a, b) => a - b)) {
    out.push(bytes.slice(from, at));
    from = at;
  }
  out.push(bytes.slice(from));
  return out;
}

function streamOf(pieces: Uint8Array[], gapMs: number): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    async pull(controller) {
      if (i >= pieces.length) return controller.close();
      if (gapMs > 0 && i > 0) await new Promise((r) => setTimeout(r, gapMs));
      controller.enqueue(pieces[i++] as Uint8Array);
    },
  });
}

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (v && typeof v === "object") {
    return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reverseKeys(x)]));
  }
  return v;
}

/** Unknown keys where a client reads: the body, the session and each history entry (every object allows them). */
function withExtraFields(v: unknown): unknown {
  if (!v || typeof v !== "object" || Array.isArray(v)) return v;
  const o: Record<string, unknown> = { ...(v as Record<string, unknown>), agentwireExtra: { note: "ignore me" } };
  const mark = (list: unknown) => (Array.isArray(list) ? list.map((e) => ({ ...(e as object), agentwireExtra: 1 })) : list);
  if ("chatHistory" in o) o.chatHistory = mark(o.chatHistory);
  if (o.session && typeof o.session === "object") {
    const s = o.session as Record<string, unknown>;
    o.session = { ...s, agentwireExtra: true, history: mark(s.history) };
  }
  return o;
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${text.length.toString(16)}-${h.toString(16)}`;
}
