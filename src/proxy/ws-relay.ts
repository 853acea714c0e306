/**
 * The WebSocket side of the proxy: an upgrade is accepted from the client only once the target
 * accepted it (a refusal is relayed as the target's HTTP answer; a target that cannot be reached
 * gets the client a 1011 close), then every message goes across one for one (text stays text,
 * binary stays binary, bytes unchanged: no compression, no UTF-8 repair), pings and pongs too,
 * and each close is passed on. Nothing is kept per frame. A connection the relay ends itself (a message over its cap or
 * in more parts than `ws` keeps, from either side; the proxy stopping) is recorded as the kit's close, never as the
 * target's or the client's: a cut at a cap with a cause starting "limit" (`cutByKit`), so no rule is judged on what
 * was not relayed.
 */
import { isUtf8 } from "node:buffer";
import type http from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer } from "ws";
import type { ProxyAdapter, WsClassifier } from "./adapter.js";
import { flatten, forwardable } from "./headers.js";
import type { ProxyJudge } from "./judge.js";
import { CLIENT_CLOSED, PROXY_PROBE } from "./judge.js";
import type { SeenSecrets } from "./secrets.js";
import { LIMIT, refusedAtCap } from "../core/transport/ws-limits.js";

/** Headers the two WebSocket handshakes make for themselves. */
const HANDSHAKE = ["host", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "sec-websocket-protocol", "sec-websocket-accept"];
const MAX_PAYLOAD = 100 * 1024 * 1024;
const REJECT_BODY_CAP = 4096;
/** Bytes queued towards one side past which the other side is read no further. */
const BACKLOG_BYTES = 4 * 1024 * 1024;
/** The cause of the closes the proxy makes when it stops. */
const STOPPED = "the proxy stopped";
/** What the side that sent nothing wrong is told when the relay cuts the connection at its cap. */
const CUT_REASON = "agentwire proxy: a message past its limits, not relayed";

export interface WsRelayOptions {
  target: URL;
  adapter: ProxyAdapter;
  judge: ProxyJudge;
  secrets: SeenSecrets;
  /** Longest wait for the target's answer to the upgrade (ms). */
  openTimeout: number;
  /** A connection ended (closed, refused or failed). */
  ended(): void;
}

interface Pending {
  protocol?: string;
  headers: string[];
}

/** Close codes an endpoint may send (RFC 6455 §7.4: 1005, 1006 and 1015 are never sent). */
const sendable = (code: number): boolean => (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);

export class WsRelay {
  private count = 0;
  private upgrades = 0;
  private readonly pending = new WeakMap<http.IncomingMessage, Pending>();
  private readonly open = new Set<{ closed: Promise<void>; cut(cause: string): void }>();
  private readonly server: WebSocketServer;

  constructor(private readonly o: WsRelayOptions) {
    this.server = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      skipUTF8Validation: true,
      maxPayload: MAX_PAYLOAD,
      autoPong: false,
      clientTracking: false,
      // The subprotocol the target chose, and the target's own 101 headers (cookies...), go to the client.
      handleProtocols: (_protocols, req) => this.pending.get(req)?.protocol ?? false,
    } as ConstructorParameters<typeof WebSocketServer>[0]);
    this.server.on("headers", (headers, req) => {
      const p = this.pending.get(req);
      if (!p) return;
      for (let i = 0; i < p.headers.length; i += 2) headers.push(`${p.headers[i]}: ${p.headers[i + 1]}`);
    });
  }

  /** Cuts every relayed connection and resolves once their closes are recorded (at most a second). */
  async close(): Promise<void> {
    const closed = [...this.open].map((p) => p.closed);
    for (const pair of this.open) pair.cut(STOPPED);
    this.server.close();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(closed), new Promise((r) => (timer = setTimeout(r, 1000)))]);
    clearTimeout(timer);
  }

  upgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    const { judge, target, adapter } = this.o;
    const bus = judge.bus;
    socket.on("error", () => socket.destroy());
    const path = req.url ?? "/";
    const url = new URL(path, target.origin);
    url.protocol = target.protocol === "https:" || target.protocol === "wss:" ? "wss:" : "ws:";
    const headers = flatten(req.rawHeaders);
    this.o.secrets.see(headers, url.href);
    const connection = `w${++this.count}`;
    let names: WsClassifier;
    try {
      names = adapter.wsClassifier!(path);
    } catch {
      names = { label: "relayed" };
    }
    judge.clientNames.set(connection, names.label);
    const record = adapter.recordsUpgrades ? { exchange: `u${++this.upgrades}`, path, url: url.href, headers } : undefined;
    if (record) judge.clientNames.set(record.exchange, "ws-upgrade");
    const answerUpgrade = (status: number) => {
      if (!record) return;
      bus.emit({ kind: "http-request", probe: PROXY_PROBE, exchange: record.exchange, label: "ws-upgrade", method: "GET", url: record.url, path: record.path, headers: record.headers });
      bus.emit({ kind: "http-response", probe: PROXY_PROBE, exchange: record.exchange, label: "ws-upgrade", status, headers: {} });
      judge.clientNames.delete(record.exchange);
    };

    const raw = req.rawHeaders;
    const forwarded = forwardable(raw, HANDSHAKE);
    const outHeaders: Record<string, string> = {};
    for (let i = 0; i < forwarded.length; i += 2) outHeaders[forwarded[i]!] = forwarded[i + 1]!;
    const protocols = (headers["sec-websocket-protocol"] ?? "").split(",").map((s) => s.trim()).filter(Boolean);
    const upstream = new WebSocket(url, protocols, {
      headers: outHeaders,
      perMessageDeflate: false,
      skipUTF8Validation: true,
      maxPayload: MAX_PAYLOAD,
      handshakeTimeout: this.o.openTimeout,
      autoPong: false,
      followRedirects: false,
    } as WebSocket.ClientOptions);

    let settled = false;
    let relayed = false;
    // The client gave up before the target answered: the target's side goes too.
    socket.once("close", () => {
      if (!relayed) upstream.terminate();
    });
    upstream.on("upgrade", (res) => {
      this.pending.set(req, {
        ...(upstream.protocol ? { protocol: upstream.protocol } : {}),
        headers: forwardable(res.rawHeaders, [...HANDSHAKE, "upgrade", "connection"]),
      });
    });
    upstream.on("unexpected-response", (_r, res) => {
      settled = true;
      // The target refused the upgrade: the client gets its answer, status, headers and body.
      const parts: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        if (size < REJECT_BODY_CAP) parts.push(c);
        size += c.byteLength;
      });
      res.on("end", () => {
        const body = Buffer.concat(parts);
        const status = res.statusCode ?? 502;
        const head = forwardable(res.rawHeaders, ["content-length"]);
        let text = `HTTP/1.1 ${status} ${res.statusMessage ?? ""}\r\n`;
        for (let i = 0; i < head.length; i += 2) text += `${head[i]}: ${head[i + 1]}\r\n`;
        socket.end(Buffer.concat([Buffer.from(`${text}content-length: ${body.byteLength}\r\nconnection: close\r\n\r\n`), body]));
        answerUpgrade(status);
        bus.emit({ kind: "ws-reject", probe: PROXY_PROBE, connection, url: url.href, label: names.label, headers, status, responseHeaders: flatten(res.rawHeaders), ...(body.byteLength ? { body: body.toString("utf8") } : {}) });
        judge.clientNames.delete(connection);
        this.o.ended();
      });
      res.on("error", () => socket.destroy());
    });
    upstream.on("error", (e: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      // Nothing answered: the client still gets a WebSocket, closed at once with 1011.
      bus.emit({ kind: "ws-reject", probe: PROXY_PROBE, connection, url: url.href, label: names.label, headers, error: `agentwire proxy: target unreachable (${e.code ?? e.message})`, ...(e.code ? { code: e.code } : {}) });
      judge.clientNames.delete(connection);
      this.server.handleUpgrade(req, socket, head, (client) => client.close(1011, "agentwire proxy: target unreachable"));
      this.o.ended();
    });
    upstream.on("open", () => {
      settled = true;
      this.server.handleUpgrade(req, socket, head, (client) => {
        relayed = true;
        this.relay(client, upstream, connection, url.href, headers, names, answerUpgrade);
      });
    });
  };

  private relay(client: WebSocket, target: WebSocket, connection: string, url: string, headers: Record<string, string>, names: WsClassifier, answerUpgrade: (status: number) => void): void {
    const bus = this.o.judge.bus;
    let recorded!: () => void;
    /** Why the relay itself ended the connection, once it did: the close is then the kit's, whichever side's ends first. */
    let own: string | undefined;
    const pair = {
      closed: new Promise<void>((r) => (recorded = r)),
      cut(cause: string) {
        own ??= cause;
        client.terminate();
        target.terminate();
      },
    };
    this.open.add(pair);
    answerUpgrade(101);
    bus.emit({ kind: "ws-open", probe: PROXY_PROBE, connection, url, headers, label: names.label });

    const frame = (direction: "in" | "out", data: WebSocket.RawData, binary: boolean) => {
      const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data as ArrayBuffer);
      const text = buf.toString("utf8");
      let label: string | undefined;
      try {
        label = names.frame?.(direction, text, binary);
      } catch {
        // A classifier's bug costs only the label.
      }
      bus.emit({ kind: "ws-frame", probe: PROXY_PROBE, connection, direction, binary, data: text, bytes: buf.byteLength, ...(isUtf8(buf) ? {} : { invalidUtf8: true }), ...(label ? { label } : {}) });
    };
    // A reader slower than its peer holds the peer back (its socket paused until the backlog is
    // sent), rather than the proxy's memory: messages, pings and pongs alike.
    const holdBack = (to: WebSocket, from: WebSocket) => {
      if (to.bufferedAmount > BACKLOG_BYTES && !from.isPaused) {
        from.pause();
        const wait = () => (to.bufferedAmount > BACKLOG_BYTES && to.readyState === WebSocket.OPEN ? setTimeout(wait, 5) : from.resume());
        setTimeout(wait, 5);
      }
    };
    const forward = (to: WebSocket, from: WebSocket, data: WebSocket.RawData, binary: boolean) => {
      if (to.readyState !== WebSocket.OPEN) return;
      to.send(data as Buffer, { binary });
      holdBack(to, from);
    };
    const control = (to: WebSocket, from: WebSocket, send: (data: Buffer) => void) => (data: Buffer) => {
      if (to.readyState !== WebSocket.OPEN) return;
      send(data);
      holdBack(to, from);
    };
    target.on("message", (data, binary) => {
      forward(client, target, data, binary);
      frame("in", data, binary);
    });
    client.on("message", (data, binary) => {
      forward(target, client, data, binary);
      frame("out", data, binary);
    });
    target.on("ping", control(client, target, (d) => client.ping(d)));
    target.on("pong", control(client, target, (d) => client.pong(d)));
    client.on("ping", control(target, client, (d) => target.ping(d)));
    client.on("pong", control(target, client, (d) => target.pong(d)));

    let closed = false;
    const end = (by: "server" | "kit", code: number, reason: Buffer, other: WebSocket) => {
      if (!closed) {
        closed = true;
        const why = reason.toString("utf8");
        // By the target: "server"; by the client: the kit's side of the target connection, so "kit" (the client view
        // gives it back to the client by its cause); by the relay itself: the kit's, with its own cause.
        const cause = own ?? (by === "kit" ? CLIENT_CLOSED : undefined);
        bus.emit({ kind: "ws-close", probe: PROXY_PROBE, connection, code, ...(why ? { reason: why } : {}), by: own ? "kit" : by, ...(cause ? { cause } : {}) });
        this.o.judge.clientNames.delete(connection);
        this.open.delete(pair);
        recorded();
        this.o.ended();
      }
      if (other.readyState === WebSocket.OPEN) {
        // The side that sent nothing wrong learns why its connection ends.
        if (own?.startsWith(LIMIT)) other.close(1011, CUT_REASON);
        else if (sendable(code)) other.close(code, reason);
        else if (code === 1005) other.close();
        else other.terminate();
      } else if (other.readyState === WebSocket.CONNECTING) other.terminate();
    };
    target.on("close", (code, reason) => end("server", code, reason, client));
    client.on("close", (code, reason) => end("kit", code, reason, target));
    // A message `ws` refused at a cap of the proxy's is the kit's cut; any other error is the peer's broken frame.
    const onError = (from: "target" | "client", ws: WebSocket) => (err: Error & { code?: string }) => {
      const cap = refusedAtCap(err, MAX_PAYLOAD);
      if (cap) own ??= `${LIMIT}: ${cap} from the ${from}, not relayed`;
      ws.terminate();
    };
    target.on("error", onError("target", target));
    client.on("error", onError("client", client));
  }
}
