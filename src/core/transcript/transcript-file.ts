/** Writes a run's transcript as JSON Lines, redacting credentials (node only). */
import { createWriteStream, mkdirSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_SECRETS, redactHeaders, redactQuery, scrubDeep, type Secrets } from "./redaction.js";
import { eventToJsonLine, type Observer, type TranscriptEvent, type TranscriptHeader } from "./transcript.js";

/**
 * Replaces credentials in header values and URL queries, and the user's secret values wherever
 * they occur; everything else is kept as it crossed the wire.
 */
export function redact(event: TranscriptEvent, secrets: Secrets = DEFAULT_SECRETS): TranscriptEvent {
  // Credential headers first, by name (an Authorization header keeps its scheme); then every secret wherever it is.
  if ((event.kind === "http-request" || event.kind === "http-response" || event.kind === "ws-open" || event.kind === "ws-reject") && event.headers) {
    event = { ...event, headers: redactHeaders(event.headers, secrets) } as TranscriptEvent;
  }
  event = scrubDeep(event, secrets);
  if (event.kind === "http-request") event = { ...event, url: redactQuery(event.url), path: redactQuery(event.path) };
  else if (event.kind === "ws-open" || event.kind === "ws-reject") event = { ...event, url: redactQuery(event.url) };
  return event;
}

export interface TranscriptFile {
  path: string;
  /** Writes the header line; called once, before the first event. */
  header(header: TranscriptHeader): void;
  observer: Observer;
  close(): Promise<void>;
}

/** `secrets` null writes the transcript unredacted (the user opted out). */
export function openTranscriptFile(dir: string, name: string, secrets: Secrets | null = DEFAULT_SECRETS): TranscriptFile {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  const out = createWriteStream(path);
  return {
    path,
    header: (h) => {
      out.write(`${JSON.stringify(secrets ? scrubDeep(h, secrets) : h)}\n`);
    },
    observer: (ev) => {
      out.write(`${eventToJsonLine(secrets ? redact(ev, secrets) : ev)}\n`);
    },
    close: () => new Promise<void>((resolve) => out.end(() => resolve())),
  };
}
