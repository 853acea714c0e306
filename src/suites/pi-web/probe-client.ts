/**
 * The recording client the pi-web probes use: target URLs from --url (http(s):// or ws(s)://,
 * with or without the /ws path), the token as `?token=`, Origin on every upgrade, numbered
 * command ids, bounded waits, and an early stop when the target stops answering, so a dead or
 * hanging target costs a few timeouts, not dozens.
 */
import { StopProbing } from "../../core/probes/probe-session.js";
import type { ExchangeResult } from "../../core/transport/http-exchange.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import { sleep } from "../../core/mock/timing.js";
import { WsProbeSession } from "../../core/probes/ws-probe-session.js";
import { type RequestResult, type WsConnection, type WsMessage, type WsOpenResult } from "../../core/transport/ws-exchange.js";
import { deadline, type Deadline } from "../../core/transport/deadline.js";
import { C } from "./labels.js";
import type { PiWebParams } from "./params.js";

export { StopProbing } from "../../core/probes/probe-session.js";

/** The contract's client timeout for a command (seed: "Requests time out after 30 seconds"). */
export const COMMAND_TIMEOUT_MS = 30_000;
/** This many requests in a row without an answer means the target is not answering. */
const MAX_UNANSWERED_IN_ROW = 3;
/** This many upgrades in a row without any answer means the target no longer answers upgrades. */
const MAX_UNANSWERED_UPGRADES_IN_ROW = 2;

export interface Target {
  /** http(s)://host:port[/prefix], for /health. */
  http: string;
  /** ws(s)://host:port[/prefix]. */
  ws: string;
  /** The WebSocket path (from --url when it has one, else the wsPath parameter). */
  wsPath: string;
  host: string;
  port: string;
  token: string | undefined;
  origin: string;
}

/** Reads --url in any of its accepted forms: http://h:p, ws://h:p/ws, ws://h:p/ws?token=… */
export function resolveTarget(url: string, token: string | undefined, params: PiWebParams): Target {
  const u = new URL(url);
  const isWs = u.protocol === "ws:" || u.protocol === "wss:";
  const secure = u.protocol === "https:" || u.protocol === "wss:";
  const path = u.pathname.replace(/\/+$/, "");
  // A ws:// URL names the socket itself (ws://127.0.0.1:4781/ws); an http:// URL is the base.
  const prefix = isWs ? "" : path;
  const wsPath = isWs && path !== "" ? path : params.wsPath;
  const hostPort = u.host;
  const port = u.port || (secure ? "443" : "80");
  const origin = params.origin || `${secure ? "https" : "http"}://${u.hostname}:${port}`;
  return {
    http: `${secure ? "https" : "http"}://${hostPort}${prefix}`,
    ws: `${secure ? "wss" : "ws"}://${hostPort}${prefix}`,
    wsPath,
    host: u.hostname,
    port,
    token: token ?? u.searchParams.get("token") ?? undefined,
    origin,
  };
}

export interface OpenOptions {
  path?: string;
  /** undefined: the run's token; null: none; a string: that token. */
  token?: string | null;
  /** undefined: the configured Origin; null: none. */
  origin?: string | null;
}

export class ProbeClient extends WsProbeSession {
  private ids = 0;
  private unansweredInRow = 0;
  passive: WsConnection | undefined;
  readonly target: Target;
  readonly requestTimeout: number;

  constructor(
    ctx: ProbeContext,
    readonly params: PiWebParams,
  ) {
    super(ctx, "pi-web", params);
    this.target = resolveTarget(ctx.url, ctx.token, params);
    this.requestTimeout = Math.min(COMMAND_TIMEOUT_MS, ctx.timeouts.request);
  }






  nextId(): string {
    return `aw-${++this.ids}`;
  }

  /** GET on the HTTP side of the target, recorded. */
  get(label: string, path: string): Promise<ExchangeResult> {
    const t = this.ctx.timeouts;
    return this.recordedGet(label, this.target.http + path, {}, { headers: t.headers, total: t.request });
  }

  /** Opens a recorded connection; the URL gets the token unless told otherwise. */
  async open(label: string, o: OpenOptions = {}): Promise<WsOpenResult> {
    const token = o.token === undefined ? this.target.token : o.token;
    const url = `${this.target.ws}${o.path ?? this.target.wsPath}${token != null ? `?token=${encodeURIComponent(token)}` : ""}`;
    const r = await this.openRecorded(label, url, o.origin === undefined ? this.target.origin : o.origin);
    // Each unanswered upgrade costs a whole timeout: a target that stopped answering them (one
    // busy flooding, say) must not cost one per remaining probe.
    this.unansweredUpgradesInRow = !r.ok && r.code === "ETIMEDOUT" ? this.unansweredUpgradesInRow + 1 : 0;
    if (this.unansweredUpgradesInRow >= MAX_UNANSWERED_UPGRADES_IN_ROW) {
      this.stop(`${MAX_UNANSWERED_UPGRADES_IN_ROW} upgrades in a row got no answer (last: ${label}, ${r.ok ? "" : r.error})`);
    }
    return r;
  }

  private unansweredUpgradesInRow = 0;

  /** The main connection, reopened (a bounded number of times) after the server closed it. */
  async ensureMain(): Promise<WsConnection> {
    const open = this.openMain();
    if (open) return open;
    const r = await this.open(C.main);
    if (!r.ok) this.stop(`the /ws upgrade failed: ${r.status !== undefined ? `HTTP ${r.status}` : r.error}`);
    this.main = r.conn;
    this.busy = false;
    r.conn.onMessage((m) => {
      const type = typeOf(m);
      if (type === "agent_start") this.busy = true;
      else if (type === "agent_end" || type === "session_changed") this.busy = false;
    });
    return r.conn;
  }

  /** A run is in progress on the main connection, as far as its events tell. */
  busy = false;

  /**
   * Waits until the main connection's run (if any) has ended — or the server has been silent for
   * `quiet` ms, as after a run that never sends agent_end — so the next prompt finds it idle.
   */
  async awaitIdle(quiet: number): Promise<void> {
    const conn = this.main;
    if (!conn?.isOpen || !this.busy) return;
    // A run that outlasted the stream limit once will not end for the next wait either.
    if (this.endless === undefined) {
      const limit = this.ctx.timeouts.stream;
      await this.waitFor(conn, (m) => typeOf(m) === "agent_end" || typeOf(m) === "session_changed", {
        total: limit,
        idle: quiet,
        onLimit: () => this.neverEnded(`a run still had no agent_end after the ${limit} ms stream limit`),
      });
    }
    this.busy = false;
  }

  /**
   * Why runs are no longer attempted: a run went on streaming past the stream limit without its
   * agent_end. Each further run would cost the whole limit again (twice: the wait for the previous
   * run to end, then its own), so one such run ends them.
   */
  endless: string | undefined;

  /** Records the first run that never ended (see `endless`). */
  neverEnded(reason: string): void {
    this.endless ??= reason;
  }

  /**
   * Sends a command and waits for its response. `id: false` sends none; otherwise a fresh id
   * unless the command has one. Stops the run after several unanswered requests in a row.
   */
  async request(label: string, command: Record<string, unknown>, o: { conn?: WsConnection; id?: boolean; timeout?: number } = {}): Promise<RequestResult> {
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    const conn = o.conn ?? (await this.ensureMain());
    const cmd = o.id === false || "id" in command ? command : { id: this.nextId(), ...command };
    const r = await conn.request(cmd, { timeout: o.timeout ?? this.requestTimeout, label });
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    // Not the server's silence: the kit cut the connection the answer would have come on.
    if (r.closed && conn === this.main) this.stopIfCut(conn);
    this.unansweredInRow = r.ok ? 0 : this.unansweredInRow + 1;
    if (this.unansweredInRow >= MAX_UNANSWERED_IN_ROW) {
      this.stop(`${MAX_UNANSWERED_IN_ROW} commands in a row got no response (last: ${label}, ${r.timedOut ? `no answer within ${Math.round(r.ms)} ms` : "connection closed"})`);
    }
    return r;
  }

  /**
   * Waits for a message matching `pred`, giving up after `total` ms, or after `idle` ms without
   * any message, or when the connection closes. `onLimit` is told when it gave up on `total`.
   */
  waitFor(conn: WsConnection, pred: (m: WsMessage) => boolean, o: { total: number; idle?: number; onLimit?: () => void }): Promise<WsMessage | undefined> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (m: WsMessage | undefined) => {
        if (done) return;
        done = true;
        total.clear();
        idle?.clear();
        off();
        resolve(m);
      };
      const total = deadline(o.total, () => {
        if (!done) o.onLimit?.();
        finish(undefined);
      });
      let idle: Deadline | undefined = o.idle !== undefined ? deadline(o.idle, () => finish(undefined)) : undefined;
      const off = conn.onMessage((m) => {
        if (pred(m)) return finish(m);
        if (o.idle !== undefined) {
          idle?.clear();
          idle = deadline(o.idle, () => finish(undefined));
        }
      });
      void conn.closed.then(() => finish(undefined));
      if (!conn.isOpen) finish(undefined);
    });
  }

  /** Waits `ms` (bounded by the close timeout) for quiet. */
  quiet(ms: number): Promise<void> {
    return sleep(Math.min(ms, this.ctx.timeouts.close), this.ctx.signal);
  }

  async closeAll(): Promise<void> {
    const t = this.ctx.timeouts.close;
    await Promise.all([this.passive?.close(1000, "", t), this.main?.close(1000, "", t)]);
  }
}

/** The `type` of a parsed message. */
export const typeOf = (m: WsMessage): unknown => (m.json && typeof m.json === "object" && !Array.isArray(m.json) ? (m.json as { type?: unknown }).type : undefined);
export const isType =
  (...types: string[]) =>
  (m: WsMessage): boolean =>
    types.includes(typeOf(m) as string);
/** A message_update whose assistantMessageEvent has one of `kinds`. */
export const isUpdate =
  (...kinds: string[]) =>
  (m: WsMessage): boolean => {
    if (typeOf(m) !== "message_update") return false;
    const u = (m.json as { assistantMessageEvent?: { type?: unknown } }).assistantMessageEvent;
    return kinds.includes(u?.type as string);
  };
