/**
 * How a check says what it reads. A check observes either raw transcript events (a Tap) or the
 * hooks of shared views (a Listen): an exchange view, a stream view... A view is defined once per
 * protocol (its decoders) and instantiated once per evaluation, so every event is decoded and
 * routed once, whatever the number of checks that read it.
 */
import type { CheckContext } from "../checks/check.js";
import type { EventKind, TranscriptEvent } from "../transcript/transcript.js";

/** A raw event handler that may say which event kinds it reads (absent = every kind). */
export type Tap = ((event: TranscriptEvent) => void) & { kinds?: ReadonlySet<EventKind> };

/**
 * Shields the run from one check's bug: a hook that throws marks its check crashed, and the views
 * stop calling that check's hooks.
 */
export interface Guard {
  dead: boolean;
  fail(error: unknown): void;
}

/** A view: what raw events it reads, and how to make the one instance an evaluation shares. */
export interface ViewDef<H> {
  readonly name: string;
  readonly kinds: readonly EventKind[];
  /**
   * Views of lower rank see each event first (default 0). A view whose state other checks' hooks
   * read while handling the same event (who is running, which run is open) takes a negative rank.
   */
  readonly rank?: number;
  create(ctx: CheckContext): ViewInstance<H>;
}

export interface ViewInstance<H> {
  /** Adds one check's hooks. */
  add(hooks: H, guard: Guard): void;
  observe(event: TranscriptEvent): void;
  /** The kinds to route here once every check was added ("all": every kind); default: the def's. */
  kinds?(): readonly EventKind[] | "all";
}

export interface Subscription<H = unknown> {
  view: ViewDef<H>;
  hooks: H;
}

/** Hooks on shared views, possibly several (see {@link all}). */
export interface Listen {
  readonly listen: readonly Subscription[];
}

export type Observe = Tap | Listen;

/** Subscribes hooks to a view. */
export function on<H>(view: ViewDef<H>, hooks: H): Listen {
  return { listen: [{ view, hooks } as Subscription] };
}

/** Declares the event kinds a raw handler reads. */
export function tap(kinds: Iterable<EventKind>, fn: (event: TranscriptEvent) => void): Tap {
  return Object.assign(fn, { kinds: new Set(kinds) });
}

/** Several observers of one check; each event reaches them in this order within a view. */
export function all(...observers: Observe[]): Listen {
  return { listen: observers.flatMap((o) => subscriptionsOf(o)) };
}

/** Calls `fn` with every note of that name. */
export function onNote(name: string, fn: (value: unknown, ev: Extract<TranscriptEvent, { kind: "note" }>) => void): Tap {
  return tap(["note"], (ev) => {
    if (ev.kind === "note" && ev.name === name) fn(ev.value, ev);
  });
}

/** The raw view: routes events by kind to the taps that read them. */
export const RAW: ViewDef<Tap> = {
  name: "raw",
  kinds: [],
  create() {
    const byKind = new Map<EventKind, { fn: Tap; guard: Guard }[]>();
    const every: { fn: Tap; guard: Guard }[] = [];
    const call = (list: { fn: Tap; guard: Guard }[], ev: TranscriptEvent) => {
      for (const h of list) {
        if (h.guard.dead) continue;
        try {
          h.fn(ev);
        } catch (e) {
          h.guard.fail(e);
        }
      }
    };
    return {
      kinds: () => (every.length ? "all" : [...byKind.keys()]),
      add(fn, guard) {
        if (!fn.kinds) {
          every.push({ fn, guard });
          return;
        }
        for (const k of fn.kinds) {
          const list = byKind.get(k) ?? [];
          list.push({ fn, guard });
          byKind.set(k, list);
        }
      },
      observe(ev) {
        if (every.length) call(every, ev);
        const some = byKind.get(ev.kind);
        if (some) call(some, ev);
      },
    };
  },
};

export function subscriptionsOf(o: Observe, kinds?: ReadonlySet<EventKind>): Subscription[] {
  if (typeof o === "function") {
    const fn: Tap = kinds && !o.kinds ? Object.assign((ev: TranscriptEvent) => o(ev), { kinds }) : o;
    return [{ view: RAW, hooks: fn } as Subscription];
  }
  return [...o.listen];
}

/**
 * Calls one hook of every subscriber that has it, each shielded by its guard. Views use it so a
 * check's bug stays that check's.
 */
export function each<H>(list: readonly { hooks: H; guard: Guard }[], call: (hooks: H) => void): void {
  for (const h of list) {
    if (h.guard.dead) continue;
    try {
      call(h.hooks);
    } catch (e) {
      h.guard.fail(e);
    }
  }
}
