/**
 * JSON text of an SSE event. The default style is Python's `json.dumps` (", " and ": "), which
 * is what FastAPI references write into `data:` lines and what the seed's stream example shows,
 * so the default stream is byte-for-byte the seed. Response bodies use plain JSON.stringify.
 */

export interface EventJsonStyle {
  /** No spaces after "," and ":" (JSON.stringify's form). */
  compact?: boolean;
  /** Escape every non-ASCII UTF-16 unit as \uXXXX (Python's ensure_ascii). */
  ascii?: boolean;
}

export function eventJson(value: unknown, style: EventJsonStyle = {}): string {
  return encodeJson(value, style.compact ? "," : ", ", style.compact ? ":" : ": ", style.ascii === true);
}

// Plain loops and concatenation, no closures or entry arrays: the mock encodes every event of a
// stream with it.
function encodeJson(v: unknown, comma: string, colon: string, ascii: boolean): string {
  if (typeof v === "string") return ascii ? asciiString(v) : JSON.stringify(v);
  if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
  let out: string;
  if (Array.isArray(v)) {
    out = "[";
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out += comma;
      // A hole stays empty, as map-then-join leaves it.
      if (i in v) out += encodeJson(v[i], comma, colon, ascii);
    }
    return out + "]";
  }
  out = "{";
  let first = true;
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const x = o[k];
    if (x === undefined) continue;
    if (!first) out += comma;
    first = false;
    out += (ascii ? asciiString(k) : JSON.stringify(k)) + colon + encodeJson(x, comma, colon, ascii);
  }
  return out + "}";
}

function asciiString(s: string): string {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}
