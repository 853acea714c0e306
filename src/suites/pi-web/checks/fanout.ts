/** §3 rule 1: every event goes to every socket, in the same order. */
import { excerpt, type CheckDef } from "../../../core/checks/check.js";
import { KeyCounts } from "../../../core/checks/key-counts.js";
import { cutByKit } from "../../../core/transport/ws-limits.js";
import { C } from "../labels.js";
import { frameEvidence, messagesOf, onWire, serverCheck, where, type FrameEvent } from "./support.js";

/** FNV-1a over the frame text: events are compared by hash, never stored. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

interface Seen {
  hash: number;
  type: string;
  ev: FrameEvent;
}

/** A FIFO with O(1) amortised shift. */
class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  get size(): number {
    return this.items.length - this.head;
  }
  push(x: T): void {
    this.items.push(x);
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const x = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return x;
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
}

/** Unmatched events kept at most: a passive client this far behind is reported, not buffered. */
const MAX_LAG = 100_000;

export const FANOUT_CHECKS: CheckDef[] = [
  serverCheck("pi-web/fanout/broadcast", (t) => {
    let mainId: string | undefined;
    let passiveId: string | undefined;
    let active = false;
    let broken = false;
    const q = { main: new Fifo<Seen>(), passive: new Fifo<Seen>() };
    // The server's types: at most sixteen by name, however many it makes up.
    const types = new KeyCounts("types");
    let matched = 0;
    const stop = () => {
      active = false;
      q.main = new Fifo();
      q.passive = new Fifo();
    };
    const observe = onWire(
      {
        open: (_ev, c) => {
          if (c.label === C.main) {
            if (active) {
              t.untestable("the main client reconnected while the passive one listened");
              stop();
            }
            mainId = c.id;
          } else if (c.label === C.passive && mainId) {
            passiveId = c.id;
            active = true;
          }
        },
        in: (ev, m, c) => {
          if (!active || broken || (c.id !== mainId && c.id !== passiveId)) return;
          if (m.kind === "object" && m.type === "response") return;
          const type = m.kind === "object" ? String(m.type) : "(not an object)";
          // A message split out of a batched frame is compared by its value: the other socket
          // may have got it batched differently.
          const text = m.kind === "object" && messagesOf(ev).length > 1 ? JSON.stringify(m.value) : ev.data;
          const me: Seen = { hash: hash(text), type, ev };
          const mine = c.id === mainId ? q.main : q.passive;
          const other = c.id === mainId ? q.passive : q.main;
          const peer = other.shift();
          if (!peer) {
            mine.push(me);
            if (mine.size > MAX_LAG) {
              t.untestable(`the clients drifted more than ${MAX_LAG} events apart`);
              stop();
            }
            return;
          }
          const [a, b] = c.id === mainId ? [me, peer] : [peer, me];
          if (a.hash === b.hash && a.type === b.type) {
            matched++;
            types.add(type);
            return;
          }
          broken = true;
          t.fail("the same events in the same order on both clients", `the main client got ${where(a.ev, undefined, a.type)} where the passive one got ${where(b.ev, undefined, b.type)}`, frameEvidence(a.ev, { note: `passive: ${excerpt(b.ev.data, 80)}` }));
        },
        close: (ev, c) => {
          if (!active || (c.id !== mainId && c.id !== passiveId)) return;
          if (ev.by !== "kit") {
            t.untestable(`the server closed the ${c.label} client`);
            stop();
            return;
          }
          // The kit stopped reading one client at its own limit: what that one missed after it was never read.
          const cut = cutByKit(ev);
          if (cut !== undefined) {
            if (!broken) t.untestable(`the kit stopped reading the ${c.label} client (${cut})`);
            stop();
            return;
          }
          const missed = q.main.peek();
          const extra = q.passive.peek();
          if (!broken && missed) t.fail("every event on the passive client too", `the passive client never got ${q.main.size} event(s), the first ${where(missed.ev, undefined, missed.type)}`, frameEvidence(missed.ev));
          else if (!broken && extra) t.fail("only the events the requester got", `the passive client got ${q.passive.size} event(s) the main client never got, the first ${where(extra.ev, undefined, extra.type)}`, frameEvidence(extra.ev));
          else if (!broken && matched > 0) t.ok();
          stop();
        },
      },
      { clientsOnly: true },
    );
    return {
      observe,
      finish: () => {
        if (active && !broken && matched > 0 && q.main.size === 0 && q.passive.size === 0) t.ok();
        const seen = types.text();
        return t.outcome(`the passive client received the same ${matched} event(s) in order (${seen})`, "no event reached the clients while both were connected");
      },
    };
  }),
];
