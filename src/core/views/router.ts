/**
 * Routes transcript events to the views of one evaluation: each view is instantiated once, however
 * many checks subscribe to it, and receives only the event kinds it reads.
 */
import type { CheckContext } from "../check.js";
import type { EventKind, TranscriptEvent } from "../transcript.js";
import type { Guard, Subscription, ViewDef, ViewInstance } from "./hooks.js";

type Slot = { instance: ViewInstance<unknown>; guards: Guard[] };

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
      slot = { instance: sub.view.create(this.ctx), guards: [] };
      this.slots.set(sub.view, slot);
    }
    slot.instance.add(sub.hooks, guard);
    slot.guards.push(guard);
  }

  /** Fixes the routing table (after every check subscribed). */
  seal(): void {
    this.sealed = true;
    for (const [def, slot] of this.slots) {
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
  }

  observe(ev: TranscriptEvent): void {
    for (const slot of this.everything) this.deliver(slot, ev);
    const list = this.byKind.get(ev.kind);
    if (list) for (const slot of list) this.deliver(slot, ev);
  }

  private deliver(slot: Slot, ev: TranscriptEvent): void {
    try {
      slot.instance.observe(ev);
    } catch (e) {
      // A decoder bug: every check reading this view is affected, and says so.
      for (const g of slot.guards) g.fail(e);
    }
  }
}
