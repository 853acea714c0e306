/**
 * The WebSocket connection view: each connection from its open to its close, and each frame's
 * payload decoded once by the protocol's decoder. Checks receive the connection a frame belongs to
 * with the decoded payload; a check may keep to some connections only (`accept`).
 */
import type { TranscriptEvent } from "../transcript/transcript.js";
import { StreamJson } from "../transport/stream-json.js";
import { each, type Guard, type Listen, on, type ViewDef } from "./hooks.js";

type Ev<K extends TranscriptEvent["kind"]> = Extract<TranscriptEvent, { kind: K }>;
export type OpenEvent = Ev<"ws-open">;
export type RejectEvent = Ev<"ws-reject">;
export type FrameEvent = Ev<"ws-frame">;
export type CloseEvent = Ev<"ws-close">;

/** One connection as checks see it. */
export interface Conn {
  id: string;
  label: string;
  /** Transcript time of the open. */
  openedAt: number;
  closed?: CloseEvent;
  /**
   * The parser of the frames the connection received, for decoders (see StreamJson): the frames of a long answer
   * repeat one envelope around other strings, and are built from the last parse.
   */
  json: StreamJson;
}

/** What a protocol supplies: what a frame means, decoded once for every check. */
export interface FrameDecoder<M> {
  name: string;
  decode(ev: FrameEvent, c: Conn): M;
  /**
   * The class of a decoded frame (its direction and kind, say), for checks whose frame hook reads only some classes
   * (`only`): a long stream's frames then skip the hooks that would ignore them.
   */
  tag?(m: M, ev: FrameEvent): string;
}

export interface ConnectionHooks<M> {
  /** Keep to these connections (by the label the probe gave them); default: all. */
  accept?(label: string | undefined): boolean;
  open?(ev: OpenEvent, c: Conn): void;
  reject?(ev: RejectEvent): void;
  /** A frame the kit sent (`direction: "out"`) or received (`"in"`). */
  frame?(ev: FrameEvent, m: M, c: Conn): void;
  /**
   * The frame classes (the decoder's `tag`) the frame hook reads; absent: every frame. A hook may list more than it
   * reads, never less (it keeps its own test).
   */
  only?: readonly string[];
  close?(ev: CloseEvent, c: Conn): void;
}

export type ConnectionView<M> = ViewDef<ConnectionHooks<M>> & { on(hooks: ConnectionHooks<M>): Listen };

export function wsConnectionView<M>(decoder: FrameDecoder<M>): ConnectionView<M> {
  const view: ViewDef<ConnectionHooks<M>> = {
    name: decoder.name,
    kinds: ["ws-open", "ws-reject", "ws-frame", "ws-close"],
    create() {
      type Sub = { hooks: ConnectionHooks<M>; guard: Guard };
      const subs: Sub[] = [];
      // Per connection, the subscribers that accept it (decided once, at the open), and per frame class those with a
      // frame hook that reads it (listed at the first frame of the class).
      const conns = new Map<string, { c: Conn; subs: Sub[]; byTag: Map<string, Sub[]> }>();
      const readers = (k: { subs: Sub[]; byTag: Map<string, Sub[]> }, tag: string): Sub[] => {
        let list = k.byTag.get(tag);
        if (!list) {
          list = k.subs.filter((s) => s.hooks.frame && (!s.hooks.only || s.hooks.only.includes(tag)));
          k.byTag.set(tag, list);
        }
        return list;
      };
      const call = each<ConnectionHooks<M>>;
      const accepting = (label: string | undefined) => subs.filter((s) => !s.hooks.accept || s.hooks.accept(label));
      return {
        add(hooks, guard) {
          subs.push({ hooks, guard });
        },
        observe(ev) {
          switch (ev.kind) {
            case "ws-open": {
              const c: Conn = { id: ev.connection, label: ev.label ?? "?", openedAt: ev.t, json: new StreamJson() };
              const list = accepting(ev.label);
              conns.set(ev.connection, { c, subs: list, byTag: new Map() });
              call(list, (h) => h.open?.(ev, c));
              return;
            }
            case "ws-reject":
              call(accepting(ev.label), (h) => h.reject?.(ev));
              return;
            case "ws-frame": {
              const k = conns.get(ev.connection);
              if (!k) return;
              const m = decoder.decode(ev, k.c);
              for (const s of readers(k, decoder.tag ? decoder.tag(m, ev) : "")) {
                if (!s.hooks.frame || s.guard.dead) continue;
                try {
                  s.hooks.frame(ev, m, k.c);
                } catch (e) {
                  s.guard.fail(e);
                }
              }
              return;
            }
            case "ws-close": {
              const k = conns.get(ev.connection);
              if (!k) return;
              conns.delete(ev.connection);
              k.c.closed = ev;
              call(k.subs, (h) => h.close?.(ev, k.c));
              return;
            }
            default:
              return;
          }
        },
      };
    },
  };
  return Object.assign(view, { on: (hooks: ConnectionHooks<M>) => on(view, hooks) });
}
