/** Writes a run's transcript as JSON Lines, redacting credentials (node only). */
import { createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";
import { eventToJsonLine, type Observer, type TranscriptEvent } from "./transcript.js";

const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "x-api-key", "api-key", "cookie", "set-cookie"]);

/** Replaces credential header values; everything else is kept as it crossed the wire. */
export function redact(event: TranscriptEvent): TranscriptEvent {
  if ((event.kind === "http-request" || event.kind === "http-response" || event.kind === "ws-open") && event.headers) {
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
