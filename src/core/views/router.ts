/**
 * Routes transcript events to the views of one evaluation: each view is instantiated once, however
 * many checks subscribe to it, and receives only the event kinds it reads.
 */
import type { CheckContext } from "../checks/check.js";
import type { EventKind, TranscriptEvent } from "../transcript/transcript.js";
import type { Guard, Listen, Subscription, ViewDef, ViewInstance } from "./hooks.js";

type Slot = { instance: ViewInstance<unknown>; guards: Guard[]; rank: number };

export class ViewRouter {
  private readonly slots = new Map<ViewDef<unknown>, Slot>();
  private readonly byKind = new Map<EventKind, Slot[]>();
  private readonly everything: Slot[] = [];
  private sealed = false;

  constructor(private readonly ctx: CheckContext) {}

  add(sub: Subscription, guard: Guard): void {
    if (this.sealed) throw new Error("views are sealed once the evaluation starts");
    let slot = this.slots.get(sub.view);
    if (!slot) {
      slot = { instance: sub.view.create(this.ctx), guards: [], rank: sub.view.rank ?? 0 };
      this.slots.set(sub.view, slot);
    }
    slot.instance.add(sub.hooks, guard);
    slot.guards.push(guard);
  }

  /** Fixes the routing table (after every check subscribed). */
  seal(): void {
    this.sealed = true;
    const ordered = [...this.slots].sort(([a], [b]) => (a.rank ?? 0) - (b.rank ?? 0));
    for (const [def, slot] of ordered) {
      const kinds = slot.instance.kinds?.() ?? def.kinds;
      if (kinds === "all") {
        this.everything.push(slot);
        continue;
      }
      for (const k of kinds) {
        const list = this.byKind.get(k) ?? [];
        list.push(slot);
        this.byKind.set(k, list);
      }
    }
    // Views that read every kind join each kind's list, in rank order (the sort is stable).
    if (this.everything.length) {
      for (const [k, list] of this.byKind) this.byKind.set(k, [...this.everything, ...list].sort((a, b) => a.rank - b.rank));
    }
  }

  /** Bound, so an evaluation hands it to the bus directly. */
  readonly observe = (ev: TranscriptEvent): void => {
    const list = this.byKind.get(ev.kind) ?? this.everything;
    for (let i = 0; i < list.length; i++) this.deliver(list[i]!, ev);
  };

  private deliver(slot: Slot, ev: TranscriptEvent): void {
    try {
      slot.instance.observe(ev);
    } catch (e) {
      // A decoder bug: every check reading this view is affected, and says so.
      for (const g of slot.guards) g.fail(e);
    }
  }
}

/**
 * A view computed from other views' hooks (a protocol's command ↔ response correlation, who is
 * running): it reads them through a router of its own, once per evaluation, and offers hooks of its
 * own to checks. `rank` lets state that other hooks read see each event first.
 */
export function derivedView<H>(
  name: string,
  opts: { kinds: readonly EventKind[]; rank?: number },
  build: (ctx: CheckContext) => { reads: Listen; add(hooks: H, guard: Guard): void },
): ViewDef<H> {
  return {
    name,
    kinds: opts.kinds,
    ...(opts.rank !== undefined ? { rank: opts.rank } : {}),
    create(ctx) {
      const inner = build(ctx);
      const guards: Guard[] = [];
      // A fault in the derived view's own code is every subscriber's.
      const guard: Guard = { dead: false, fail: (e) => guards.forEach((g) => g.fail(e)) };
      const router = new ViewRouter(ctx);
      for (const sub of inner.reads.listen) router.add(sub, guard);
      router.seal();
      return {
        add(hooks, g) {
          guards.push(g);
          inner.add(hooks, g);
        },
        observe: (ev) => router.observe(ev),
      };
    },
  };
}
