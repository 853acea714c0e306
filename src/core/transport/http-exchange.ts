/**
 * Recording HTTP client for probes. Built on node:http so the kit sees the bytes exactly as the
 * server sent them: no CORS filtering, chunk boundaries as they came off the socket, body-chunk
 * events as sent. It asks for no content coding (a server that codes anyway, or is asked to by a
 * header the user gave, has the coding undone for the text and the SSE reader, as a fetch would).
 * Every step is bounded: time to headers, time to first event, idle gaps, total time, time from a
 * terminal event to end of body, and total bytes (coded and decoded).
 */
import http from "node:http";
import https from "node:https";
import { decodeBody } from "./content-coding.js";
import { codedStream, type CodedStream } from "./coded-stream.js";
import { SseReader } from "./sse-reader.js";
import { ownString } from "./own-string.js";
import type { BodyEndReason, TranscriptBus, TranscriptEvent } from "../transcript/transcript.js";

export interface ExchangeTimeouts {
  /** Until the response head arrives. */
  headers: number;
  /** Whole exchange, head and body. */
  total: number;
  /** Streams only: from the head to the first SSE event. */
  firstEvent?: number;
  /** Streams only: longest silence between body chunks. */
  idle?: number;
  /** Streams only: from a terminal event to the end of the body. */
  close?: number;
}

export interface ExchangeSpec {
  probe: string;
  label: string;
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Read the body as SSE, emitting sse-line and sse-event events. */
  stream?: boolean;
  timeouts: ExchangeTimeouts;
  /** Stop reading after this many body bytes (reason "limit"). */
  maxBytes?: number;
  /** Streams: tells whether an event's data is a terminal sentinel (starts the close timeout). */
  isTerminal?: (data: string) => boolean;
  signal?: AbortSignal;
}

export interface ExchangeResult {
  exchange: string;
  status?: number;
  headers?: Record<string, string>;
  /** Body text for non-stream exchanges (capped at maxBytes). */
  text?: string;
  /** Parsed body when it is JSON. */
  json?: unknown;
  /** Set when no response head arrived. */
  error?: string;
  code?: string;
  endReason?: BodyEndReason;
  /** The first SSE data strings of a stream, in order: at most KEEP_EVENTS of them and KEEP_CHARS characters (checks read every event on the bus). */
  events: string[];
  bytes: number;
}

/** Body bytes the kit reads of one answer unless told otherwise (a coded body: before and after decoding). */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;
/** Streams keep at most this many event payloads in the result (checks see all via the bus)... */
const KEEP_EVENTS = 1000;
/** ...and at most this many characters of them: a thousand large events would keep the body. */
const KEEP_CHARS = 64 * 1024;
/**
 * Longest SSE line (in characters) the kit buffers. The tokeniser holds the line in progress, so
 * without this a body that never sends a line end costs memory in proportion to maxBytes; past it,
 * the stream is cut like one that reached maxBytes.
 */
export const MAX_LINE_BYTES = 8 * 1024 * 1024;

let exchangeCounter = 0;

export function exchange(bus: TranscriptBus, spec: ExchangeSpec): Promise<ExchangeResult> {
  const id = `x${++exchangeCounter}`;
  const ref = { probe: spec.probe, exchange: id, label: spec.label };
  const url = new URL(spec.url);
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
  if (spec.body !== undefined && headers["content-length"] === undefined) {
    headers["content-length"] = String(Buffer.byteLength(spec.body));
  }
  bus.emit({
    kind: "http-request",
    ...ref,
    method: spec.method,
    url: url.href,
    path: url.pathname + url.search,
    headers,
    ...(spec.body !== undefined ? { body: spec.body } : {}),
  });

  const result: ExchangeResult = { exchange: id, events: [], bytes: 0 };
  const maxBytes = spec.maxBytes ?? DEFAULT_MAX_BYTES;

  return new Promise<ExchangeResult>((resolve) => {
    let settled = false;
    const timers = new Set<NodeJS.Timeout>();
    const timer = (ms: number | undefined, fn: () => void) => {
      if (ms === undefined || !Number.isFinite(ms)) return undefined;
      const t = setTimeout(fn, ms);
      timers.add(t);
      return t;
    };
    const clear = (t: NodeJS.Timeout | undefined) => {
      if (t) {
        clearTimeout(t);
        timers.delete(t);
      }
    };

    const lib = url.protocol === "https:" ? https : http;
    const req = lib.request(url, { method: spec.method, headers, agent: false });

    let reader: SseReader | undefined;
    /** A coded stream's decoder: the reader reads what it decodes. */
    let coded: CodedStream | undefined;
    /** Characters of the payloads kept in `result.events` (past KEEP_CHARS: none more is kept). */
    let keptChars = 0;
    const textParts: Buffer[] = [];
    let chunkIndex = 0;
    /** Bytes of the stream's line in progress (since the last CR or LF). */
    let headTimer: NodeJS.Timeout | undefined;
    let firstEventTimer: NodeJS.Timeout | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    let gotHead = false;

    // Removed when the exchange ends: the probes share one signal across many exchanges.
    const onAbort = () => finish("aborted");
    const finish = (reason: BodyEndReason, error?: string) => {
      if (settled) return;
      settled = true;
      spec.signal?.removeEventListener("abort", onAbort);
      for (const t of timers) clearTimeout(t);
      timers.clear();
      if (!gotHead) {
        const code = error && /^[A-Z_]+$/.test(error) ? error : reason === "timeout" ? "ETIMEDOUT" : undefined;
        result.error = describeError(reason, error, spec.timeouts.headers);
        if (code) result.code = code;
        bus.emit({ kind: "http-error", ...ref, error: result.error, ...(code ? { code } : {}) });
        req.destroy();
        resolve(result);
        return;
      }
      coded?.stop();
      reader?.end();
      if (!spec.stream) {
        const body = Buffer.concat(textParts);
        const plain = decodeBody(body, result.headers?.["content-encoding"], maxBytes);
        if (plain === "over") {
          // The kit's limit, not the server's answer: the text was not all read, so no rule judges it.
          reason = "limit";
          error = `the body's ${result.headers?.["content-encoding"]?.trim()} coding decodes to more than the ${maxBytes} bytes the kit reads`;
        } else result.text = plain.toString("utf8");
        if (result.text !== undefined && (/json/i.test(result.headers?.["content-type"] ?? "") || looksJson(result.text))) {
          try {
            result.json = JSON.parse(result.text);
          } catch {
            // Not JSON after all: checks judge the text.
          }
        }
      }
      result.endReason = reason;
      bus.emit({
        kind: "body-end",
        ...ref,
        reason,
        bytes: result.bytes,
        ...(result.text !== undefined ? { text: result.text } : {}),
        ...(error ? { error } : {}),
      });
      req.destroy();
      resolve(result);
    };

    timer(spec.timeouts.total, () => finish("timeout"));
    headTimer = timer(spec.timeouts.headers, () => finish("timeout"));

    spec.signal?.addEventListener("abort", onAbort, { once: true });

    req.on("error", (err: NodeJS.ErrnoException) => finish("error", err.code ?? err.message));
    req.on("response", (res) => {
      // agentwire proxy answers for a target it could not reach, and says so: what the target did is the failure.
      const behind = res.headers[PROXY_FAILURE_HEADER];
      if (typeof behind === "string" && /^[A-Z_]+$/.test(behind)) {
        res.resume();
        finish("error", behind);
        return;
      }
      gotHead = true;
      clear(headTimer);
      result.status = res.statusCode ?? 0;
      result.headers = flattenHeaders(res.headers);
      bus.emit({ kind: "http-response", ...ref, status: result.status, headers: result.headers });
      if (spec.stream) {
        reader = new SseReader(
          spec.probe,
          id,
          spec.label,
          (ev) => {
            const full = bus.emit(ev);
            if (full.kind !== "sse-event") return;
            clear(firstEventTimer);
            if (result.events.length < KEEP_EVENTS && keptChars <= KEEP_CHARS) {
              keptChars += full.data.length;
              // A copy: the payload is a slice of the read it came in, which would be kept whole with it.
              if (keptChars <= KEEP_CHARS) result.events.push(ownString(full.data));
            }
            if (spec.isTerminal?.(full.data) && closeTimer === undefined) {
              closeTimer = timer(spec.timeouts.close, () => finish("close-timeout"));
            }
          },
          // An endless line ends the read at the cap: the tokeniser holds the line in progress.
          { maxLine: Math.min(maxBytes, MAX_LINE_BYTES), onLimit: (message) => finish("limit", message) },
        );
        coded = codedStream(result.headers["content-encoding"], {
          maxBytes,
          onData: (bytes, index) => {
            bus.hold();
            try {
              reader?.push(bytes, index);
            } finally {
              bus.release();
            }
          },
          onLimit: (message) => finish("limit", message),
          onError: (message) => finish("error", message),
        });
        firstEventTimer = timer(spec.timeouts.firstEvent, () => finish("first-event-timeout"));
        idleTimer = timer(spec.timeouts.idle, () => finish("idle-timeout"));
      }
      res.on("data", (chunk: Buffer) => {
        if (settled) return;
        const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        result.bytes += bytes.byteLength;
        const index = chunkIndex++;
        bus.hold();
        try {
          // Fields spelt out, in ref's order: a spread per chunk cost more than the rest of the event
          // (seq and t too, last, as the bus would add them: see TranscriptBus.emit).
          const ev: TranscriptEvent = { kind: "body-chunk", probe: ref.probe, exchange: ref.exchange, label: ref.label, index, bytes, seq: 0, t: 0 };
          bus.emit(ev);
          if (coded) {
            // The decoder behind: the socket waits for it, so coded bytes do not pile up unread.
            if (!coded.push(bytes, index)) {
              res.pause();
              coded.drained(() => res.resume());
            }
          } else reader?.push(bytes, index);
        } finally {
          bus.release();
        }
        if (settled) return;
        if (reader) {
          // Re-armed, not re-created: one timer per stream, not one per chunk.
          idleTimer?.refresh();
        } else {
          // The whole body (maxBytes bounds it): a JSON answer cut short would be judged "not JSON".
          textParts.push(chunk);
        }
        if (result.bytes >= maxBytes) finish("limit");
      });
      res.on("end", () => (coded ? coded.end(() => finish("eof")) : finish("eof")));
      res.on("error", (err: NodeJS.ErrnoException) => finish("error", err.code ?? err.message));
      res.on("aborted", () => finish("error", "ECONNRESET"));
    });
    req.end(spec.body);
  });
}

function flattenHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function looksJson(text: string): boolean {
  const s = text.trimStart();
  return s.startsWith("{") || s.startsWith("[");
}

/**
 * The header `agentwire proxy` puts on its own answer when the target failed (its error code), so the kit's probes
 * record what the target did (refused, reset, timed out) rather than the proxy's 502.
 */
export const PROXY_FAILURE_HEADER = "x-agentwire-target-error";

function describeError(reason: BodyEndReason, error: string | undefined, headersMs: number): string {
  if (reason === "timeout") return `no response head within ${headersMs} ms`;
  if (reason === "aborted") return "aborted";
  if (error === "ECONNREFUSED") return "connection refused";
  if (error === "ECONNRESET") return "connection reset before a response head";
  return error ?? reason;
}

/** True when an exchange failed because nothing listens at the target. */
export function isUnreachable(r: ExchangeResult): boolean {
  return r.code === "ECONNREFUSED" || r.code === "ENOTFOUND" || r.code === "EHOSTUNREACH" || r.code === "EAI_AGAIN";
}

