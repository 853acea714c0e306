/**
 * Counts by key for a report ("message_update ×40, agent_end ×1"). The keys are the target's (event types, roles): a
 * target that makes up a new one for every event would grow a plain Map with its stream, so only the first `keep`
 * keys are counted by name and the rest together.
 */
import { excerpt } from "./check.js";

export class KeyCounts {
  private readonly counts = new Map<string, number>();
  /** Events whose key came after the first `keep` keys. */
  private others = 0;

  /** `noun`: what the keys are, for the rest ("… and 40 more of other types"). */
  constructor(private readonly noun: string, private readonly keep = 16) {}

  add(key: string): void {
    const n = this.counts.get(key);
    if (n !== undefined) this.counts.set(key, n + 1);
    else if (this.counts.size < this.keep) this.counts.set(key, 1);
    else this.others++;
  }

  /** Keys counted by name. */
  get size(): number {
    return this.counts.size;
  }

  /** "a ×3, b ×1", in the order first seen, then how many came under other keys. */
  text(): string {
    const named = [...this.counts].map(([k, n]) => `${excerpt(k, 60)} ×${n}`).join(", ");
    return this.others ? `${named}, … and ${this.others} more of other ${this.noun}` : named;
  }
}
