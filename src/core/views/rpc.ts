/**
 * Request ↔ response correlation over WebSocket connections, as a derived view: every check of a
 * protocol that follows requests shares one correlator per connection scope. The protocol says
 * what its frames mean — which outgoing messages are requests (and their ids), which incoming ones
 * answer a request (and whether that answer is the last one: a subscription's `started` and `data`
 * are answers that keep it open, its `stopped` closes it) — and the view keeps, per connection,
 * only the requests still waiting and a bounded set of answered ids.
 */
import { REQUEST_TIMEOUT_NOTE, type WsFrameEvent } from "../transport/ws-exchange.js";
import type { TranscriptEvent } from "../transcript/transcript.js";
import { all, each, on, tap, type Guard, type Listen, type ViewDef } from "./hooks.js";
import { derivedView } from "./router.js";
import type { CloseEvent, ConnectionView, Conn, OpenEvent } from "./ws-connection.js";

type Json = Record<string, unknown>;
/** Answers kept per request: a long-lived subscription's data frames would otherwise grow with the stream. */
export const KEPT_ANSWERS = 64;
type NoteEvent = Extract<TranscriptEvent, { kind: "note" }>;

/** One request the kit sent, and what answered it so far. */
export interface RpcRequest {
  conn: Conn;
  /** The request's id as the protocol keys it (undefined: no usable id). */
  id: string | undefined;
  /** Raw `id` value. */
  rawId: unknown;
  hasId: boolean;
  /** What the request asks for (a command type, a procedure path), "" when it names nothing. */
  type: string;
  label: string | undefined;
  frame: WsFrameEvent;
  value: Json;
  /** The first frames that answered it, in order (at most {@link KEPT_ANSWERS}: a subscription's stream is not kept). */
  answers: WsFrameEvent[];
  /** How many frames answered it. */
  answerCount: number;
  /** The kit stopped waiting after this many ms (its request timeout). */
  timedOut?: number;
}

/** How an answer relates to the requests of its connection. */
export type RpcMatch =
  /** An answer to a waiting request, id (or its absence) as sent. */
  | "exact"
  /** Matched by the request type it names because the id differs (protocols with `matchByType`). */
  | "inexact"
  /** Another answer to a request already closed. */
  | "duplicate"
  /** The id is that of a request another connection sent. */
  | "foreign"
  /** The id is that of a reply the kit sent (not a request). */
  | "reply"
  | "unmatched";

/** What one outgoing message is, as the protocol reads it. */
export type RpcOut =
  | { kind: "request"; rawId: unknown; hasId: boolean; type: string; value: Json }
  /** The kit answering the server (a dialog reply): its id is not a request's. */
  | { kind: "reply"; rawId: unknown; value: Json };

/** What one incoming message is, as the protocol reads it. */
export type RpcIn =
  | {
      kind: "response";
      rawId: unknown;
      hasId: boolean;
      /** The request type the answer names, when the protocol's answers name one. */
      type?: string;
      /**
       * The request's last answer (a subscription's `started`/`data` are not); a function when it
       * depends on the request the answer matched (tRPC's data ends a mutation, not a subscription).
       */
      final: boolean | ((req: RpcRequest) => boolean);
      value: Json;
    }
  | { kind: "event"; type?: string; value: Json };

/** What a protocol supplies to correlate its traffic. */
export interface RpcProtocol<M> {
  name: string;
  /** The protocol's connection view (frames decoded once). */
  connections: ConnectionView<M>;
  /** The id a raw id is keyed by, or undefined when it is not a usable id. */
  key(rawId: unknown): string | undefined;
  outgoing(ev: WsFrameEvent, m: M, c: Conn): RpcOut[];
  incoming(ev: WsFrameEvent, m: M, c: Conn): RpcIn[];
  /**
   * An answer whose id matches nothing may still name exactly one waiting request by its type
   * (pi-web echoes `command`); without this, ids alone correlate.
   */
  matchByType?: boolean;
}

export interface RpcHandlers {
  /**
   * The requests this subscriber follows, decided once per request: with it, it hears only of them (the request, its
   * answers, its going unanswered) and not of answers matching no request; events, replies, opens and closes it hears
   * all the same. Most subscribers follow one kind of request (mutations), and a subscription's stream of answers then
   * costs them nothing.
   */
  only?(req: RpcRequest): boolean;
  request?(req: RpcRequest): void;
  reply?(ev: WsFrameEvent, value: Json, c: Conn): void;
  response?(ev: WsFrameEvent, value: Json, req: RpcRequest | undefined, how: RpcMatch, c: Conn, final: boolean): void;
  /** The request got no (last) answer: the connection closed (by whom), or the transcript ended. */
  unanswered?(req: RpcRequest, why: RpcUnanswered, ev: TranscriptEvent | undefined): void;
  /** Any other server message. */
  event?(ev: WsFrameEvent, value: Json, c: Conn, type: string | undefined): void;
  open?(ev: OpenEvent, c: Conn): void;
  close?(ev: CloseEvent, c: Conn): void;
}

export type RpcUnanswered = "closed-by-server" | "closed-by-kit" | "end";

const DONE_KEEP = 2000;

interface ConnState {
  pending: RpcRequest[];
  done: Map<string, RpcRequest>;
  doneOrder: string[];
  replies: Set<string>;
}

type RpcSub = { h: RpcHandlers; correlator?: Correlator<unknown> };

class Correlator<M> {
  readonly state = new Map<string, ConnState>();
  /** Request ids by the connection that sent them (for "foreign" answers). */
  private readonly sentBy = new Map<string, string>();
  readonly subs: { hooks: RpcSub; guard: Guard }[] = [];
  /** Per request, the subscribers that follow it (see `only`); the others hear only of answers matching no request. */
  private readonly followers = new WeakMap<RpcRequest, { hooks: RpcSub; guard: Guard }[]>();
  private unfiltered: { hooks: RpcSub; guard: Guard }[] | undefined;

  constructor(private readonly proto: RpcProtocol<M>) {}

  private each(fn: (h: RpcHandlers) => void): void {
    each(this.subs, (sub) => fn(sub.h));
  }

  private st(c: Conn): ConnState {
    let s = this.state.get(c.id);
    if (!s) this.state.set(c.id, (s = { pending: [], done: new Map(), doneOrder: [], replies: new Set() }));
    return s;
  }

  private settle(s: ConnState, req: RpcRequest): void {
    s.pending.splice(s.pending.indexOf(req), 1);
    if (req.id !== undefined) {
      s.done.set(req.id, req);
      s.doneOrder.push(req.id);
      if (s.doneOrder.length > DONE_KEEP) s.done.delete(s.doneOrder.shift()!);
    }
  }

  readonly hooks = {
    open: (ev: OpenEvent, c: Conn) => this.each((h) => h.open?.(ev, c)),
    frame: (ev: WsFrameEvent, m: M, c: Conn) => (ev.direction === "out" ? this.out(ev, m, c) : this.in(ev, m, c)),
    close: (ev: CloseEvent, c: Conn) => {
      const s = this.state.get(c.id);
      if (s) {
        for (const req of [...s.pending]) each(this.following(req), (sub) => sub.h.unanswered?.(req, ev.by === "kit" ? "closed-by-kit" : "closed-by-server", ev));
        this.state.delete(c.id);
      }
      this.each((h) => h.close?.(ev, c));
    },
  };

  private out(ev: WsFrameEvent, m: M, c: Conn): void {
    for (const o of this.proto.outgoing(ev, m, c)) {
      if (o.kind === "reply") {
        const id = this.proto.key(o.rawId);
        if (id !== undefined) this.st(c).replies.add(id);
        this.each((h) => h.reply?.(ev, o.value, c));
        continue;
      }
      const req: RpcRequest = {
        conn: c,
        id: this.proto.key(o.rawId),
        rawId: o.rawId,
        hasId: o.hasId,
        type: o.type,
        label: ev.label,
        frame: ev,
        value: o.value,
        answers: [],
        answerCount: 0,
      };
      this.st(c).pending.push(req);
      if (req.id !== undefined) this.sentBy.set(req.id, c.id);
      const following = this.subs.filter((sub) => !sub.hooks.h.only || sub.hooks.h.only(req));
      // Followed by all (a protocol whose subscribers all read every request): the list of all, not a copy per request.
      this.followers.set(req, following.length === this.subs.length ? this.subs : following);
      each(following, (sub) => sub.h.request?.(req));
    }
  }

  private in(ev: WsFrameEvent, m: M, c: Conn): void {
    for (const r of this.proto.incoming(ev, m, c)) {
      if (r.kind === "event") {
        this.each((h) => h.event?.(ev, r.value, c, r.type));
        continue;
      }
      const { req, how } = this.match(c, r);
      // An answer that matches no request counts as a last one (there is nothing for it to keep open).
      const final = typeof r.final === "function" ? (req ? r.final(req) : true) : r.final;
      if (req) {
        if (req.answers.length < KEPT_ANSWERS) req.answers.push(ev);
        req.answerCount++;
        if ((how === "exact" || how === "inexact") && final) this.settle(this.st(c), req);
      }
      // Every answer of a stream comes here: the subscribers are called in a plain loop, without a closure per answer.
      for (const sub of req ? this.following(req) : (this.unfiltered ??= this.subs.filter((x) => !x.hooks.h.only))) {
        const h = sub.hooks.h;
        if (sub.guard.dead || !h.response) continue;
        try {
          h.response(ev, r.value, req, how, c, final);
        } catch (e) {
          sub.guard.fail(e);
        }
      }
    }
  }

  /** The subscribers that follow a request. */
  following(req: RpcRequest): { hooks: RpcSub; guard: Guard }[] {
    return this.followers.get(req) ?? this.subs;
  }

  private match(c: Conn, r: Extract<RpcIn, { kind: "response" }>): { req: RpcRequest | undefined; how: RpcMatch } {
    const s = this.st(c);
    const byType = this.proto.matchByType === true;
    const id = this.proto.key(r.rawId);
    const type = r.type;
    if (id !== undefined) {
      let waiting: RpcRequest | undefined;
      for (const p of s.pending)
        if (p.id === id) {
          waiting = p;
          break;
        }
      if (waiting) return { req: waiting, how: "exact" };
      if (s.done.has(id)) {
        const earlier = s.done.get(id)!;
        // The id of a closed request on an answer naming another type that is still waiting: a wrong
        // echo of the waiting request's id, not a second answer.
        const others = byType && type !== undefined && type !== earlier.type ? s.pending.filter((p) => p.type === type) : [];
        return others.length === 1 ? { req: others[0], how: "inexact" } : { req: earlier, how: "duplicate" };
      }
      if (s.replies.has(id)) return { req: undefined, how: "reply" };
      if (this.sentBy.has(id) && this.sentBy.get(id) !== c.id) return { req: undefined, how: "foreign" };
    } else if (byType) {
      const waiting = s.pending.find((p) => !p.hasId && (type === undefined || p.type === type));
      if (waiting) return { req: waiting, how: "exact" };
    }
    if (byType) {
      // By type; an answer naming none can only answer a request without one.
      const same = s.pending.filter((p) => p.type === (type ?? ""));
      if (same.length === 1) return { req: same[0], how: "inexact" };
    }
    return { req: undefined, how: "unmatched" };
  }

  /** The kit's request timeout ran out (a note from the recording client). */
  readonly note = (ev: NoteEvent): void => {
    const v = ev.value as Json | null;
    if (ev.name !== REQUEST_TIMEOUT_NOTE || typeof v !== "object" || v === null) return;
    const s = this.state.get(String(v.connection));
    const id = v.id;
    const req = s?.pending.find((p) => (typeof id === "string" ? p.id === id : !p.hasId && p.type === v.command));
    if (req) req.timedOut = Number(v.waitedMs);
  };
}

/** A protocol's correlation view for one connection scope (`accept`: the connections it follows). */
export function rpcView<M>(proto: RpcProtocol<M>, scope: { name: string; accept?: (label: string | undefined) => boolean }): ViewDef<RpcSub> {
  return derivedView<RpcSub>(
    `${proto.name}/rpc${scope.name ? `/${scope.name}` : ""}`,
    { kinds: ["ws-open", "ws-reject", "ws-frame", "ws-close", "note"] },
    () => {
      const correlator = new Correlator(proto);
      const reads: Listen = all(
        proto.connections.on({ ...(scope.accept ? { accept: scope.accept } : {}), ...correlator.hooks }),
        tap(["note"], (ev) => ev.kind === "note" && correlator.note(ev)),
      );
      return {
        reads,
        add(hooks, guard) {
          correlator.subs.push({ hooks, guard });
          hooks.correlator = correlator as Correlator<unknown>;
        },
      };
    },
  );
}

/**
 * Subscribes a check's handlers to a correlation view. Call `end()` from finish() to hear of the
 * requests still unanswered at the end of the transcript.
 */
export function rpcHooks(view: ViewDef<RpcSub>, h: RpcHandlers): { observe: Listen; end(): void } {
  const sub: RpcSub = { h };
  let ended = false;
  return {
    observe: on(view, sub),
    end(): void {
      if (ended || !sub.correlator) return;
      ended = true;
      for (const s of sub.correlator.state.values()) for (const req of [...s.pending]) if (!h.only || h.only(req)) h.unanswered?.(req, "end", undefined);
    },
  };
}
