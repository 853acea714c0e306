/**
 * The poll-series view: successive snapshots of one resource read by polling (continue-remote's
 * `GET /state`). Each answered poll is decoded once by the protocol's decoder and handed to checks
 * with the snapshot before it in the same series, so consistency rules compare neighbours. Only the
 * previous snapshot of each series is kept: memory does not grow with the number of polls.
 */
import type { EventKind } from "../transcript/transcript.js";
import type { Exchange, ExchangeView } from "./exchange.js";
import { each, type Guard, type Listen, on, type ViewDef } from "./hooks.js";
import { derivedView } from "./router.js";

/** What a protocol supplies: which exchanges are polls of which series, and what a poll says. */
export interface SnapshotDecoder<S> {
  name: string;
  /** The series a poll belongs to (e.g. "state"), or undefined when the exchange is no poll. */
  series(x: Exchange): string | undefined;
  /** The snapshot an answered poll carries, or undefined when it carries none (error, garbage). */
  decode(x: Exchange): S | undefined;
}

export interface Snapshot<S> {
  series: string;
  /** 0-based position among the series' decoded snapshots. */
  n: number;
  value: S;
  exchange: Exchange;
}

export interface PollHooks<S> {
  /** A decoded snapshot, with the one before it in its series (undefined for the first). */
  snapshot?(next: Snapshot<S>, prev: Snapshot<S> | undefined): void;
  /** A poll that gave no snapshot (no answer, an error status, a body that is no snapshot). */
  miss?(x: Exchange, series: string): void;
}

export type PollView<S> = ViewDef<PollHooks<S>> & { on(hooks: PollHooks<S>): Listen };

const KINDS: readonly EventKind[] = ["http-request", "http-response", "sse-line", "http-error", "body-end"];

/** A poll series on top of a protocol's exchange view. */
export function pollSeriesView<S>(exchanges: ExchangeView, decoder: SnapshotDecoder<S>): PollView<S> {
  const view = derivedView<PollHooks<S>>(decoder.name, { kinds: KINDS }, () => {
    const subs: { hooks: PollHooks<S>; guard: Guard }[] = [];
    const last = new Map<string, Snapshot<S>>();
    const call = (fn: (h: PollHooks<S>) => void) => each(subs, fn);
    return {
      reads: exchanges.on((x) => {
        const series = decoder.series(x);
        if (series === undefined) return;
        const value = decoder.decode(x);
        if (value === undefined) {
          call((h) => h.miss?.(x, series));
          return;
        }
        const prev = last.get(series);
        const next: Snapshot<S> = { series, n: prev ? prev.n + 1 : 0, value, exchange: x };
        last.set(series, next);
        call((h) => h.snapshot?.(next, prev));
      }),
      add(hooks, guard) {
        subs.push({ hooks, guard });
      },
    };
  });
  return Object.assign(view, { on: (hooks: PollHooks<S>) => on(view, hooks) });
}
