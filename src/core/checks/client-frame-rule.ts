/**
 * Client rules over WebSocket frames, as records. A suite says once how its client's traffic reads: its connection
 * view (each frame decoded once), the probe the mock records the client under, and what the mock had told the client
 * (a follower each check keeps, fed every frame before the rule hears it). A check is then its record, what a pass and
 * "nothing judged" say, and hooks on the client's frames, the mock's frames, opens and closes, judging on one Tally.
 */
import { at, excerpt, type CheckContext, type CheckDef, type CheckObserver, type Evidence, type Tally } from "./check.js";
import { tallyObserver, type MadeFrom } from "./tally-rule.js";
import type { RunStop } from "./run-stop.js";
import type { TranscriptEvent } from "../transcript/transcript.js";
import { all, tap } from "../views/hooks.js";
import type { CloseEvent, Conn, ConnectionView, FrameEvent, OpenEvent } from "../views/ws-connection.js";

/** How a suite's client traffic reads. */
export interface ClientTraffic<M, V> {
  /** The connection view the frames come through, each decoded once into `M`. */
  view: ConnectionView<M>;
  /** The probe the mock records its client under: connections and frames of other probes are not the client's. */
  probe: string;
  /**
   * What the mock had told the client so far: one per check (made with the run's context), fed every frame of the
   * probe first, and (when it reads them) the probe's closes and the notes the mock records about itself, such as
   * state no frame carried because no socket was open.
   */
  follow: {
    make(ctx: CheckContext): V;
    frame(v: V, ev: FrameEvent, m: M, c: Conn): void;
    close?(v: V, ev: CloseEvent, c: Conn): void;
    note?(v: V, ev: NoteEvent): void;
  };
}

type NoteEvent = Extract<TranscriptEvent, { kind: "note" }>;

/** A frame as a rule reads it. */
export interface ClientFrame<M, V> {
  ev: FrameEvent;
  /** The frame decoded by the suite's view. */
  m: M;
  c: Conn;
  /** The follower, up to and including this frame. */
  view: V;
  /** Evidence pointing at this frame, its payload as the excerpt. */
  proof(note?: string): Evidence;
}

type AtEnd<S, V, T> = T | ((s: S, view: V) => T);

export interface FrameRule<M, V, S> {
  /** What a pass says. */
  pass: AtEnd<S, V, string>;
  /** Why nothing could be judged, when the check saw nothing to judge (after "not exercised: "). */
  untested: string;
  /** Why judging nothing is a branch the contract allows (the check then skips with it); undefined when it is not. */
  optional?: AtEnd<S, V, string | undefined>;
  /** What the check keeps per evaluation. */
  state?(ctx: CheckContext): S;
  /**
   * Every event of the probe's connections first, at its time: for rules with a deadline (one the kit's stop came
   * before is not the client's to meet: `stop.cuts(due)`).
   */
  tick?(now: number, t: Tally, s: S, stop: RunStop): void;
  /** A frame the client sent. */
  client?(f: ClientFrame<M, V>, t: Tally, s: S, ctx: CheckContext): void;
  /** A frame the mock sent. */
  mock?(f: ClientFrame<M, V>, t: Tally, s: S, ctx: CheckContext): void;
  open?(ev: OpenEvent, c: Conn, t: Tally, s: S): void;
  /** A close; one at or after the kit's stop (`stop.hadStopped(ev.t)`) may be the stop's doing, not the client's. */
  close?(ev: CloseEvent, c: Conn, t: Tally, s: S, stop: RunStop): void;
  /** The last word at the end of the run: cases still open. */
  end?(t: Tally, s: S, stop: RunStop): void;
}

const atEnd = <S, V, T>(v: AtEnd<S, V, T>, s: S, view: V): T => (typeof v === "function" ? (v as (s: S, view: V) => T)(s, view) : v);

/** Evidence pointing at a frame. */
export function frameEvidence(ev: FrameEvent, note?: string): Evidence {
  return at(ev, { label: ev.connection, excerpt: excerpt(ev.data), ...(note ? { note } : {}) });
}

/** The observer of one frame rule. */
function frameObserver<M, V, S>(traffic: ClientTraffic<M, V>, rule: FrameRule<M, V, S>, ctx: CheckContext): CheckObserver {
  const { probe, follow } = traffic;
  type Kept = { s: S; view: V };
  return tallyObserver<Kept>(
    {
      pass: (k) => atEnd(rule.pass, k.s, k.view),
      untested: rule.untested,
      ...(rule.optional !== undefined ? { optional: (k: Kept) => atEnd(rule.optional!, k.s, k.view) } : {}),
      state: (c) => ({ s: rule.state ? rule.state(c) : (undefined as S), view: follow.make(c) }),
      ...(rule.end ? { end: (t: Tally, k: Kept, stop: RunStop) => rule.end!(t, k.s, stop) } : {}),
      observe: (t, { s, view }, _ctx, stop) => {
        const frames = traffic.view.on({
          open(ev, c) {
            if (ev.probe !== probe) return;
            rule.tick?.(ev.t, t, s, stop);
            rule.open?.(ev, c, t, s);
          },
          frame(ev, m, c) {
            if (ev.probe !== probe) return;
            follow.frame(view, ev, m, c);
            rule.tick?.(ev.t, t, s, stop);
            const hook = ev.direction === "in" ? rule.client : rule.mock;
            hook?.({ ev, m, c, view, proof: (note) => frameEvidence(ev, note) }, t, s, ctx);
          },
          close(ev, c) {
            if (ev.probe !== probe) return;
            follow.close?.(view, ev, c);
            rule.tick?.(ev.t, t, s, stop);
            rule.close?.(ev, c, t, s, stop);
          },
        });
        const note = follow.note;
        if (!note) return frames;
        return all(
          tap(["note"], (ev) => {
            if (ev.kind === "note" && ev.probe === probe) note(view, ev);
          }),
          frames,
        );
      },
    },
    ctx,
  );
}

/**
 * A suite's frame rules: `clientFrameRules(clientCheck, traffic)({ id, …, pass, untested, client(f, t) { … } })`.
 * The record's other fields go to the suite's check maker as they are.
 */
export function clientFrameRules<D extends MadeFrom, M, V>(make: (spec: D) => CheckDef, traffic: ClientTraffic<M, V>) {
  return <S = undefined>(spec: Omit<D, "create"> & FrameRule<M, V, S>): CheckDef => {
    const { pass, untested, optional, state, tick, client, mock, open, close, end, ...def } = spec;
    const rule = { pass, untested, optional, state, tick, client, mock, open, close, end } as FrameRule<M, V, S>;
    return make({ ...def, create: (ctx: CheckContext) => frameObserver(traffic, rule, ctx) } as unknown as D);
  };
}
