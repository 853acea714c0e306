/**
 * Records client traffic on the transcript bus for client-side checks: every request the mock
 * receives (with what the mock knew or decided about it, in `meta`) and the head of its response.
 * Shared by the HTTP mocks; browser-safe.
 */
import type { TranscriptBus } from "../transcript/transcript.js";

/** What the recorder reads of a request and of an answer's head (a Fetch Request or Response will do). */
export interface RecordedHeaders {
  forEach(fn: (value: string, key: string) => void): void;
}

export interface RequestRecord {
  label: string;
  request: { method: string; url: string; headers: RecordedHeaders };
  url: URL;
  body: string;
  meta: Record<string, unknown>;
}

export class ClientRecorder {
  private count = 0;

  constructor(private readonly bus?: TranscriptBus) {}

  reset(): void {
    this.count = 0;
  }

  /** Returns the exchange id ("c1", "c2", …), or null when nothing is recorded. */
  request(r: RequestRecord): string | null {
    if (!this.bus) return null;
    const exchange = `c${++this.count}`;
    this.bus.emit({
      kind: "http-request",
      probe: "client",
      exchange,
      label: r.label,
      method: r.request.method,
      url: r.request.url,
      path: r.url.pathname + r.url.search,
      headers: headersOf(r.request.headers),
      ...(r.body !== "" ? { body: r.body } : {}),
      meta: r.meta,
    });
    return exchange;
  }

  response(exchange: string | null, label: string, response: { status: number; headers: RecordedHeaders }): void {
    if (!this.bus || exchange === null) return;
    this.bus.emit({
      kind: "http-response",
      probe: "client",
      exchange,
      label,
      status: response.status,
      headers: headersOf(response.headers),
    });
  }

  /**
   * The end of the answer, with the body as served (`text`, when the mock records it), for client
   * rules that read what the client was told (a polled state, an id it must echo).
   */
  end(exchange: string | null, label: string, text: string | undefined): void {
    if (!this.bus || exchange === null) return;
    const bytes = text === undefined ? 0 : new TextEncoder().encode(text).byteLength;
    this.bus.emit({ kind: "body-end", probe: "client", exchange, label, reason: "eof", bytes, ...(text !== undefined ? { text } : {}) });
  }
}

function headersOf(headers: RecordedHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, key) => {
    out[key.toLowerCase()] = value;
  });
  return out;
}
