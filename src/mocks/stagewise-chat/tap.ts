/**
 * One connection's socket as tRPC sees it: a WebSocket look-alike between the router's connection handler and the
 * real transport (node's `ws`, or msw's client). Incoming requests are followed (and answered by the mock when a hook
 * says so); outgoing frames are classified, rewritten by the hooks, paced and sent. Browser-safe.
 */
import type { SeqEvent } from "../../stagewise/adapter/chat-store.js";
import type { Connection, MockContext, StagewiseHooks } from "./hooks.js";
import { framePrefix, LiveChatWriter, type LiveSocket } from "./live-chat.js";
import { CHAT_PATH, parseRequests, type Frame, type FrameKind, type Json, type Request, type Sub } from "./wire.js";

/** The real socket underneath. */
export interface Transport {
  /** `live`: a live chat update written by the mock, which the transport may gather with others of its burst. */
  send(data: string, options: { binary: boolean; fragment: number; live?: boolean }): void;
  close(code: number, reason: string): void;
  terminate(): void;
}

type Listener = (...args: unknown[]) => void;

const OPEN = 1;
const CLOSED = 3;
/** How a live update goes to the transport when no framing cuts it (one object for all). */
const LIVE = Object.freeze({ binary: false, fragment: 0, live: true });
/** r2: a client waits at most 2 s for an update after the mutation's answer; result-first holds updates no longer. */
const HOLD_MS = 2_000;

export class TapSocket implements Connection, LiveSocket {
  readonly subs = new Map<string, Sub>();
  readonly requests = new Map<string, Request>();
  readonly scratch = new Map<string, unknown>();
  private readonly listeners = new Map<string, Set<{ fn: Listener; once: boolean }>>();
  private state = OPEN;
  /** Frames wait here while an earlier one is delayed. */
  private queue: Promise<void> = Promise.resolve();
  private queued = 0;
  private held: Frame[] = [];
  private holdTimer: ReturnType<typeof setTimeout> | null = null;
  /** Chat subscriptions whose live updates the mock writes itself (live-chat.ts), by id. */
  private readonly live = new Map<string, LiveChatWriter>();

  constructor(
    private readonly transport: Transport,
    readonly ctx: MockContext,
    private readonly hooks: () => StagewiseHooks,
    /** What the router's handler expects as a message (node: a Buffer). */
    private readonly toRaw: (text: string) => unknown = (text) => text,
    /** tRPC started a chat subscription (its `started` frame): the engine may hand its live updates to this socket. */
    private readonly chatStarted?: (socket: TapSocket, sub: Sub, text: string) => void,
  ) {}

  // ---- the tRPC side: a WebSocket look-alike ----

  get readyState(): number {
    return this.state;
  }

  on(event: string, fn: Listener): this {
    this.add(event, fn, false);
    return this;
  }

  once(event: string, fn: Listener): this {
    this.add(event, fn, true);
    return this;
  }

  off(event: string, fn: Listener): this {
    for (const l of this.listeners.get(event) ?? []) if (l.fn === fn) this.listeners.get(event)!.delete(l);
    return this;
  }

  private add(event: string, fn: Listener, once: boolean): void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add({ fn, once });
  }

  private emit(event: string, ...args: unknown[]): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) {
      if (l.once) this.listeners.get(event)!.delete(l);
      l.fn(...args);
    }
  }

  send(data: unknown): void {
    if (this.state !== OPEN) return;
    this.outgoing(typeof data === "string" ? data : String(data));
  }

  close(code = 1000, reason = ""): void {
    if (this.state !== OPEN) return;
    this.state = 2;
    this.transport.close(code, reason);
  }

  terminate(): void {
    if (this.state === CLOSED) return;
    this.state = 2;
    this.transport.terminate();
  }

  // ---- the transport side ----

  /** A message from the toolbar. */
  receive(text: string, binary = false): void {
    if (this.state !== OPEN) return;
    if (binary || text === "PING" || text === "PONG") {
      this.emit("message", this.toRaw(text), binary);
      return;
    }
    const parsed = parseRequests(text);
    if (!parsed) {
      this.emit("message", this.toRaw(text), false);
      return;
    }
    const hooks = this.hooks();
    const forward: unknown[] = [];
    parsed.requests.forEach((request, i) => {
      this.follow(request);
      // Malformed requests are tRPC's to refuse (PARSE_ERROR), whatever a fault would answer.
      const answer = request.method === "subscription.stop" || !request.wellFormed ? undefined : hooks.answer?.(request, this);
      if (answer) {
        this.requests.delete(String(request.id));
        for (const frame of answer) this.outgoing(frame);
      } else forward.push(parsed.raw[i]);
    });
    if (forward.length === 0) return;
    const out = forward.length === parsed.raw.length ? text : JSON.stringify(parsed.batch ? forward : forward[0]);
    this.emit("message", this.toRaw(out), false);
  }

  /** The transport closed. */
  closed(code: number, reason: string): void {
    if (this.state === CLOSED) return;
    this.state = CLOSED;
    if (this.holdTimer) clearTimeout(this.holdTimer);
    for (const writer of [...this.live.values()]) writer.close();
    this.emit("close", code, reason);
  }

  private follow(r: Request): void {
    const key = String(r.id);
    if (r.method === "subscription") {
      this.subs.set(key, {
        id: r.id as string | number,
        path: r.path,
        resumed: r.lastEventId !== undefined,
        ...(r.lastEventId !== undefined ? { lastEventId: r.lastEventId } : {}),
        sent: 0,
        snapshotOver: false,
        stopped: false,
      });
    } else if (r.method === "subscription.stop") {
      const sub = this.subs.get(key);
      if (sub) sub.stopped = true;
      // tRPC stops the subscription as this request reaches it: no update may follow.
      this.live.get(key)?.close();
    } else this.requests.set(key, r);
  }

  // ---- outgoing ----

  private classify(text: string): Frame {
    if (text === "PING") return { kind: "ping", text };
    if (text === "PONG") return { kind: "pong", text };
    let json: Json;
    try {
      json = JSON.parse(text) as Json;
    } catch {
      return { kind: "other", text };
    }
    if (!json || typeof json !== "object") return { kind: "other", text };
    if (json.method === "reconnect") return { kind: "reconnect", text, json };
    const key = String(json.id);
    const sub = this.subs.get(key);
    const request = this.requests.get(key);
    let kind: FrameKind = "other";
    if (json.error) kind = "error";
    else if (json.result?.type === "started") kind = "started";
    else if (json.result?.type === "stopped") kind = "stopped";
    else if (json.result?.type === "data") kind = request ? "result" : sub ? "event" : "result";
    const frame: Frame = { kind, text, json, ...(sub && !request ? { sub } : {}), ...(request ? { request } : {}) };
    if (kind === "started" && sub && !request && sub.path === CHAT_PATH) this.chatStarted?.(this, sub, text);
    if (kind === "event" && sub) {
      sub.sent++;
      if (sub.path === CHAT_PATH && !sub.snapshotOver) {
        frame.snapshot = true;
        if (json.result?.data?.json?.data?.type === "agent-state") sub.snapshotOver = true;
      }
    }
    return frame;
  }

  private outgoing(text: string): void {
    const frame = this.classify(text);
    if ((frame.kind === "result" || frame.kind === "error") && frame.request) this.requests.delete(String(frame.request.id));
    const hooks = this.hooks();
    // Unrewritten, a frame goes out as tRPC wrote it (parsing and writing it again gives the same text).
    const frames = hooks.outgoing ? hooks.outgoing(frame, this) : [{ ...frame, raw: text }];
    for (const f of frames) this.enqueue(f, hooks);
    // The snapshot's last frame is out (or on its way): live updates that came meanwhile follow it.
    if (frame.snapshot && frame.sub?.snapshotOver) {
      const writer = this.live.get(String(frame.sub.id));
      if (writer?.sub === frame.sub) writer.snapshotSent();
    }
    if (hooks.resultFirst && (frame.kind === "result" || frame.kind === "error") && !this.mutationPending()) this.release();
  }

  /**
   * A writer for the live updates of chat subscription `sub`, which tRPC just started with `startedText`; undefined
   * when its frames are not tRPC's usual ones.
   */
  liveChat(sub: Sub, startedText: string, viaTrpc: (event: SeqEvent) => void): LiveChatWriter | undefined {
    const prefix = framePrefix(startedText);
    const key = String(sub.id);
    if (prefix === undefined || this.state !== OPEN || sub.stopped || this.subs.get(key) !== sub) return undefined;
    this.live.get(key)?.close();
    const writer = new LiveChatWriter(this, sub, prefix, viaTrpc, () => {
      if (this.live.get(key) === writer) this.live.delete(key);
    });
    this.live.set(key, writer);
    return writer;
  }

  /** A live chat update's frame, as tRPC would have sent it. */
  writeLive(sub: Sub, text: string, key = String(sub.id)): void {
    if (this.state !== OPEN) return;
    const hooks = this.hooks();
    // Hooks that see or hold frames, an earlier frame still waiting, an id in use twice: the way tRPC's frames go.
    if (hooks.outgoing || hooks.resultFirst || this.queued > 0 || this.subs.get(key) !== sub || (this.requests.size > 0 && this.requests.has(key))) {
      this.outgoing(text);
      return;
    }
    sub.sent++;
    this.transport.send(text, hooks.fragment ? { binary: false, fragment: hooks.fragment, live: true } : LIVE);
  }

  private mutationPending(): boolean {
    for (const r of this.requests.values()) if (r.method === "mutation") return true;
    return false;
  }

  private enqueue(frame: Frame, hooks: StagewiseHooks): void {
    if (hooks.resultFirst && frame.kind === "event" && frame.sub?.path === CHAT_PATH && !frame.snapshot && this.mutationPending()) {
      this.held.push(frame);
      this.holdTimer ??= setTimeout(() => this.release(), HOLD_MS);
      return;
    }
    if (frame.waitFor) {
      // Held on its own: the frames after it go on (an answer that waits for the turn lets the turn through).
      void frame
        .waitFor()
        .then(() => this.write(frame, hooks))
        .catch(() => {});
      return;
    }
    const wait = frame.delayMs ?? 0;
    if (wait <= 0 && this.queued === 0) {
      this.write(frame, hooks);
      return;
    }
    this.queued++;
    this.queue = this.queue
      .then(() => (wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : undefined))
      .then(() => this.write(frame, hooks))
      .catch(() => {})
      .finally(() => this.queued--);
  }

  private release(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    const held = this.held;
    this.held = [];
    const hooks = this.hooks();
    for (const f of held) this.enqueue(f, { ...hooks, resultFirst: false });
  }

  private write(frame: Frame, hooks: StagewiseHooks): void {
    if (this.state !== OPEN) return;
    const text = frame.json && frame.kind !== "ping" && frame.kind !== "pong" ? (frame.raw ?? JSON.stringify(frame.json)) : frame.text;
    this.transport.send(text, { binary: frame.binary === true, fragment: hooks.fragment ?? 0 });
    if (frame.closeAfter) this.close(1008, "closed by the agent");
  }
}
