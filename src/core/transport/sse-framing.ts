/**
 * Renders SSE payloads (the data of each event) into the bytes a server writes, either in the
 * canonical form (`data: <payload>\n\n`, one write per event) or in one of the valid but unusual
 * framings that proxies and libraries produce, which robust clients must survive.
 *
 * A variant is data, not code: line ending, data-field prefix, lines written before an event,
 * how a payload becomes data lines, a preamble, and how the bytes are cut into writes. Faults can
 * override single fields of a variant (e.g. only the line ending) and compose with it.
 *
 * Protocol-agnostic and browser-safe (no node imports). Timing between writes is the caller's job.
 */
import type { NamedItem } from "../run/protocol.js";
import { seededRandom } from "../mock/timing.js";

/** The data of one event; bytes allow faults that must send invalid UTF-8. */
export type SsePayload = string | Uint8Array;

export type LineEnd = "\n" | "\r\n" | "\r";

/** How the framed bytes are cut into writes (see {@link CHUNKERS}). */
export type ChunkingName = "event" | "whole" | "bytes" | "random" | "utf8" | "cr-lf";

export interface SseFormat {
  /** Line end, or a rotation of line ends applied line by line over the whole stream. */
  eol: LineEnd | readonly LineEnd[];
  /** Prefix of a data line: "data: " canonically. */
  dataPrefix: string;
  /** Splits one payload into the values of its data lines. */
  dataLines: (payload: string) => string[];
  /** Lines (without terminator) written before the data lines of event `index`. */
  linesBefore?: (index: number) => string[];
  /** Bytes written once, at the very start of the stream. */
  preamble?: Uint8Array;
  /** The last event ends after its last data line, without the blank line. */
  noFinalBlank?: boolean;
  chunking: ChunkingName;
}

export interface SseFramingVariant extends NamedItem, Partial<SseFormat> {}

export const CANONICAL_SSE_FORMAT: SseFormat = {
  eol: "\n",
  dataPrefix: "data: ",
  // Written raw, as the reference servers do: a payload with a newline stays a broken line.
  dataLines: (payload) => [payload],
  chunking: "event",
};

const PADDING = "agentwire keep-alive padding; ";
/** One comment line of exactly 2048 bytes, ": " included. */
const BIG_COMMENT = ": " + PADDING.repeat(Math.ceil(2046 / PADDING.length)).slice(0, 2046);

/** Every framing variant, canonical first. */
export const SSE_FRAMINGS: readonly SseFramingVariant[] = [
  { name: "canonical", description: "LF line ends, `data: ` with one space, one write per event" },
  { name: "split-1", description: "Canonical bytes delivered one byte per write", chunking: "bytes" },
  {
    name: "split-random",
    description: "Canonical bytes cut at seeded random places, chunks crossing event boundaries",
    chunking: "random",
  },
  {
    name: "split-utf8",
    description: "Writes cut inside every multi-byte UTF-8 character (2-, 3- and 4-byte)",
    chunking: "utf8",
  },
  {
    name: "split-crlf",
    description: "CRLF line ends, with writes cut between each CR and its LF",
    eol: "\r\n",
    chunking: "cr-lf",
  },
  { name: "coalesced", description: "The whole stream in a single write", chunking: "whole" },
  { name: "crlf", description: "CRLF line ends", eol: "\r\n" },
  { name: "cr", description: "CR-only line ends", eol: "\r" },
  // Order matters: a CR followed by an LF-ended line would read as one CRLF, so LF never follows CR.
  { name: "mixed-eol", description: "Line ends rotating CRLF, LF, CR", eol: ["\r\n", "\n", "\r"] },
  { name: "no-space", description: "`data:` without the optional space", dataPrefix: "data:" },
  {
    name: "comments",
    description: "A `: ping` comment before every event and one 2 KB comment before the first",
    linesBefore: (index) => (index === 0 ? [": ping", BIG_COMMENT] : [": ping"]),
  },
  {
    name: "multiline-data",
    description: "JSON payloads spread over several `data:` lines (joined with LF they parse the same)",
    dataLines: splitJsonLines,
  },
  {
    name: "extra-fields",
    description: "`event:`, `id:`, `retry: 3000` and a `Data:` line (not a data field) around each event",
    linesBefore: (index) => [
      "event: message",
      `id: ${index + 1}`,
      ...(index === 0 ? ["retry: 3000"] : []),
      "Data: field names are case-sensitive, ignore this line",
    ],
  },
  { name: "bom", description: "A UTF-8 BOM at the very start of the stream", preamble: new Uint8Array([0xef, 0xbb, 0xbf]) },
  {
    name: "no-final-blank",
    description: "The last event ends with a single line end (no blank line), then EOF",
    noFinalBlank: true,
  },
];

export const SSE_FRAMING_LIST: NamedItem[] = SSE_FRAMINGS.map(({ name, description }) => ({ name, description }));

export function findSseFraming(name: string): SseFramingVariant | undefined {
  return SSE_FRAMINGS.find((v) => v.name === name);
}

/** The complete format of a variant (or of a bare override), canonical fields filling the gaps. */
export function sseFormat(...overrides: (Partial<SseFormat> | undefined)[]): SseFormat {
  const out: SseFormat = { ...CANONICAL_SSE_FORMAT };
  for (const o of overrides) {
    if (!o) continue;
    for (const [k, v] of Object.entries(o)) {
      if (v !== undefined && k !== "name" && k !== "description") (out as unknown as Record<string, unknown>)[k] = v;
    }
  }
  return out;
}

/**
 * Splits a JSON object payload after commas that sit outside strings, so that joining the lines
 * with "\n" only adds whitespace between tokens. A payload that already holds newlines (pretty
 * JSON) is split on them; anything else (sentinels, plain text) stays one line.
 */
export function splitJsonLines(payload: string): string[] {
  if (payload.includes("\n")) return payload.split("\n");
  if (!payload.startsWith("{")) return [payload];
  const lines: string[] = [];
  let start = 0;
  let inString = false;
  for (let i = 0; i < payload.length; i++) {
    const c = payload[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === ",") {
      lines.push(payload.slice(start, i + 1));
      start = i + 1;
    }
  }
  lines.push(payload.slice(start));
  return lines;
}

export interface SseFramerOptions {
  /** Seed for the random chunking. */
  seed?: number;
}

/** Frames a stream one event at a time, so long streams need no event list in memory. */
export interface SseFramer {
  /** Frames one event and returns the writes that are ready (possibly none, e.g. coalesced). */
  push(payload: SsePayload, options?: { last?: boolean }): Uint8Array[];
  /** Returns whatever the chunking still holds back. */
  end(): Uint8Array[];
}

export function createSseFramer(
  variant: string | Partial<SseFormat>,
  options: SseFramerOptions = {},
): SseFramer {
  const format = typeof variant === "string" ? sseFormat(requireFraming(variant)) : sseFormat(variant);
  const eols = typeof format.eol === "string" ? [format.eol] : format.eol;
  const chunker = CHUNKERS[format.chunking](seededRandom(options.seed ?? 1));
  let lineNo = 0;
  let index = 0;
  const nextEol = () => eols[lineNo++ % eols.length] as string;

  return {
    push(payload, { last = false } = {}) {
      const parts: SsePayload[] = [];
      if (index === 0 && format.preamble) parts.push(format.preamble);
      for (const line of format.linesBefore?.(index) ?? []) parts.push(line, nextEol());
      const values: SsePayload[] = typeof payload === "string" ? format.dataLines(payload) : [payload];
      for (const value of values) parts.push(format.dataPrefix, value, nextEol());
      if (!(last && format.noFinalBlank)) parts.push(nextEol());
      index++;
      return chunker.push(encodeParts(parts));
    },
    end: () => chunker.end(),
  };
}

/** Renders a whole list of payloads (the last one is the last event) into writes. */
export function renderSse(
  payloads: readonly SsePayload[],
  variant: string | Partial<SseFormat> = "canonical",
  options: SseFramerOptions = {},
): Uint8Array[] {
  const framer = createSseFramer(variant, options);
  const out: Uint8Array[] = [];
  payloads.forEach((p, i) => out.push(...framer.push(p, { last: i === payloads.length - 1 })));
  out.push(...framer.end());
  return out;
}

function requireFraming(name: string): SseFramingVariant {
  const v = findSseFraming(name);
  if (!v) throw new Error(`unknown SSE framing "${name}"; known: ${SSE_FRAMINGS.map((f) => f.name).join(", ")}`);
  return v;
}

interface Chunker {
  push(bytes: Uint8Array): Uint8Array[];
  end(): Uint8Array[];
}

/** Largest piece of the random chunking, small enough to cut most events several times. */
const RANDOM_MAX = 24;

const CHUNKERS: Record<ChunkingName, (random: () => number) => Chunker> = {
  event: () => ({ push: (b) => [b], end: () => [] }),
  whole: () => {
    let held: Uint8Array[] = [];
    return {
      push(b) {
        held.push(b);
        return [];
      },
      end() {
        const all = concatBytes(held);
        held = [];
        return all.length ? [all] : [];
      },
    };
  },
  bytes: () => ({ push: (b) => Array.from(b, (_, i) => b.slice(i, i + 1)), end: () => [] }),
  random: (random) => {
    // Bytes carry over between events so pieces straddle event boundaries, as TCP reads do.
    let carry: Uint8Array = new Uint8Array(0);
    let want = 1 + Math.floor(random() * RANDOM_MAX);
    return {
      push(b) {
        carry = concatBytes([carry, b]);
        const out: Uint8Array[] = [];
        while (carry.length >= want) {
          out.push(carry.slice(0, want));
          carry = carry.slice(want);
          want = 1 + Math.floor(random() * RANDOM_MAX);
        }
        return out;
      },
      end() {
        const rest = carry;
        carry = new Uint8Array(0);
        return rest.length ? [rest] : [];
      },
    };
  },
  utf8: () => {
    let k = 0;
    return {
      push(b) {
        const cuts: number[] = [];
        for (let i = 0; i < b.length; i++) {
          const n = utf8Length(b[i] as number);
          if (n > 1) {
            // Vary the cut over the character's inner boundaries: +1, +2, +3 for a 4-byte one.
            cuts.push(i + 1 + (k++ % (n - 1)));
            i += n - 1;
          }
        }
        return cutAt(b, cuts);
      },
      end: () => [],
    };
  },
  "cr-lf": () => ({
    push(b) {
      const cuts: number[] = [];
      for (let i = 0; i + 1 < b.length; i++) if (b[i] === 0x0d && b[i + 1] === 0x0a) cuts.push(i + 1);
      return cutAt(b, cuts);
    },
    end: () => [],
  }),
};

function utf8Length(lead: number): number {
  if (lead >= 0xf0 && lead < 0xf8) return 4;
  if (lead >= 0xe0) return lead < 0xf0 ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

function cutAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (const c of cuts) {
    if (c <= start || c >= bytes.length) continue;
    out.push(bytes.slice(start, c));
    start = c;
  }
  out.push(bytes.slice(start));
  return out;
}

const encoder = new TextEncoder();

/**
 * Node's Buffer encodes a short string several times faster than TextEncoder (it fills pooled
 * memory instead of allocating a buffer per call); the same UTF-8 bytes, handed on as a plain
 * Uint8Array view. Browsers (the msw handlers) have no Buffer and use TextEncoder.
 */
const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: "utf8"): Uint8Array } }).Buffer;

function encodeText(text: string): Uint8Array {
  if (!NodeBuffer) return encoder.encode(text);
  const b = NodeBuffer.from(text, "utf8");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

function toBytes(part: SsePayload): Uint8Array {
  return typeof part === "string" ? encodeText(part) : part;
}

/**
 * One event's parts as bytes. Text parts are joined and encoded once (an encode per part was most
 * of a mock's cost per event): the same bytes, unless two parts would join the halves of a
 * surrogate pair (each half alone encodes as U+FFFD), and raw byte parts (invalid UTF-8 on
 * purpose) are kept as given: both take the encode-per-part way.
 */
function encodeParts(parts: readonly SsePayload[]): Uint8Array {
  let text = "";
  for (const p of parts) {
    if (typeof p !== "string" || (isHigh(text.charCodeAt(text.length - 1)) && isLow(p.charCodeAt(0)))) return concatBytes(parts.map(toBytes));
    text += p;
  }
  return encodeText(text);
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
