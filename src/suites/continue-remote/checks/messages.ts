/**
 * Accepted messages and the user entries that start them (§3.16: a POST matches its user entry by
 * FIFO order and verbatim text). Each check that needs the correlation keeps its own tracker.
 */
import { isMessageLabel, NOTE } from "../labels.js";
import { all, answeredAt, is2xx, loose, sameEntry, onExchanges, onNote, sentText, type Entry, type Exchange, type Listen, type State } from "./support.js";

export interface Accepted {
  text: string;
  x: Exchange;
  /** The probes sent it while the last snapshot was busy. */
  busy: boolean;
  willInterrupt: boolean;
  answeredAt: number;
}

export interface Started {
  entry: Entry;
  /** The accepted message it starts, when one matches its text (exactly, or trimmed and NFC-normalised). */
  msg?: Accepted;
  exact: boolean;
  /** Matched by order only (its text matched no waiting message, even loosely). */
  fallback: boolean;
  /** How many accepted messages were waiting ahead of it (0 = it was the oldest). */
  overtook: number;
}

export class MessageTracker {
  readonly waiting: Accepted[] = [];
  private readonly busyLabels = new Map<string, boolean>();
  /** Every valid message accepted so far. */
  accepted = 0;
  /** Hooks for an accepted message, before it joins the waiting list. */
  onAccepted?: (m: Accepted) => void;

  readonly observe: Listen = all(
    onNote(NOTE.sending, (v) => {
      const n = v as { label?: unknown; busy?: unknown } | null;
      if (n && typeof n.label === "string") this.busyLabels.set(n.label, n.busy === true);
    }),
    onExchanges((x) => {
      if (!isMessageLabel(x.label) || x.method !== "POST" || !is2xx(x.status)) return;
      const text = sentText(x);
      if (text === undefined) return;
      const m: Accepted = {
        text,
        x,
        busy: this.busyLabels.get(x.label) ?? false,
        willInterrupt: (x.json as { willInterrupt?: unknown } | undefined)?.willInterrupt === true,
        answeredAt: answeredAt(x),
      };
      this.accepted++;
      this.onAccepted?.(m);
      this.waiting.push(m);
    }),
  );

  /**
   * User entries new in `next` (appended, or changed in place), matched to waiting messages, which
   * they remove. With `fifo`, an entry whose text matches none takes the oldest (for counting).
   */
  started(next: State, prev: State | undefined, fifo = false): Started[] {
    const out: Started[] = [];
    for (const e of freshEntries(next, prev)) {
      if (e.kind !== "user") continue;
      let i = this.waiting.findIndex((m) => m.text === e.content);
      const exact = i >= 0;
      if (i < 0) i = this.waiting.findIndex((m) => loose(m.text) === loose(e.content));
      const fallback = i < 0 && fifo && this.waiting.length > 0;
      if (fallback) i = 0;
      if (i < 0) {
        out.push({ entry: e, exact: false, fallback: false, overtook: 0 });
        continue;
      }
      const [msg] = this.waiting.splice(i, 1);
      out.push({ entry: e, msg: msg!, exact, fallback, overtook: i });
    }
    return out;
  }
}

/**
 * Messages still waiting when a snapshot shows nothing running and nothing queued are lost
 * (processing/message-not-lost's failure): they are dropped from the list, and returned.
 */
export function forgetLost(tr: MessageTracker, next: State): Accepted[] {
  if (next.isProcessing || (next.queue ?? 0) > 0 || tr.waiting.length === 0) return [];
  return tr.waiting.splice(0);
}

/** Entries of `next` that `prev` did not have at their index (all of them for the first snapshot). */
export function freshEntries(next: State, prev: State | undefined): Entry[] {
  if (!prev) return next.entries;
  // Several checks ask the same of each pair of snapshots (their entry lists are shared per snapshot).
  const hit = fresh.get(next.entries);
  if (hit && hit.prev === idOf(prev.entries)) return hit.fresh;
  const out = next.entries.filter((e) => {
    const p = prev.entries[e.index];
    return !p || !sameEntry(p, e);
  });
  fresh.set(next.entries, { prev: idOf(prev.entries), fresh: out });
  return out;
}

/** `prev` is named by a number: holding it would chain every snapshot of the run to the last. */
const fresh = new WeakMap<Entry[], { prev: number; fresh: Entry[] }>();
const ids = new WeakMap<Entry[], number>();
let lastId = 0;
function idOf(entries: Entry[]): number {
  let id = ids.get(entries);
  if (id === undefined) ids.set(entries, (id = ++lastId));
  return id;
}
