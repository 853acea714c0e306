/** How snapshots tell a turn's progress: whether it went on between two polls, and who ends a turn. */
import { L } from "../labels.js";
import { keyOf, loose, onExchanges, sentText, tookIt, type Entry, type Listen, type State } from "./support.js";

/**
 * Did the turn shown in `p` go on in `n`? True when an entry of `p` changed or vanished, or
 * entries were appended that do not begin with a new user entry (a new message's turn).
 */
export function continued(p: State, n: State): boolean {
  for (const e of p.entries) {
    const m = n.entries[e.index];
    if (!m || keyOf(m) !== keyOf(e)) return true;
  }
  const added = n.entries[p.entries.length];
  return added !== undefined && added.kind !== "user";
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
  if (e.streaming) return "its last assistant entry is still streaming";
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
        if (e.kind !== "user" || (prev && prev.entries[e.index] && keyOf(prev.entries[e.index]!) === keyOf(e))) continue;
        const i = this.interrupters.indexOf(loose(e.content));
        if (i < 0) continue;
        this.interrupters.splice(i, 1);
        this.turns.add(turnStart(next.entries, e.index - 1));
      }
    }
    this.last = next;
  }
}
