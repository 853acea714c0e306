/**
 * The recording client the stagewise-chat probes use: discovery over HTTP, then raw WebSocket
 * frames written by the kit — tRPC v11 requests with superjson inputs — so every frame is recorded
 * as sent and malformed ones can be sent too. Every wait is bounded; a target that stops answering
 * stops the probes after a few waits, not dozens.
 *
 * Subscription A (chat since the start) is reduced here with the normative reducer, so the probes
 * know the active chat, the last message and the pending tool calls; the checks reduce on their
 * own, from the transcript.
 */
import superjson from "superjson";
import type { ExchangeResult } from "../../core/transport/http-exchange.js";
import { StopProbing } from "../../core/probes/probe-session.js";
import type { ProbeContext } from "../../core/run/protocol.js";
import { sleep } from "../../core/mock/timing.js";
import { WsProbeSession } from "../../core/probes/ws-probe-session.js";
import { REQUEST_TIMEOUT_NOTE, type WsConnection, type WsMessage, type WsOpenResult } from "../../core/transport/ws-exchange.js";
import type { ChatUpdate } from "../../generated/stagewise-chat.js";
import { applyChatUpdate, initialChatState, parseEventId, type ChatState } from "../../stagewise/chat-state.js";
import { idKey, isObject, resultOf, type Json, type Result } from "./checks/support.js";
import { C, M } from "./labels.js";
import type { StagewiseParams } from "./params.js";

export { StopProbing } from "../../core/probes/probe-session.js";

/** This many mutations in a row without an answer means the target is not answering. */
const MAX_UNANSWERED_IN_ROW = 3;
/** r2 and §1: the toolbar gives a mutation this long (the kit waits for no answer longer). */
export const MUTATION_TIMEOUT_MS = 10_000;

export interface Target {
  http: string;
  ws: string;
  host: string;
  port: number;
}

export function resolveTarget(url: string): Target {
  const u = new URL(url);
  const secure = u.protocol === "https:" || u.protocol === "wss:";
  const prefix = u.protocol.startsWith("ws") ? "" : u.pathname.replace(/\/+$/, "");
  const port = Number(u.port || (secure ? 443 : 80));
  return { http: `${secure ? "https" : "http"}://${u.host}${prefix}`, ws: `${secure ? "wss" : "ws"}://${u.host}${prefix}`, host: u.hostname, port };
}

/** superjson as a toolbar sends it: `undefined` is `{json:null, meta:{values:["undefined"]}}`. */
export const envelope = (value: unknown): Json => superjson.serialize(value) as unknown as Json;

export interface CallResult {
  ok: boolean;
  result?: Result;
  timedOut?: boolean;
  closed?: boolean;
  ms: number;
}

/** A completed snapshot: its frames' updates, the head S, and the state they reduce to. */
export interface Snapshot {
  id: number;
  seq: number | null;
  updates: ChatUpdate[];
  state: ChatState | null;
}

const SNAPSHOT_TYPES = new Set(["chat-list", "chat-full-sync", "agent-state"]);

export class ProbeClient extends WsProbeSession {
  private ids = 0;
  private unansweredInRow = 0;
  readonly target: Target;
  readonly mutationTimeout: number;
  /** Subscription A's reduced state (the toolbar's view), and its last seq. */
  a: ChatState = initialChatState();
  aSeq: number | null = null;
  aId: number | undefined;
  /** A's snapshot is complete (its agent-state arrived). */
  aReady = false;
  /** Frames of A whose update did not apply (the state kept is the last good one). */
  aBroken = 0;
  private readonly aListeners = new Set<(u: ChatUpdate) => void>();

  constructor(
    ctx: ProbeContext,
    readonly params: StagewiseParams,
  ) {
    super(ctx, "stagewise-chat", params);
    this.target = resolveTarget(ctx.url);
    this.mutationTimeout = Math.min(MUTATION_TIMEOUT_MS, ctx.timeouts.request);
  }

  nextId(): number {
    return ++this.ids;
  }

  /** A chat procedure's path (the private router mounts them at the root). */
  chat(name: string): string {
    return `${this.params.chatPrefix}${name}`;
  }

  /** GET on the HTTP side, recorded, with the page's Origin. */
  get(label: string, path: string, base = this.target.http): Promise<ExchangeResult> {
    const t = this.ctx.timeouts;
    // The toolbar gives discovery 2 s (§1); the check judges the time, the kit waits a little longer.
    return this.recordedGet(label, base + path, { origin: this.params.origin, ...this.ctx.headers }, { headers: Math.min(t.headers, 5_000), total: Math.min(t.request, 5_000) });
  }

  /** Opens a recorded connection to the WebSocket path (another base and Origin when told). */
  async open(label: string, o: { origin?: string | null; base?: string } = {}): Promise<WsOpenResult> {
    const r = await this.openRecorded(label, `${o.base ?? this.target.ws}${this.params.wsPath}`, o.origin === undefined ? this.params.origin : o.origin);
    // A toolbar answers the server's PING at once (§1); the silent connection does so only after its first.
    if (r.ok) {
      const conn = r.conn;
      conn.onMessage((m) => m.frame.data === "PING" && conn.sendRaw("PONG", { label: M.pong }));
    }
    return r;
  }

  /** The main connection with subscription A, reopened (a bounded number of times) after a server close. */
  async ensureMain(): Promise<WsConnection> {
    const open = this.openMain();
    if (open) return open;
    const r = await this.open(C.main);
    if (!r.ok) this.stop(`the WebSocket upgrade on ${this.params.wsPath} failed: ${r.status !== undefined ? `HTTP ${r.status}` : r.error}`);
    this.main = r.conn;
    const id = this.nextId();
    this.aId = id;
    this.a = initialChatState();
    this.aSeq = null;
    this.aReady = false;
    r.conn.onMessage((m) => this.followA(m, id));
    this.subscribe(r.conn, M.subA, this.chat("getChatUpdates"), undefined, { id });
    return r.conn;
  }

  private followA(m: WsMessage, id: number): void {
    if (!isObject(m.json) || m.json.id !== id) return;
    const r = resultOf(m.json);
    if (r.kind !== "data" || !isObject(r.value)) return;
    const update = (isObject(r.value.data) ? r.value.data : r.value) as unknown as ChatUpdate;
    if (!isObject(update)) return;
    const seq = parseEventId(r.eventId);
    // A new chat-list starts a snapshot again: the state is replaced (r6).
    const base = update.type === "chat-list" ? initialChatState() : this.a;
    const next = applyChatUpdate(base, update, (this.a.lastSeq ?? -1) + 1);
    if (next.ok) this.a = next.state;
    else this.aBroken++;
    if (seq !== null) this.aSeq = seq;
    if (update.type === "agent-state") this.aReady = true;
    for (const l of [...this.aListeners]) l(update);
  }

  /** Waits until A's state satisfies `pred` (checked now and after each of A's updates); false on timeout or close. */
  waitA(pred: (s: ChatState, u: ChatUpdate | undefined) => boolean, timeout: number): Promise<boolean> {
    if (pred(this.a, undefined)) return Promise.resolve(true);
    const conn = this.main;
    return new Promise((resolve) => {
      let done = false;
      const finish = (v: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.aListeners.delete(l);
        resolve(v);
      };
      const l = (u: ChatUpdate) => pred(this.a, u) && finish(true);
      const timer = setTimeout(() => finish(false), Math.max(0, timeout));
      this.aListeners.add(l);
      void conn?.closed.then(() => finish(false));
    });
  }

  /** Sends a subscription; returns its id. */
  subscribe(conn: WsConnection, label: string, path: string, input: unknown, o: { id?: number; lastEventId?: string } = {}): number {
    const id = o.id ?? this.nextId();
    conn.send(
      { id, method: "subscription", params: { path, input: envelope(input), ...(o.lastEventId !== undefined ? { lastEventId: o.lastEventId } : {}) } },
      { label },
    );
    return id;
  }

  /** Ends a subscription (no `stopped` frame is awaited: the upstream routers send none). */
  stopSubscription(conn: WsConnection, id: number, label: string): void {
    conn.send({ id, method: "subscription.stop" }, { label });
  }

  /**
   * Subscribes to chat updates and collects the snapshot: the frames up to its agent-state (or the
   * first frame of another type). Undefined when it did not complete in time.
   */
  async snapshot(conn: WsConnection, label: string, o: { lastEventId?: string; keep?: boolean; timeout?: number } = {}): Promise<Snapshot | undefined> {
    const id = this.nextId();
    const updates: ChatUpdate[] = [];
    let seq: number | null = null;
    const done = conn.until(
      (m) => {
        if (!isObject(m.json) || m.json.id !== id) return false;
        const r = resultOf(m.json);
        if (r.kind === "error" || r.kind === "stopped") return true;
        if (r.kind !== "data" || !isObject(r.value)) return false;
        const u = (isObject(r.value.data) ? r.value.data : r.value) as unknown as ChatUpdate;
        if (!isObject(u) || typeof u.type !== "string" || !SNAPSHOT_TYPES.has(u.type)) return true;
        updates.push(u);
        seq ??= parseEventId(r.eventId);
        return u.type === "agent-state";
      },
      Math.min(o.timeout ?? this.params.updateWaitMs, this.ctx.timeouts.request),
    );
    this.subscribe(
      conn,
      label,
      this.chat("getChatUpdates"),
      o.lastEventId !== undefined ? { lastEventId: o.lastEventId } : undefined,
      o.lastEventId !== undefined ? { id, lastEventId: o.lastEventId } : { id },
    );
    const end = await done;
    if (!o.keep && conn.isOpen) this.stopSubscription(conn, id, M.stop(label));
    if (!end || !updates.length) return undefined;
    let state: ChatState | null = initialChatState();
    for (const [i, u] of updates.entries()) {
      const r = applyChatUpdate(state, u, i);
      state = r.ok ? r.state : null;
      if (!state) break;
    }
    return { id, seq, updates, state };
  }

  /**
   * Sends a mutation and waits for its first answer. Stops the run after several unanswered
   * mutations in a row; a timed-out one leaves a note so the checks know the kit gave up.
   */
  async mutate(label: string, path: string, input: unknown, o: { conn?: WsConnection; timeout?: number; raw?: Json } = {}): Promise<CallResult> {
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    const conn = o.conn ?? (await this.ensureMain());
    const id = this.nextId();
    const timeout = Math.min(o.timeout ?? this.mutationTimeout, this.ctx.timeouts.request);
    // Malformed calls on a side connection may go unanswered without the agent being dead.
    const counts = o.conn === undefined || o.conn === this.main;
    const t0 = performance.now();
    const answer = conn.until((m) => isObject(m.json) && m.json.id === id && ("result" in m.json || "error" in m.json), timeout);
    const frame = o.raw ?? { id, method: "mutation", params: { path, input: envelope(input) } };
    if (!conn.send({ ...frame, id }, { label })) return { ok: false, closed: true, ms: 0 };
    const m = await answer;
    const ms = performance.now() - t0;
    if (this.ctx.signal.aborted) throw new StopProbing("aborted");
    if (!m) {
      // Not the agent's silence: the kit cut the connection the answer would have come on.
      if (conn === this.main) this.stopIfCut(conn);
      const timedOut = conn.isOpen;
      if (timedOut) this.note(REQUEST_TIMEOUT_NOTE, { connection: conn.id, id: idKey(id), command: `mutation ${path}`, waitedMs: timeout, label });
      if (counts) this.unansweredInRow++;
      if (this.unansweredInRow >= MAX_UNANSWERED_IN_ROW) this.stop(`${MAX_UNANSWERED_IN_ROW} mutations in a row got no answer (last: ${label})`);
      return { ok: false, ...(timedOut ? { timedOut } : { closed: true }), ms };
    }
    if (counts) this.unansweredInRow = 0;
    const result = resultOf(m.json as Json);
    return { ok: result.kind === "data", result, ms };
  }

  /** The data a successful mutation returned (deserialized). */
  static value(r: CallResult): unknown {
    return r.result?.kind === "data" ? r.result.value : undefined;
  }

  /** Waits `ms` (bounded) for quiet. */
  quiet(ms: number): Promise<void> {
    return sleep(Math.min(ms, 2_000), this.ctx.signal);
  }

  async close(conn: WsConnection | undefined): Promise<void> {
    await conn?.close(1000, "", this.ctx.timeouts.close);
  }
}
