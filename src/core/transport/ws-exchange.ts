/**
 * Recording WebSocket client for probes, on `ws`. Like http-exchange.ts it records what crossed
 * the wire as transcript events — the upgrade (ws-open, or ws-reject with the HTTP status or the
 * transport error), every message in both directions (ws-frame: text or binary, byte size,
 * invalid UTF-8 flagged rather than fatal) and the close (ws-close: code, reason, who) — and it
 * bounds every step: time to the 101, time per request, time per wait, inbound bytes and
 * messages (a flood is cut, not buffered), and the pongs a server leaves unread. A cut at one of
 * these limits is recorded as the kit's (`by: "kit"`, a cause starting "limit"; `cutByKit`), so no
 * rule blames the server for what the kit did not read; a frame the protocol forbids stays the
 * server's close, with `ws`'s error as its cause.
 *
 * Memory stays flat: the connection keeps no frames, only the requests still waiting for an
 * answer, the waiters of the probe, and a bounded set of recently answered ids. Each incoming
 * text message is parsed once; `frameJson(event)` gives checks the same parse.
 *
 * JSON-RPC-style correlation: `request()` sends a command and resolves with the `response` whose
 * `id` matches. A response whose id matches nothing this connection sent, but whose `command`
 * names exactly one waiting request (no `command`: the one waiting request without a string
 * `type`), resolves that request marked `inexact` — so a server that mangles ids costs the probes
 * no timeouts, and checks still see the mangled id. A frame that is not one JSON value but
 * newline-joined values reaches waiters as one message per value (the recorded frame is intact).
 */
import http from "node:http";
import type { Duplex } from "node:stream";
import { isUtf8 } from "node:buffer";
import WebSocket from "ws";
import { deadline, type Deadline } from "./deadline.js";
import { debugging, debugLine, errorLine } from "../debug.js";
import { StreamJson } from "./stream-json.js";
import { LIMIT, refusedAtCap } from "./ws-limits.js";
import { DEFAULT_SECRETS, REDACTED, redactHeaders } from "../transcript/redaction.js";
import type { TranscriptBus, TranscriptEvent } from "../transcript/transcript.js";

export type WsFrameEvent = Extract<TranscriptEvent, { kind: "ws-frame" }>;

export interface WsSpec {
  /** Probe name stamped on events; a function when the connection outlives one probe. */
  probe: string | (() => string);
  /** Semantic name of the connection, recorded in ws-open / ws-reject. */
  label: string;
  /** ws:// or wss:// URL, query included. */
  url: string;
  /** Upgrade request headers (Origin included when one is to be sent). */
  headers?: Record<string, string>;
  /** Until the 101 (or another answer) arrives. */
  openTimeout: number;
  /** Inbound bytes after which the kit stops reading and closes (cause "limit"). */
  maxBytes?: number;
  /** Inbound messages after which the kit stops reading and closes (cause "limit"). */
  maxFrames?: number;
  /**
   * Inbound messages within any one second after which the kit stops reading (cause "limit"): a
   * flood is cut in a second, instead of keeping every wait of the run busy until its timeout.
   */
  maxFramesPerSecond?: number;
  /** Largest single inbound message (default 100 MiB, like pi); a longer one is refused from its header, a cut at the kit's limit. */
  maxPayload?: number;
  /** Query parameters whose values are replaced by "[redacted]" in recorded URLs (default: token). */
  redactQuery?: string[];
  /** false: record the URL and headers as sent (the user opted out of redaction, --no-redact). */
  redact?: boolean;
  signal?: AbortSignal;
}

export interface WsRejected {
  ok: false;
  connection: string;
  /** HTTP status of a non-101 answer. */
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Transport failure (no HTTP answer). */
  error?: string;
  code?: string;
}

export type WsOpenResult = { ok: true; conn: WsConnection } | WsRejected;

/** An incoming message as waiters see it. */
export interface WsMessage {
  frame: WsFrameEvent;
  /** The parsed JSON (undefined when the message is not JSON). */
  json: unknown;
}

export interface RequestResult {
  /** The response arrived (exact or inexact match). */
  ok: boolean;
  response?: Record<string, unknown>;
  frame?: WsFrameEvent;
  /** Matched by `command` because the id did not match (the server changed or dropped it). */
  inexact?: boolean;
  timedOut?: boolean;
  /** The connection closed (or was never open) before an answer. */
  closed?: boolean;
  /** Milliseconds from send to answer (or to giving up). */
  ms: number;
}

export interface CloseInfo {
  code?: number;
  reason?: string;
  by: "server" | "kit";
  cause?: string;
}

/** Name of the note a timed-out request leaves: {connection, id, command, waitedMs, label}. */
export const REQUEST_TIMEOUT_NOTE = "ws-request-timeout";

const DEFAULT_MAX_PAYLOAD = 100 * 1024 * 1024;
const REJECT_BODY_CAP = 4096;
const RECENT_IDS = 1024;
const BACKLOG_MESSAGES = 32;
const BACKLOG_BYTES = 1024 * 1024;
/**
 * Pongs the server has not read yet, in bytes waiting in the kit's socket, after which the kit stops: `ws` answers every
 * ping at once, and a server that pings without reading would otherwise grow the kit's write buffer without bound.
 */
const PONG_BACKLOG_BYTES = 1024 * 1024;

let connectionCounter = 0;

// Parsed once per frame, shared by probes and every check that reads the frame.
const parsed = new WeakMap<object, { ok: true; value: unknown } | { ok: false; error: string }>();

const split = new WeakMap<object, unknown[]>();

/**
 * The JSON values a frame carries, for readers that follow the conversation rather than judge the
 * framing: the frame's value when it parses; otherwise, when every non-empty line parses, one
 * value per line (a batching server's newline-joined messages); otherwise none.
 */
export function frameValues(ev: WsFrameEvent, json?: StreamJson): unknown[] {
  let v = split.get(ev);
  if (!v) {
    const p = frameJson(ev, json);
    if (p.ok) v = [p.value];
    else if (ev.data.includes("\n")) {
      const lines = ev.data.split("\n").filter((l) => l.trim() !== "");
      const values: unknown[] = [];
      for (const l of lines) {
        try {
          values.push(JSON.parse(l));
        } catch {
          values.length = 0;
          break;
        }
      }
      v = values;
    } else v = [];
    split.set(ev, v);
  }
  return v;
}

/**
 * The frame's data parsed as JSON (cached per event object). `json`: the parser of the frames the frame's connection
 * received before it (see StreamJson), which builds a frame that repeats the last one's envelope instead of parsing it.
 */
export function frameJson(ev: WsFrameEvent, json?: StreamJson): { ok: true; value: unknown } | { ok: false; error: string } {
  let p = parsed.get(ev);
  if (!p) {
    try {
      p = { ok: true, value: json ? json.parse(ev.data) : JSON.parse(ev.data) };
    } catch (e) {
      p = { ok: false, error: (e as Error).message };
    }
    parsed.set(ev, p);
  }
  return p;
}

/**
 * The URL as recorded: listed query values redacted, written as the transcript file writes them
 * (a literal "[redacted]", not percent-encoded), so a saved transcript replays to the same messages.
 */
export function redactUrl(url: string, keys: string[] = ["token"]): string {
  let out = url;
  for (const k of keys) {
    const name = k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    out = out.replace(new RegExp(`([?&]${name}=)[^&#]*`, "g"), `$1${REDACTED}`);
  }
  return out;
}

function lowerHeaders(h: Record<string, string> | undefined, redact = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = v;
  return redact ? redactHeaders(out, DEFAULT_SECRETS) : out;
}

function flatten(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/**
 * Opens a recorded connection. Never throws for what the server does: a non-101 answer, a
 * refused port, a handshake timeout or an abort all come back as `{ok: false}` after a ws-reject.
 */
export function openWs(bus: TranscriptBus, spec: WsSpec): Promise<WsOpenResult> {
  const connection = `w${++connectionCounter}`;
  const probe = typeof spec.probe === "function" ? spec.probe : () => spec.probe as string;
  const redacting = spec.redact !== false;
  const recordedUrl = redacting ? redactUrl(spec.url, spec.redactQuery) : spec.url;
  const headers = lowerHeaders(spec.headers);
  const recordedHeaders = lowerHeaders(spec.headers, redacting);

  return new Promise<WsOpenResult>((resolve) => {
    let settled = false;
    let responseHeaders: Record<string, string> | undefined;
    let ws: WebSocket;
    const reject = (r: Omit<WsRejected, "ok" | "connection">) => {
      if (settled) return;
      settled = true;
      timer.clear();
      spec.signal?.removeEventListener("abort", onAbort);
      bus.emit({
        kind: "ws-reject",
        probe: probe(),
        connection,
        url: recordedUrl,
        label: spec.label,
        headers: recordedHeaders,
        ...(r.status !== undefined ? { status: r.status } : {}),
        ...(r.headers ? { responseHeaders: r.headers } : {}),
        ...(r.body !== undefined ? { body: r.body } : {}),
        ...(r.error !== undefined ? { error: r.error } : {}),
        ...(r.code !== undefined ? { code: r.code } : {}),
      });
      try {
        ws?.terminate();
      } catch {
        // Already gone.
      }
      resolve({ ok: false, connection, ...r });
    };
    const onAbort = () => reject({ error: "aborted", code: "ABORTED" });
    const timer = deadline(spec.openTimeout, () => reject({ error: `no answer to the upgrade within ${spec.openTimeout} ms`, code: "ETIMEDOUT" }));
    if (spec.signal?.aborted) {
      onAbort();
      return;
    }
    spec.signal?.addEventListener("abort", onAbort, { once: true });

    try {
      const options: WebSocket.ClientOptions & { maxPendingAutoPongs: number } = {
        headers,
        perMessageDeflate: false,
        followRedirects: false,
        skipUTF8Validation: true,
        maxPayload: spec.maxPayload ?? DEFAULT_MAX_PAYLOAD,
        // No handshakeTimeout: the deadline above bounds the upgrade (and terminates the socket).
        // `ws` drops a connection silently (no error, code 1006, recorded as the server's close) once 60 of its pongs
        // are not yet written, which a burst of pings in one read already does. The kit bounds the pongs itself, by
        // the bytes the server leaves unread, and records that cut as its own (WsConnection.onPing).
        maxPendingAutoPongs: 0,
      };
      ws = new WebSocket(spec.url, options);
    } catch (e) {
      reject({ error: (e as Error).message, code: "EINVALID" });
      return;
    }

    let socket: Duplex | undefined;
    ws.on("upgrade", (res: http.IncomingMessage) => {
      responseHeaders = flatten(res.headers);
      socket = res.socket;
    });
    ws.on("unexpected-response", (req: http.ClientRequest, res: http.IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const rh = flatten(res.headers);
      const parts: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(bodyTimer);
        const body = Buffer.concat(parts).toString("utf8");
        reject({ status, headers: rh, ...(body ? { body } : {}) });
        req.destroy();
        res.destroy();
      };
      // A rejection is a status line, maybe a short body: read a little, never wait long.
      const bodyTimer = setTimeout(finish, Math.min(500, spec.openTimeout));
      res.on("data", (c: Buffer) => {
        if (size < REJECT_BODY_CAP) parts.push(c.subarray(0, REJECT_BODY_CAP - size));
        size += c.length;
        if (size >= REJECT_BODY_CAP) finish();
      });
      res.on("end", finish);
      res.on("error", finish);
      res.on("close", finish);
    });
    ws.on("error", (err: NodeJS.ErrnoException) => {
      if (!settled) reject({ error: describe(err), ...(err.code ? { code: err.code } : {}) });
    });
    ws.on("open", () => {
      if (settled) {
        ws.terminate();
        return;
      }
      settled = true;
      timer.clear();
      spec.signal?.removeEventListener("abort", onAbort);
      const opened = bus.emit({
        kind: "ws-open",
        probe: probe(),
        connection,
        url: recordedUrl,
        headers: recordedHeaders,
        label: spec.label,
        ...(responseHeaders ? { responseHeaders } : {}),
      });
      const conn = new WsConnection(bus, ws, connection, spec, probe, socket);
      conn.openSeq = opened.seq;
      resolve({ ok: true, conn });
    });
  });
}

function describe(err: NodeJS.ErrnoException): string {
  if (err.code === "ECONNREFUSED") return "connection refused";
  if (err.code === "ECONNRESET") return "connection reset during the upgrade";
  return err.message || err.code || "error";
}

interface Pending {
  id: string | undefined;
  command: string;
  label: string | undefined;
  sentAt: number;
  resolve(r: RequestResult): void;
  timer: Deadline;
}

/**
 * Whether `m` is what a waiter waits for. A predicate reads a peer's message, which may be any
 * shape (`result: null` where an object was expected): one that throws on it was not waiting for
 * it. It runs inside the socket's message handler, where a throw would end the process.
 */
function matches(pred: (m: WsMessage) => boolean, m: WsMessage): boolean {
  try {
    return pred(m);
  } catch (e) {
    threw("waiter", m, e);
    return false;
  }
}

/** A listener that throws on a peer's odd message has not heard it (see `matches`). */
function heard(listener: (m: WsMessage) => void, m: WsMessage): void {
  try {
    listener(m);
  } catch (e) {
    // The message stays recorded; the checks judge it.
    threw("listener", m, e);
  }
}

/**
 * A probe's waiter or listener that throws shows in a run only as a wait that timed out: under AGENTWIRE_DEBUG the kit
 * says which message it threw on and where, so the bug in the probe can be found.
 */
function threw(what: string, m: WsMessage, err: unknown): void {
  if (debugging()) debugLine(`agentwire: a WebSocket ${what} threw on ${m.frame.connection}'s message at seq ${m.frame.seq}: ${errorLine(err)}`);
}

interface Waiter {
  pred: (m: WsMessage) => boolean;
  resolve(m: WsMessage | undefined): void;
  timer: Deadline;
}

/** One open, recorded connection. */
export class WsConnection {
  private readonly pending = new Set<Pending>();
  private readonly waiters = new Set<Waiter>();
  private readonly listeners = new Set<(m: WsMessage) => void>();
  /** The parser of the frames this connection receives (a stream of one envelope around other strings, often). */
  private readonly json = new StreamJson();
  private readonly answered: string[] = [];
  private readonly answeredSet = new Set<string>();
  private readonly backlog: WsMessage[] = [];
  private backlogBytes = 0;
  /** Sequence number of the ws-open event. */
  openSeq = 0;
  private closeInfo: CloseInfo | undefined;
  private closing: { code?: number; reason?: string; cause?: string } | undefined;
  private readonly closedPromise: Promise<CloseInfo>;
  private resolveClosed!: (c: CloseInfo) => void;
  private readonly onAbort = () => this.terminate("aborted");
  /** Inbound totals. */
  bytesIn = 0;
  framesIn = 0;
  /** Start (ms) and message count of the current one-second window (maxFramesPerSecond). */
  private rateWindow = { start: 0, frames: 0 };
  framesOut = 0;
  /** Why the kit stopped reading, once it did. */
  stopped: string | undefined;

  constructor(
    private readonly bus: TranscriptBus,
    private readonly ws: WebSocket,
    readonly id: string,
    private readonly spec: WsSpec,
    private readonly probe: () => string,
    socket?: Duplex,
  ) {
    this.closedPromise = new Promise((r) => (this.resolveClosed = r));
    // Around ws's own reader: the first listener sees each socket read before its messages are
    // decoded, the last one after (see readStart).
    socket?.prependListener("data", this.readStart);
    socket?.on("data", this.readEnd);
    ws.on("message", (data: WebSocket.RawData, isBinary: boolean) => this.receive(data, isBinary));
    ws.on("error", (err: Error & { code?: string }) => {
      // Protocol errors from the peer (a bad frame): `ws` closes next, and the close is the server's; keep the cause.
      // A message over a cap of the kit's (see refusedAtCap) breaks no rule: a limit, as a flood is, and the socket is
      // dropped at once rather than drained until the peer answers the close.
      const cap = refusedAtCap(err, spec.maxPayload ?? DEFAULT_MAX_PAYLOAD);
      if (cap) this.cut(`${LIMIT}: ${cap}, not read`);
      else this.closing ??= { cause: err.message };
    });
    ws.on("ping", this.onPing);
    ws.on("close", (code: number, reason: Buffer) => this.onClose(code, reason.toString("utf8")));
    spec.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  get label(): string {
    return this.spec.label;
  }

  get isOpen(): boolean {
    return this.closeInfo === undefined && this.ws.readyState === WebSocket.OPEN && this.stopped === undefined;
  }

  /** Resolves when the connection has closed (by either side). */
  get closed(): Promise<CloseInfo> {
    return this.closedPromise;
  }

  get closeResult(): CloseInfo | undefined {
    return this.closeInfo;
  }

  /** Sends one JSON value as a text frame. Returns false when the connection is not open. */
  send(value: unknown, opts: { label?: string; binary?: boolean } = {}): boolean {
    return this.sendRaw(JSON.stringify(value), opts);
  }

  /** Sends text (or bytes) exactly as given. */
  sendRaw(data: string | Uint8Array, opts: { label?: string; binary?: boolean } = {}): boolean {
    if (!this.isOpen) return false;
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data);
    const binary = opts.binary ?? typeof data !== "string";
    this.framesOut++;
    this.bus.emit({
      kind: "ws-frame",
      probe: this.probe(),
      connection: this.id,
      direction: "out",
      binary,
      data: typeof data === "string" ? data : bytes.toString("utf8"),
      bytes: bytes.length,
      ...(opts.label ? { label: opts.label } : {}),
    });
    this.ws.send(bytes, { binary });
    return true;
  }

  /**
   * Sends a command and waits for its `response` (by id; see the module note for inexact matches).
   * A command without an id is matched by `command` to a response without one.
   */
  request(command: Record<string, unknown>, opts: { timeout: number; label?: string }): Promise<RequestResult> {
    const t0 = performance.now();
    const type = typeof command.type === "string" ? command.type : "";
    const id = typeof command.id === "string" ? command.id : undefined;
    return new Promise<RequestResult>((resolve) => {
      if (!this.isOpen) {
        resolve({ ok: false, closed: true, ms: 0 });
        return;
      }
      const p: Pending = {
        id,
        command: type,
        label: opts.label,
        sentAt: t0,
        resolve: (r) => {
          p.timer.clear();
          this.pending.delete(p);
          resolve(r);
        },
        timer: deadline(opts.timeout, () => {
          this.bus.emit({
            kind: "note",
            probe: this.probe(),
            name: REQUEST_TIMEOUT_NOTE,
            value: { connection: this.id, id: id ?? null, command: type, waitedMs: opts.timeout, label: opts.label ?? null },
          });
          p.resolve({ ok: false, timedOut: true, ms: performance.now() - t0 });
        }),
      };
      this.pending.add(p);
      if (!this.send(command, opts.label ? { label: opts.label } : {})) p.resolve({ ok: false, closed: true, ms: 0 });
    });
  }

  /**
   * Waits for the next incoming message that satisfies `pred`; undefined on timeout or close.
   * Only messages from now count, unless `fromSeq` names an earlier transcript sequence number:
   * then the few most recent messages (a small bounded backlog) since it count too.
   */
  until(pred: (m: WsMessage) => boolean, timeout: number, opts: { fromSeq?: number } = {}): Promise<WsMessage | undefined> {
    return new Promise((resolve) => {
      if (opts.fromSeq !== undefined) {
        const hit = this.backlog.find((m) => m.frame.seq >= opts.fromSeq! && matches(pred, m));
        if (hit) {
          resolve(hit);
          return;
        }
      }
      if (this.closeInfo || this.stopped) {
        resolve(undefined);
        return;
      }
      const w: Waiter = {
        pred,
        resolve: (m) => {
          w.timer.clear();
          this.waiters.delete(w);
          resolve(m);
        },
        timer: deadline(timeout, () => w.resolve(undefined)),
      };
      this.waiters.add(w);
    });
  }

  /** Calls `fn` for every incoming message until the returned function is called. */
  onMessage(fn: (m: WsMessage) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Closes with a close frame and waits (bounded) for the peer's; then drops the socket. */
  async close(code = 1000, reason = "", timeout = 2000): Promise<CloseInfo> {
    if (this.closeInfo) return this.closeInfo;
    this.closing ??= { code, reason };
    this.closeBy = "kit";
    try {
      this.ws.close(code, reason);
    } catch {
      this.ws.terminate();
    }
    const t = setTimeout(() => this.terminate("close-timeout"), timeout);
    const info = await this.closedPromise;
    clearTimeout(t);
    return info;
  }

  /**
   * Stops reading at one of the kit's own limits: `why` is what the probes are told (`stopped`), `cause` what the
   * close records (both start with "limit", so `cutByKit` reads it as the kit's).
   */
  private cut(why: string, cause: string = why): void {
    this.stopped ??= why;
    this.terminate(cause);
  }

  /**
   * `ws` has answered the ping already (autoPong); the answer waits in the socket behind whatever the server has not
   * read. The kit, not `ws`, decides when that is too much (see openWs): a cut at its own limit.
   */
  private readonly onPing = (): void => {
    if (this.ws.bufferedAmount > PONG_BACKLOG_BYTES) {
      this.cut(`${LIMIT}: the server went on pinging while ${this.ws.bufferedAmount} bytes of the kit's pongs and messages waited unread (the kit's cap is ${PONG_BACKLOG_BYTES})`);
    }
  };

  /** Drops the socket at once (no close handshake). */
  terminate(cause: string): void {
    if (this.closeInfo) return;
    this.closeBy = "kit";
    this.closing = { ...(this.closing ?? {}), cause };
    this.ws.terminate();
  }

  private closeBy: "server" | "kit" = "server";

  /** When the socket read being decoded came (undefined between reads). */
  private readAt: number | undefined;
  private readonly endRead = (): void => {
    this.readAt = undefined;
  };
  /** The last socket read: when it came, its size, when its messages were done with. */
  private lastRead = { at: 0, bytes: 0, done: -Infinity };
  /** When the backlog the current read came out of began (see readStart); undefined when none. */
  private backlogFrom: number | undefined;

  /**
   * A socket read. One that comes right after a large read was done with came out of a backlog: the
   * kit was busy with the reads before it while this data waited in the socket, so its messages may
   * have arrived as early as the backlog's first read. Their events say so (`backlogSince`), and a
   * timing rule does not take the spread of such reads for the server's pacing.
   */
  private readonly readStart = (chunk: Buffer): void => {
    const now = performance.now();
    const last = this.lastRead;
    this.backlogFrom = last.bytes >= BACKLOG_READ_BYTES && now - last.done < BACKLOG_GAP_MS ? (this.backlogFrom ?? last.at) : undefined;
    this.lastRead = { at: now, bytes: chunk.length, done: Infinity };
    this.readAt = now;
  };

  private readonly readEnd = (): void => {
    this.lastRead.done = performance.now();
    this.readAt = undefined;
  };

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.stopped !== undefined || this.closeInfo) return;
    const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
    this.bytesIn += buf.length;
    this.framesIn++;
    const valid = isUtf8(buf);
    // The frames one socket read holds are decoded in one turn: they all arrived when the read came, and carry its time
    // (judging a large burst takes a while, and per-frame clock reads would spread it as if it had been streamed).
    if (this.readAt === undefined) {
      this.readAt = performance.now();
      queueMicrotask(this.endRead);
    }
    this.bus.hold(this.readAt);
    let frame: WsFrameEvent;
    try {
      frame = this.bus.emit({
        kind: "ws-frame",
        probe: this.probe(),
        connection: this.id,
        direction: "in",
        binary: isBinary,
        data: buf.toString("utf8"),
        bytes: buf.length,
        ...(valid ? {} : { invalidUtf8: true }),
        ...(this.backlogFrom !== undefined ? { backlogSince: this.bus.clockOf(this.backlogFrom) } : {}),
      }) as WsFrameEvent;
    } finally {
      this.bus.release();
    }
    const values = frameValues(frame, this.json);
    for (const json of values.length ? values : [undefined]) {
      const msg: WsMessage = { frame, json };
      this.backlog.push(msg);
      this.backlogBytes += buf.length;
      while (this.backlog.length > BACKLOG_MESSAGES || (this.backlogBytes > BACKLOG_BYTES && this.backlog.length > 1)) {
        this.backlogBytes -= this.backlog.shift()!.frame.bytes ?? 0;
      }
      this.correlate(msg);
      for (const l of this.listeners) heard(l, msg);
      for (const w of [...this.waiters]) if (matches(w.pred, msg)) w.resolve(msg);
    }
    const maxBytes = this.spec.maxBytes ?? Infinity;
    const maxFrames = this.spec.maxFrames ?? Infinity;
    if (this.bytesIn >= maxBytes || this.framesIn >= maxFrames) {
      this.cut(`${LIMIT}: ${this.framesIn} message(s), ${this.bytesIn} bytes read`, LIMIT);
      return;
    }
    const now = performance.now();
    if (now - this.rateWindow.start >= 1000) this.rateWindow = { start: now, frames: 0 };
    if (++this.rateWindow.frames > (this.spec.maxFramesPerSecond ?? Infinity)) {
      this.cut(`${LIMIT}: more than ${this.spec.maxFramesPerSecond} messages within one second (a flood); ${this.framesIn} message(s), ${this.bytesIn} bytes read`, LIMIT);
    }
  }

  private correlate(m: WsMessage): void {
    const r = m.json;
    if (!r || typeof r !== "object" || Array.isArray(r) || (r as { type?: unknown }).type !== "response") return;
    const resp = r as Record<string, unknown>;
    const id = typeof resp.id === "string" ? resp.id : undefined;
    const command = typeof resp.command === "string" ? resp.command : undefined;
    let match: Pending | undefined;
    let inexact = false;
    if (id !== undefined) {
      for (const p of this.pending) if (p.id === id) match = p;
      // A second answer to an id already answered belongs to that id: never reassign it.
      if (!match && this.answeredSet.has(id)) return;
    } else {
      for (const p of this.pending) if (p.id === undefined && (command === undefined || p.command === command)) match ??= p;
    }
    if (!match) {
      // By `command`; a response without one can only answer a command without a string type.
      const same = [...this.pending].filter((p) => p.command === (command ?? ""));
      if (same.length === 1) {
        match = same[0];
        inexact = true;
      }
    }
    if (!match) return;
    if (match.id !== undefined) this.remember(match.id);
    match.resolve({ ok: true, response: resp, frame: m.frame, ...(inexact ? { inexact: true } : {}), ms: performance.now() - match.sentAt });
  }

  private remember(id: string): void {
    this.answered.push(id);
    this.answeredSet.add(id);
    if (this.answered.length > RECENT_IDS) this.answeredSet.delete(this.answered.shift()!);
  }

  private onClose(code: number, reason: string): void {
    if (this.closeInfo) return;
    this.spec.signal?.removeEventListener("abort", this.onAbort);
    const by = this.closeBy;
    const cause = this.closing?.cause;
    // 1005 = no status in the close frame, 1006 = no close frame at all (both local codes in `ws`).
    const info: CloseInfo = { by, ...(code ? { code } : {}), ...(reason ? { reason } : {}), ...(cause ? { cause } : {}) };
    this.closeInfo = info;
    this.bus.emit({
      kind: "ws-close",
      probe: this.probe(),
      connection: this.id,
      ...(code ? { code } : {}),
      ...(reason ? { reason } : {}),
      by,
      ...(cause ? { cause } : {}),
    });
    for (const p of [...this.pending]) p.resolve({ ok: false, closed: true, ms: performance.now() - p.sentAt });
    for (const w of [...this.waiters]) w.resolve(undefined);
    this.listeners.clear();
    this.backlog.length = 0;
    this.resolveClosed(info);
  }
}

/** A read at least this large (bytes) may have left more data waiting in the socket. */
const BACKLOG_READ_BYTES = 16 * 1024;
/**
 * A read this soon (ms) after the previous one was done with found its data waiting: the next turn
 * of the loop. Large messages paced even a few milliseconds apart come later than that.
 */
const BACKLOG_GAP_MS = 2;
