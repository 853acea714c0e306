/**
 * The HTTP side of the proxy: each request is read whole (requests are small; the classifier reads
 * the body), named, forwarded, and its answer relayed chunk by chunk as it comes off the socket:
 * each chunk goes to the client first, then (after the relay's turn, see relay-bus.ts) to the
 * transcript. A stream answer is also read as SSE for the checks. Only heads and the capped text
 * of non-stream bodies are kept, per exchange. Where the kit stops reading a body it still relays
 * (a non-stream body over the text cap, an SSE line over the reader's), the body's end is recorded
 * as the kit's limit, so no rule judges the target on the part the kit did not read.
 */
import http from "node:http";
import https from "node:https";
import { decodeBody } from "../core/transport/content-coding.js";
import { codedStream, type CodedStream } from "../core/transport/coded-stream.js";
import { SseReader } from "../core/transport/sse-reader.js";
import { DEFAULT_MAX_BYTES, MAX_LINE_BYTES, PROXY_FAILURE_HEADER } from "../core/transport/http-exchange.js";
import type { BodyEndReason } from "../core/transcript/transcript.js";
import { isKitRequest, KIT_LABEL, UNROUTED, type HttpClassifier, type HttpNames, type ProxyAdapter } from "./adapter.js";
import { flatten, forwardable, withHost } from "./headers.js";
import type { ProxyJudge } from "./judge.js";
import { PROXY_PROBE } from "./judge.js";
import type { SeenSecrets } from "./secrets.js";

/** Longest request body relayed (the client gets a 413 past it). */
const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/** Methods whose requests carry no body unless they say so. */
const BODYLESS = new Set(["GET", "HEAD", "OPTIONS", "DELETE", "TRACE"]);
/** Longest the proxy's close waits for the decoding of coded bodies that have come whole (ms). */
const DECODE_GRACE_MS = 2000;
/** Non-stream answer text kept for the checks (the client gets it all). */
const TEXT_CAP = 1024 * 1024;

export interface HttpRelayOptions {
  target: URL;
  adapter: ProxyAdapter;
  judge: ProxyJudge;
  secrets: SeenSecrets;
  /** Longest wait for the target's response head (ms): then the client gets a 504. */
  headTimeout: number;
  /** An exchange ended (answered, failed or abandoned). */
  ended(): void;
}

export class HttpRelay {
  private count = 0;
  private readonly classifier: HttpClassifier;
  private readonly agent: http.Agent;

  private readonly o: HttpRelayOptions;

  constructor(o: HttpRelayOptions) {
    // A WebSocket protocol's target may be given as ws:// or wss://: its plain HTTP routes are the same server over http(s).
    if (o.target.protocol === "ws:" || o.target.protocol === "wss:") o = { ...o, target: new URL(o.target.href.replace(/^ws/, "http")) };
    this.o = o;
    // A WebSocket protocol's plain HTTP routes may have no classifier: recorded, not judged.
    this.classifier = o.adapter.classifier?.() ?? { classify: () => ({ label: UNROUTED, clientLabel: "unknown", stream: false }) };
    const Agent = o.target.protocol === "https:" ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true });
  }

  /**
   * Cuts the exchanges in flight (their ends recorded now, as "aborted") and the target connections. A coded body
   * that has come whole is first read to its end (for at most DECODE_GRACE_MS): the client has it all already.
   */
  async close(): Promise<void> {
    if (this.decoding.size) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(this.decoding), new Promise((r) => (timer = setTimeout(r, DECODE_GRACE_MS)))]);
      clearTimeout(timer);
    }
    for (const cut of [...this.inFlight]) cut();
    this.agent.destroy();
  }

  private readonly inFlight = new Set<() => void>();
  /** Coded bodies the target has ended, still being decoded for the checks. */
  private readonly decoding = new Set<Promise<void>>();

  handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const parts: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on("data", (c: Buffer) => {
      if (refused) return;
      size += c.byteLength;
      if (size > MAX_REQUEST_BYTES) {
        refused = true;
        this.own(res, 413, `request body over ${MAX_REQUEST_BYTES} bytes: the proxy relays smaller ones`);
        req.resume();
        return;
      }
      parts.push(c);
    });
    req.on("error", () => res.destroy());
    req.on("end", () => {
      if (!refused) this.forward(req, res, Buffer.concat(parts));
    });
  };

  private forward(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
    const { judge, target } = this.o;
    const bus = judge.bus;
    const path = req.url ?? "/";
    const method = req.method ?? "GET";
    const headers = flatten(req.rawHeaders);
    const text = body.toString("utf8");
    const url = new URL(path, target.origin);
    this.o.secrets.see(headers, url.href);
    let names: HttpNames;
    try {
      names = this.classifier.classify({ method, path, headers, body: text });
    } catch {
      names = { label: UNROUTED, clientLabel: "unknown", stream: false };
    }
    // A robustness case breaks rules on purpose, at the client's request: the server rules stay out of it.
    if (isKitRequest(path)) names = { ...names, label: KIT_LABEL };
    const exchange = `p${++this.count}`;
    const ref = { probe: PROXY_PROBE, exchange, label: names.label };
    judge.clientNames.set(exchange, names.clientLabel);
    // Recorded after this turn, as the answer's head and chunks are: the request goes on first.
    bus.later({ kind: "http-request", ...ref, method, url: url.href, path, headers, ...(body.byteLength ? { body: text } : {}), ...(names.meta ? { meta: names.meta } : {}) });
    const request = { method, path, headers, body: text };
    let status = 0;

    let done = false;
    let headSeen = false;
    let bytes = 0;
    const textParts: Buffer[] = [];
    let textBytes = 0;
    let reader: SseReader | undefined;
    /** A coded stream's decoder: the reader reads what it decodes, the client and the transcript get the bytes as sent. */
    let coded: CodedStream | undefined;
    let chunkIndex = 0;
    /** Why the kit stopped reading the body, once it did (the client still gets all of it). */
    let unread: string | undefined;
    /** The answer's Content-Encoding: the text the checks read is the body as the client's fetch decodes it. */
    let coding: string | undefined;

    /** The kept body as the checks read it: decoded as the client's fetch decodes it, when the kit read it whole. */
    const plainText = (kept: Buffer): string => {
      const plain = unread === undefined ? decodeBody(kept, coding, TEXT_CAP) : kept;
      if (plain !== "over") return plain.toString("utf8");
      unread = `the body decodes to more than the ${TEXT_CAP} bytes the proxy keeps for the checks; reading stopped there`;
      return kept.toString("utf8");
    };
    const end = (reason: BodyEndReason, error?: string) => {
      if (done) return;
      done = true;
      this.inFlight.delete(cut);
      clearTimeout(headTimer);
      if (headSeen) {
        // Cut or failed while decoding: what the decoder still holds is not read.
        coded?.stop();
        // The chunks still queued come first: the reader ends after it has read them.
        bus.drain();
        reader?.end();
        const t = reader ? undefined : plainText(Buffer.concat(textParts));
        // A body the kit stopped reading ends at its limit when it otherwise ended as a whole answer; a reset or a
        // timeout it saw stays what it was.
        if (unread !== undefined && (reason === "eof" || reason === "close-timeout")) {
          reason = "limit";
          error = unread;
        }
        bus.emit({ kind: "body-end", ...ref, reason, bytes, ...(t !== undefined ? { text: t } : {}), ...(error ? { error } : {}) });
        if (t !== undefined && reason === "eof") {
          try {
            this.classifier.ended?.(names, request, status, t);
          } catch {
            // A classifier's bug must not stop the relay.
          }
        }
      }
      // After the last event of the exchange: the client checks still read its name there.
      judge.clientNames.delete(exchange);
      this.o.ended();
    };
    const fail = (error: string, code: string | undefined, status: number) => {
      if (done) return;
      bus.emit({ kind: "http-error", ...ref, error, ...(code ? { code } : {}) });
      this.own(res, status, `agentwire proxy: ${error} (${redactedTarget(target)})`, code);
      end("error", error);
    };

    const cut = () => {
      end("aborted", "the proxy stopped");
      up.destroy();
      res.destroy();
    };
    this.inFlight.add(cut);
    const lib = target.protocol === "https:" ? https : http;
    const outHeaders = withHost(forwardable(req.rawHeaders), target.host);
    // The body was read whole: a chunked request (hop-by-hop framing) goes on with its length.
    if (headers["content-length"] === undefined && (body.byteLength > 0 || !BODYLESS.has(method))) outHeaders.push("Content-Length", String(body.byteLength));
    const up = lib.request(url, { method, headers: outHeaders as unknown as http.OutgoingHttpHeaders, agent: this.agent });
    up.on("socket", (socket) => socket.setNoDelay(true));
    const headTimer = setTimeout(() => {
      fail(`no response head from the target within ${this.o.headTimeout} ms`, "ETIMEDOUT", 504);
      up.destroy();
    }, this.o.headTimeout);

    up.on("error", (e: NodeJS.ErrnoException) => {
      if (!headSeen) fail(describe(e), e.code, 502);
      else {
        res.destroy();
        end("error", e.code ?? e.message);
      }
    });
    /** The target's answer came whole (a coded one may still be decoding for the checks). */
    let relayed = false;
    // The client went away: the target's answer is abandoned with it. (Its socket closing after the whole answer is no cut.)
    res.on("close", () => {
      if (!done && !relayed) {
        up.destroy();
        end("aborted");
      }
    });
    up.on("response", (answer) => {
      if (done) return answer.resume();
      headSeen = true;
      clearTimeout(headTimer);
      status = answer.statusCode ?? 0;
      const out = forwardable(answer.rawHeaders);
      res.writeHead(status, answer.statusMessage, out as unknown as http.OutgoingHttpHeaders);
      res.flushHeaders();
      const answerHeaders = flatten(answer.rawHeaders);
      coding = answerHeaders["content-encoding"];
      bus.later({ kind: "http-response", ...ref, status, headers: answerHeaders });
      try {
        this.classifier.answered?.(names, request, status);
      } catch {
        // A classifier's bug must not stop the relay.
      }
      const stream = names.stream || /text\/event-stream/i.test(answerHeaders["content-type"] ?? "");
      if (stream) {
        const r = new SseReader(PROXY_PROBE, exchange, names.label, (ev) => bus.emit(ev), { maxLine: MAX_LINE_BYTES, onLimit: (message) => (unread ??= message) });
        reader = r;
        coded = codedStream(coding, {
          // The recording client's limit: a small body that unpacks into a huge one ends at the kit's limit alike.
          maxBytes: DEFAULT_MAX_BYTES,
          onData: (bytes, index) => {
            if (!done) bus.feed(r, bytes, index);
          },
          onLimit: (message) => (unread ??= message),
          // Coded bytes that do not decode: a fetch fails there, so the stream ends there for the checks.
          onError: (message) => end("error", message),
        });
      }
      /** Whether the socket waits for the client, and for the decoder: it resumes when neither is behind. */
      let waits = 0;
      const wait = (until: (go: () => void) => void) => {
        if (waits++ === 0) answer.pause();
        until(() => {
          if (--waits === 0) answer.resume();
        });
      };
      answer.on("data", (chunk: Buffer) => {
        // A client slower than the target holds the target back, rather than the proxy's memory.
        if (!res.write(chunk)) wait((go) => res.once("drain", go));
        if (done) return;
        bytes += chunk.byteLength;
        const index = chunkIndex++;
        const view = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        // Recorded and judged after this turn: the write above leaves when the turn ends.
        // seq and t given up front, last as the bus would add them (see TranscriptBus.emit).
        bus.chunk({ kind: "body-chunk", probe: PROXY_PROBE, exchange, label: names.label, index, bytes: view, seq: 0, t: 0 }, coded ? undefined : reader);
        // Decoded at once (off the main thread); what it gives is read in turn, after this chunk's event.
        if (coded && !coded.push(view, index)) wait((go) => coded!.drained(go));
        if (!reader && unread === undefined) {
          // Kept whole up to the cap; a longer body is not judged on its first part (a JSON answer cut short is no JSON).
          if (textBytes + chunk.byteLength > TEXT_CAP) unread = `the body is longer than the ${TEXT_CAP} bytes the proxy keeps for the checks; reading stopped there`;
          else {
            textParts.push(chunk);
            textBytes += chunk.byteLength;
          }
        }
      });
      answer.on("end", () => {
        relayed = true;
        res.end();
        if (!coded) return end("eof");
        const decoded = new Promise<void>((resolve) =>
          coded!.end(() => {
            end("eof");
            resolve();
          }),
        );
        this.decoding.add(decoded);
        void decoded.then(() => this.decoding.delete(decoded));
      });
      answer.on("aborted", () => {
        res.destroy();
        end("error", "ECONNRESET");
      });
      answer.on("error", (e: NodeJS.ErrnoException) => {
        res.destroy();
        end("error", e.code ?? e.message);
      });
    });
    up.end(body);
  }

  /** The proxy's own answer (never the target's): JSON in the protocol's error shape. */
  /** The proxy's own answer; `targetError`: the target failed with this code (the kit's probes record that instead). */
  private own(res: http.ServerResponse, status: number, message: string, targetError?: string): void {
    if (res.headersSent) return void res.destroy();
    const body = JSON.stringify(this.o.adapter.errorBody(message));
    const code = targetError && /^[A-Z_]+$/.test(targetError) ? { [PROXY_FAILURE_HEADER]: targetError } : {};
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-agentwire-proxy": "error", ...code });
    res.end(body);
  }
}

function describe(e: NodeJS.ErrnoException): string {
  if (e.code === "ECONNREFUSED") return "target refused the connection (is it running?)";
  if (e.code === "ENOTFOUND" || e.code === "EAI_AGAIN") return `target host not found (${e.code})`;
  if (e.code === "ECONNRESET") return "target reset the connection before answering";
  return `target unreachable: ${e.code ?? e.message}`;
}

function redactedTarget(u: URL): string {
  return u.origin;
}
