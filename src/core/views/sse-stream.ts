/**
 * The SSE stream view: which exchanges are streams the rules read (a protocol's `select`, and a
 * 2xx head), and their events decoded once by the protocol's decoder. Each subscribing check gets
 * per-stream state of its own (`start`), and only the hooks it has are called: most checks never
 * read raw lines or chunks, which are most of a long stream.
 */
import type { CheckContext } from "../checks/check.js";
import { is2xx, lineKind, type LineKind } from "../checks/check-helpers.js";
import type { EventKind, TranscriptEvent } from "../transcript/transcript.js";
import { type Guard, type Listen, on, type ViewDef } from "./hooks.js";

type Ev<K extends TranscriptEvent["kind"]> = Extract<TranscriptEvent, { kind: K }>;
type RequestEvent = Ev<"http-request">;
type ResponseEvent = Ev<"http-response">;
export type SseEventEvent = Ev<"sse-event">;
export type SseLineEvent = Ev<"sse-line">;
export type ChunkEvent = Ev<"body-chunk">;
export type BodyEndEvent = Ev<"body-end">;

/** What a protocol supplies: which requests open streams, its stream record, and event meaning. */
export interface StreamDecoder<S, V> {
  name: string;
  /** The request's answer, when 2xx, is a stream the rules read. */
  select(request: RequestEvent, ctx: CheckContext): boolean;
  /** The protocol's record of one stream, made at its head. */
  open(request: RequestEvent, head: ResponseEvent, ctx: CheckContext): S;
  /** What an event means, decoded once for every check. */
  decode(ev: SseEventEvent, s: S): V;
  /**
   * The class of a decoded event (its payload's type, say), for checks whose event hook reads only
   * some classes (`only`): a long stream's events then skip the hooks that would ignore them.
   */
  tag?(v: V, s: S): string;
  /**
   * Raw lines the stream record keeps facts about (an event sent but never ended by its empty
   * line), before any check's line hook. Having it routes lines for every stream.
   */
  line?(ev: SseLineEvent, s: S, kind: LineKind): void;
  /** The body ended (before any check's end hook). */
  close?(ev: BodyEndEvent, s: S): void;
}

/** A check's hooks on a stream view, with per-stream state of its own. */
export interface StreamHooks<S, V, St = unknown> {
  /**
   * Whether the check reads this stream at all (asked at its head); false: none of its hooks hear of it, the end
   * included. Absent: every stream.
   */
  accept?(s: S): boolean;
  start(s: S): St;
  event?(ev: SseEventEvent, v: V, s: S, st: St): void;
  /**
   * The event classes (the decoder's `tag`) the event hook reads; absent: every event. A hook may
   * still be called for an event it ignores, never left out of one it reads.
   */
  only?: readonly string[];
  /** A raw line, with its kind (classified once for every check). */
  line?(ev: SseLineEvent, s: S, st: St, kind: LineKind): void;
  /** The line kinds the line hook reads; absent: every line. Like `only`, it may list more, never less. */
  lineKinds?: readonly LineKind[];
  chunk?(ev: ChunkEvent, s: S, st: St): void;
  /** The body ended (eof, timeout, reset...). */
  end?(ev: BodyEndEvent, s: S, st: St): void;
}

type Sub<S, V> = { hooks: StreamHooks<S, V, unknown>; guard: Guard };
/**
 * One hook of one check on one stream: the function itself (one shape for every hook, so the loops
 * below read it without looking it up on hooks objects of many shapes), its guard and the state.
 */
type Bound<F> = { fn: F; guard: Guard; st: unknown; only: readonly string[] | undefined };
type EventFn<S, V> = (ev: SseEventEvent, v: V, s: S, st: unknown) => void;
type LineFn<S> = (ev: SseLineEvent, s: S, st: unknown, kind: LineKind) => void;
type ChunkFn<S> = (ev: ChunkEvent, s: S, st: unknown) => void;
type EndFn<S> = (ev: BodyEndEvent, s: S, st: unknown) => void;
/**
 * A stream in progress, with its checks listed per hook once at the head: a long stream's events
 * then visit only the checks that have a hook for them.
 */
type Live<S, V> = {
  s: S;
  events: Bound<EventFn<S, V>>[];
  byTag: Map<string, Bound<EventFn<S, V>>[]>;
  /** Line hooks by the line kind they read. */
  lines: Record<LineKind, Bound<LineFn<S>>[]>;
  chunks: Bound<ChunkFn<S>>[];
  ends: Bound<EndFn<S>>[];
};

const LINE_KINDS: readonly LineKind[] = ["blank", "comment", "data", "field"];

/** The event hooks of a stream that read events of class `tag`, listed on the first such event. */
function tagged<S, V>(l: Live<S, V>, tag: string): Bound<EventFn<S, V>>[] {
  let list = l.byTag.get(tag);
  if (!list) {
    list = l.events.filter((b) => !b.only || b.only.includes(tag));
    l.byTag.set(tag, list);
  }
  return list;
}

export type StreamView<S, V> = ViewDef<StreamHooks<S, V, unknown>> & {
  on<St>(hooks: StreamHooks<S, V, St>): Listen;
};

export function sseStreamView<S, V>(decoder: StreamDecoder<S, V>): StreamView<S, V> {
  const view: ViewDef<StreamHooks<S, V, unknown>> = {
    name: decoder.name,
    kinds: ["http-request", "http-response", "http-error", "sse-event", "sse-line", "body-chunk", "body-end"],
    create(ctx) {
      const subs: Sub<S, V>[] = [];
      const pending = new Map<string, RequestEvent>();
      const live = new Map<string, Live<S, V>>();
      // The stream of the previous event: a long stream's events come in runs of one exchange.
      let lastId: string | undefined;
      let last: Live<S, V> | undefined;
      const find = (exchange: string): Live<S, V> | undefined => {
        if (exchange === lastId) return last;
        lastId = exchange;
        return (last = live.get(exchange));
      };
      let lines = false;
      let chunks = false;
      const fail = (sub: { guard: Guard }, e: unknown) => sub.guard.fail(e);
      return {
        add(hooks, guard) {
          subs.push({ hooks, guard });
          if (hooks.line) lines = true;
          if (hooks.chunk) chunks = true;
        },
        kinds() {
          // Raw lines and chunks only when a check reads them.
          const k: EventKind[] = ["http-request", "http-response", "http-error", "sse-event", "body-end"];
          if (lines || decoder.line) k.push("sse-line");
          if (chunks) k.push("body-chunk");
          return k;
        },
        observe(ev) {
          switch (ev.kind) {
            case "http-request":
              if (decoder.select(ev, ctx)) pending.set(ev.exchange, ev);
              return;
            case "http-response": {
              const request = pending.get(ev.exchange);
              if (!request) return;
              pending.delete(ev.exchange);
              if (!is2xx(ev.status)) return;
              const s = decoder.open(request, ev, ctx);
              const l: Live<S, V> = { s, events: [], byTag: new Map(), lines: { blank: [], comment: [], data: [], field: [] }, chunks: [], ends: [] };
              for (const sub of subs) {
                if (sub.guard.dead) continue;
                try {
                  const h = sub.hooks;
                  if (h.accept && !h.accept(s)) continue;
                  const st = h.start(s);
                  const only = h.only;
                  if (h.event) l.events.push({ fn: h.event, guard: sub.guard, st, only });
                  if (h.line) {
                    const bound = { fn: h.line, guard: sub.guard, st, only };
                    for (const k of LINE_KINDS) if (!h.lineKinds || h.lineKinds.includes(k)) l.lines[k].push(bound);
                  }
                  if (h.chunk) l.chunks.push({ fn: h.chunk, guard: sub.guard, st, only });
                  if (h.end) l.ends.push({ fn: h.end, guard: sub.guard, st, only });
                } catch (e) {
                  fail(sub, e);
                }
              }
              live.set(ev.exchange, l);
              if (ev.exchange === lastId) last = l;
              return;
            }
            case "http-error":
              pending.delete(ev.exchange);
              return;
            case "sse-event": {
              const l = find(ev.exchange);
              if (!l) return;
              const v = decoder.decode(ev, l.s);
              const list = decoder.tag ? tagged(l, decoder.tag(v, l.s)) : l.events;
              for (const sub of list) {
                if (sub.guard.dead) continue;
                try {
                  sub.fn(ev, v, l.s, sub.st);
                } catch (e) {
                  fail(sub, e);
                }
              }
              return;
            }
            case "sse-line": {
              const l = find(ev.exchange);
              if (!l) return;
              const kind = lineKind(ev.line);
              decoder.line?.(ev, l.s, kind);
              for (const sub of l.lines[kind]) {
                if (sub.guard.dead) continue;
                try {
                  sub.fn(ev, l.s, sub.st, kind);
                } catch (e) {
                  fail(sub, e);
                }
              }
              return;
            }
            case "body-chunk": {
              const l = find(ev.exchange);
              if (!l) return;
              for (const sub of l.chunks) {
                if (sub.guard.dead) continue;
                try {
                  sub.fn(ev, l.s, sub.st);
                } catch (e) {
                  fail(sub, e);
                }
              }
              return;
            }
            case "body-end": {
              const l = find(ev.exchange);
              if (!l) return;
              live.delete(ev.exchange);
              last = lastId = undefined;
              decoder.close?.(ev, l.s);
              for (const sub of l.ends) {
                if (sub.guard.dead) continue;
                try {
                  sub.fn(ev, l.s, sub.st);
                } catch (e) {
                  fail(sub, e);
                }
              }
              return;
            }
            default:
              return;
          }
        },
      };
    },
  };
  return Object.assign(view, { on: <St>(hooks: StreamHooks<S, V, St>) => on(view, hooks as StreamHooks<S, V, unknown>) });
}
