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
  const comma = style.compact ? "," : ", ";
  const colon = style.compact ? ":" : ": ";
  const str = style.ascii ? asciiString : (s: string) => JSON.stringify(s);
  const encode = (v: unknown): string => {
    if (typeof v === "string") return str(v);
    if (v === null || typeof v !== "object") return JSON.stringify(v) ?? "null";
    if (Array.isArray(v)) return "[" + v.map(encode).join(comma) + "]";
    return (
      "{" +
      Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k, x]) => str(k) + colon + encode(x))
        .join(comma) +
      "}"
    );
  };
  return encode(value);
}

function asciiString(s: string): string {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}
