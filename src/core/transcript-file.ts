/** Writes a run's transcript as JSON Lines, redacting credentials (node only). */
import { createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";
import { eventToJsonLine, type Observer, type TranscriptEvent } from "./transcript.js";

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie"]);

const SECRET_QUERY = /([?&](?:token|access_token|api_key|apikey|key)=)[^&#]*/gi;

/** Replaces credentials in header values and URL queries; everything else is kept as it crossed the wire. */
export function redact(event: TranscriptEvent): TranscriptEvent {
  if ((event.kind === "http-request" || event.kind === "ws-open" || event.kind === "ws-reject") && SECRET_QUERY.test(event.url)) {
    SECRET_QUERY.lastIndex = 0;
    const url = event.url.replace(SECRET_QUERY, "$1[redacted]");
    const path = event.kind === "http-request" ? { path: event.path.replace(SECRET_QUERY, "$1[redacted]") } : {};
    event = { ...event, url, ...path } as TranscriptEvent;
  }
  SECRET_QUERY.lastIndex = 0;
  if ((event.kind === "http-request" || event.kind === "http-response" || event.kind === "ws-open" || event.kind === "ws-reject") && event.headers) {
    let changed = false;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(event.headers)) {
      if (SECRET_HEADERS.has(k.toLowerCase())) {
        headers[k] = "[redacted]";
        changed = true;
      } else headers[k] = v;
    }
    if (changed) return { ...event, headers } as TranscriptEvent;
  }
  return event;
}

export interface TranscriptFile {
  path: string;
  observer: Observer;
  close(): Promise<void>;
}

export function openTranscriptFile(dir: string, name: string): TranscriptFile {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  const out = createWriteStream(path);
  return {
    path,
    observer: (ev) => {
      out.write(`${eventToJsonLine(redact(ev))}\n`);
    },
    close: () => new Promise<void>((resolve) => out.end(() => resolve())),
  };
}
