/** How snapshots tell a turn's progress: whether it went on between two polls, and who ends a turn. */
import { L } from "../labels.js";
import { loose, onExchanges, openSigns, route, sameEntry, sentText, tookIt, type Entry, type Listen, type State } from "./support.js";

/**
 * Did the turn shown in `p` go on in `n`? True when an entry of `p` changed or vanished, or
 * entries were appended that do not begin with a new user entry (a new message's turn).
 */
export function continued(p: State, n: State): boolean {
  for (const e of p.entries) {
    const m = n.entries[e.index];
    if (!m || !sameOrFinalised(e, m)) return true;
  }
  const added = n.entries[p.entries.length];
  return added !== undefined && added.kind !== "user";
}

/** `m` equals `e`, or only drops the streaming flag `e` had on the same text (finalising it is no progress). */
function sameOrFinalised(e: Entry, m: Entry): boolean {
  return sameEntry(m, e) || (e.streaming && !m.streaming && m.content === e.content && m.role === e.role);
}

/** What shows a turn still open, for isProcessing: §3.8's idle invariants plus an unanswered user entry last. */
export function openTurnSigns(s: State): string[] {
  const out = openSigns(s);
  if (s.entries.at(-1)?.kind === "user") out.unshift("the user entry is last");
  return out;
}

export type IdleFate = "went-on" | "settled";

/**
 * Decides what an idle snapshot was by what follows it. If the turn it shows went on (an entry
 * changed, a non-user entry was appended, the server turned busy again on the same history without
 * a new message, or a permission was answered), isProcessing:false was wrong there, which is
 * processing/true-while-handling's failure; if the history stayed until a new message's user entry
 * or the end of the run, the snapshot is settled and the idle rules judge it.
 */
export class IdleWatch<T> {
  private held: { s: State; data: T } | undefined;
  private posted = false;
  private answered = false;
  /** A later idle poll showed the same history: the snapshot was not a passing moment. */
  private confirmed = false;

  constructor(private readonly decide: (fate: IdleFate, s: State, data: T) => void) {}

  readonly observe: Listen = onExchanges((x) => {
    if (x.method !== "POST" || !tookIt(x)) return;
    const r = route(x);
    if (r === "/message") this.posted = true;
    if (r === "/permission") this.answered = true;
  });

  /** Holds an idle snapshot (the first of a run of identical ones). */
  hold(s: State, data: T): void {
    if (this.held) return;
    this.held = { s, data };
    this.posted = false;
    this.answered = false;
    this.confirmed = false;
  }

  /** Call with every snapshot, before holding it. */
  next(n: State): void {
    const h = this.held;
    if (!h) return;
    // A streaming flag dropped on the same text decides nothing: the next step shows whether the turn goes on.
    const same = n.entries.length === h.s.entries.length && n.entries.every((e, i) => sameOrFinalised(h.s.entries[i]!, e));
    if (same && !n.isProcessing && !this.answered) {
      this.confirmed = true;
      return;
    }
    this.held = undefined;
    const fate: IdleFate = this.answered ? "went-on" : same ? (this.posted ? "settled" : "went-on") : continued(h.s, n) ? "went-on" : "settled";
    this.decide(fate, h.s, h.data);
  }

  /**
   * The end of the run: a snapshot still held is settled when a later idle poll confirmed it;
   * one the run ended on is left undecided (the turn may have been going on).
   */
  finish(): void {
    const h = this.held;
    this.held = undefined;
    if (h && this.confirmed) this.decide("settled", h.s, h.data);
  }
}

/** Index of the last user entry at or before `i`, or -1. */
export function turnStart(entries: Entry[], i = entries.length - 1): number {
  for (let k = Math.min(i, entries.length - 1); k >= 0; k--) if (entries[k]!.kind === "user") return k;
  return -1;
}

/** Why `e` does not end a turn as §4 asks (a non-empty assistant entry; cn: without toolCalls), or undefined. */
export function notAnEnding(e: Entry | undefined, cn: boolean): string | undefined {
  if (!e) return "the turn has no entry after its user entry";
  if (e.kind === "user") return "the user entry was never answered";
  if (e.role !== "assistant" || (!cn && e.kind !== "assistant")) return `it ends with a ${e.kind} entry ${JSON.stringify(e.content.slice(0, 60))}`;
  if (e.content.trim() === "") return "its last assistant entry is empty";
  if (cn && e.calls.length > 0) return "its last assistant item still has toolCalls";
  return undefined;
}

/**
 * Turns the kit stopped on purpose: the turn running when a /pause succeeded (the last user entry
 * of the snapshot before the answer), and the turn a willInterrupt:true message replaced (the one
 * before that message's user entry). Call `seen` with each snapshot before judging it.
 */
export class StoppedTurns {
  readonly turns = new Set<number>();
  private last: State | undefined;
  private readonly interrupters: string[] = [];

  readonly observe: Listen = onExchanges((x) => {
    if (!tookIt(x)) return;
    const body = x.json as { success?: unknown; willInterrupt?: unknown } | undefined;
    if (x.label === L.pauseBusy && body?.success === true && this.last) this.turns.add(turnStart(this.last.entries));
    if (x.method === "POST" && body?.willInterrupt === true) {
      const text = sentText(x);
      if (text !== undefined) this.interrupters.push(loose(text));
    }
  });

  seen(next: State, prev: State | undefined): void {
    if (this.interrupters.length) {
      for (const e of next.entries) {
        if (e.kind !== "user" || (prev && prev.entries[e.index] && sameEntry(prev.entries[e.index]!, e))) continue;
        const i = this.interrupters.indexOf(loose(e.content));
        if (i < 0) continue;
        this.interrupters.splice(i, 1);
        this.turns.add(turnStart(next.entries, e.index - 1));
      }
    }
    this.last = next;
  }
}
