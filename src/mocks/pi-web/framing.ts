/**
 * Framing variants (§6): every one is valid WebSocket and valid JSON; they differ in how a
 * message is cut into frames and written as text. `canonical` is compact JSON, one text frame per
 * message. Fragmentation and pings need a real socket: the msw transport ignores them.
 */
import type { NamedItem } from "../../core/run/protocol.js";
import { knownJson } from "./partial-json.js";
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

/** One message as text in the given format. */
export function encodeJson(value: Json, format: WireFormat): string {
  let v = value;
  if (format.largeFrames && v.type === "message_update") {
    const u = v.assistantMessageEvent as Json | undefined;
    if (typeof u?.type === "string" && u.type.endsWith("_start")) {
      v = { ...v, details: { padding: "x".repeat(LARGE_PADDING) } };
    }
  }
  const text = format.pretty ? JSON.stringify(v, null, 2) : compact(v);
  return format.escapeUnicode ? text.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : text;
}

const SLOT = "\u0000agentwire:partial\u0000";
const SLOT_JSON = JSON.stringify(SLOT);

/**
 * `JSON.stringify(v)`. A message_update carries its partial message twice (`message` and `assistantMessageEvent.partial`,
 * one object, as pi does): the partial grows with the reply, so it is written once and copied into both places.
 */
function compact(v: Json): string {
  const m = v.message;
  const e = v.assistantMessageEvent as Json | undefined;
  if (v.type !== "message_update" || typeof m !== "object" || m === null || e?.partial !== m) return JSON.stringify(v);
  const around = JSON.stringify({ ...v, message: SLOT, assistantMessageEvent: { ...e, partial: SLOT } }).split(SLOT_JSON);
  // The slot's text elsewhere in the message (it never is, but a reply may say anything): write it the plain way.
  if (around.length !== 3) return JSON.stringify(v);
  // The stream built the snapshot's text as the message grew (partial-json.ts).
  const one = knownJson(m) ?? JSON.stringify(m);
  return around[0] + one + around[1] + one + around[2];
}
