/**
 * Framing variants (§6): every one is valid WebSocket and valid JSON; they differ in how a
 * message is cut into frames and written as text. `canonical` is compact JSON, one text frame per
 * message. Fragmentation and pings need a real socket: the msw transport ignores them.
 */
import type { NamedItem } from "../../core/run/protocol.js";
import { copyPieces, knownJson, piecesLength, piecesText, type JsonPieces } from "./partial-json.js";
import type { Json } from "./types.js";

export interface WireFormat {
  /** Continuation frames of this many bytes (0 = whole messages). May split UTF-8 sequences. */
  fragment: number;
  /** Multi-line JSON (2-space indent). */
  pretty: boolean;
  /** Every non-ASCII character as \uXXXX. */
  escapeUnicode: boolean;
  /** Server pings every n ms (0 = none, the contract's default). */
  pingInterval: number;
  /** Pads some message_update events past 1 MiB (top-level `details.padding`). */
  largeFrames: boolean;
}

export interface PiWebFraming extends NamedItem {
  format: Partial<WireFormat>;
}

export const CANONICAL_FORMAT: WireFormat = {
  fragment: 0,
  pretty: false,
  escapeUnicode: false,
  pingInterval: 0,
  largeFrames: false,
};

export const DEFAULT_FRAGMENT = 7;
export const DEFAULT_PING_INTERVAL = 1000;
/** Padding that takes an update past 1 MiB. */
export const LARGE_PADDING = 1024 * 1024 + 1024;

export const FRAMINGS: readonly PiWebFraming[] = [
  { name: "canonical", description: "Compact JSON, one text frame per message", format: {} },
  {
    name: "fragment",
    description: `Each message in continuation frames of ${DEFAULT_FRAGMENT} bytes (splits UTF-8 sequences; node mock only)`,
    format: { fragment: DEFAULT_FRAGMENT },
  },
  { name: "pretty", description: "Pretty-printed, multi-line JSON", format: { pretty: true } },
  { name: "escape-unicode", description: "Non-ASCII escaped as \\uXXXX (U+2028/2029 included)", format: { escapeUnicode: true } },
  {
    name: "ping",
    description: `A WebSocket ping every ${DEFAULT_PING_INTERVAL} ms (node mock only)`,
    format: { pingInterval: DEFAULT_PING_INTERVAL },
  },
  {
    name: "large-frames",
    description: "The *_start update of every content block is padded past 1 MiB via a top-level details.padding",
    format: { largeFrames: true },
  },
];

export const DEFAULT_FRAMING = "canonical";

export function findFraming(name: string): PiWebFraming | undefined {
  return FRAMINGS.find((f) => f.name === name);
}

/** The format of a list of framing names on top of a base format. */
export function formatOf(base: WireFormat, names: readonly string[]): WireFormat {
  const out = { ...base };
  for (const n of names) Object.assign(out, findFraming(n)?.format ?? {});
  return out;
}

const NON_ASCII = /[\u0080-\uffff]/g;

/** A text message as its UTF-8 bytes; `text` decodes them when something needs the string. */
export class Utf8Text {
  private decoded: string | undefined;
  constructor(readonly bytes: Uint8Array) {}
  get text(): string {
    return (this.decoded ??= decoder.decode(this.bytes));
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
/** Node's Buffer allocates without zero-filling (short ones from a shared pool); browsers (msw) have none. */
const NodeBuffer = (globalThis as { Buffer?: { allocUnsafe(size: number): Uint8Array } }).Buffer;

/** One message as text in the given format. */
export function encodeJson(value: Json, format: WireFormat): string {
  const v = padded(value, format);
  const text = format.pretty ? JSON.stringify(v, null, 2) : compact(v);
  return format.escapeUnicode ? text.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : text;
}

/**
 * An event in the given format: a message_update whose partial the stream built as UTF-8
 * (partial-json.ts) is put together as bytes, the same bytes `encodeJson` would give; the rest as text.
 */
export function encodeEvent(value: Json, format: WireFormat): string | Utf8Text {
  if (format.pretty || format.escapeUnicode) return encodeJson(value, format);
  const v = padded(value, format);
  const shared = sharedPartial(v);
  const pieces = shared && knownJson(shared.message);
  if (!shared || !pieces) return compact(v);
  const [a, b, c] = shared.around;
  const size = 3 * (a.length + b.length + c.length) + 2 * piecesLength(pieces);
  const out = NodeBuffer ? NodeBuffer.allocUnsafe(size) : new Uint8Array(size);
  let at = encoder.encodeInto(a, out).written;
  at = copyPieces(pieces, out, at);
  at += encoder.encodeInto(b, out.subarray(at)).written;
  at = copyPieces(pieces, out, at);
  at += encoder.encodeInto(c, out.subarray(at)).written;
  return new Utf8Text(out.subarray(0, at));
}

/** large-frames: the *_start update of a block padded past 1 MiB. */
function padded(v: Json, format: WireFormat): Json {
  if (format.largeFrames && v.type === "message_update") {
    const u = v.assistantMessageEvent as Json | undefined;
    if (typeof u?.type === "string" && u.type.endsWith("_start")) return { ...v, details: { padding: "x".repeat(LARGE_PADDING) } };
  }
  return v;
}

const SLOT = "\u0000agentwire:partial\u0000";
const SLOT_JSON = JSON.stringify(SLOT);

/**
 * A message_update carries its partial message twice (`message` and `assistantMessageEvent.partial`,
 * one object, as pi does): the partial grows with the reply, so it is written once and copied into
 * both places. This is the update's text around the two places, and the partial.
 */
function sharedPartial(v: Json): { around: [string, string, string]; message: Json } | undefined {
  const m = v.message;
  const e = v.assistantMessageEvent as Json | undefined;
  if (v.type !== "message_update" || typeof m !== "object" || m === null || e?.partial !== m) return undefined;
  const plain = plainUpdate(v, e);
  if (plain) return { around: plain, message: m as Json };
  const around = JSON.stringify({ ...v, message: SLOT, assistantMessageEvent: { ...e, partial: SLOT } }).split(SLOT_JSON);
  // The slot's text elsewhere in the message (it never is, but a reply may say anything): written the plain way.
  return around.length === 3 ? { around: around as [string, string, string], message: m as Json } : undefined;
}

const UPDATE_HEAD = '{"type":"message_update","message":';

/**
 * The text around the partial of an update as the stream emits it (these three keys in this
 * order, `partial` last in the event), without a stringify of stand-ins and a search for them.
 */
function plainUpdate(v: Json, e: Json): [string, string, string] | undefined {
  const keys = Object.keys(v);
  if (keys.length !== 3 || keys[0] !== "type" || keys[1] !== "message" || keys[2] !== "assistantMessageEvent") return undefined;
  const eventKeys = Object.keys(e);
  if (eventKeys[eventKeys.length - 1] !== "partial") return undefined;
  const { partial: _, ...rest } = e;
  const event = JSON.stringify(rest);
  return [UPDATE_HEAD, `,"assistantMessageEvent":${event.length > 2 ? `${event.slice(0, -1)},` : "{"}"partial":`, "}}"];
}

/** `JSON.stringify(v)`, a message_update's partial written once (and taken from the stream when it built it). */
function compact(v: Json): string {
  const shared = sharedPartial(v);
  if (!shared) return JSON.stringify(v);
  const pieces: JsonPieces | undefined = knownJson(shared.message);
  const one = pieces ? piecesText(pieces) : JSON.stringify(shared.message);
  const [a, b, c] = shared.around;
  return a + one + b + one + c;
}
