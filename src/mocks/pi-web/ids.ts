/**
 * Reproducible identifiers: session ids, dialog ids and history entry ids come from one seeded
 * PRNG, so two engines with the same seed (the node mock and msw) hand out the same ids in the
 * same order. Browser-safe.
 */
import { seededRandom } from "../../core/mock/timing.js";

export class IdSource {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = seededRandom(seed ^ 0x9e3779b9);
  }

  private hex(n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const variant = "89ab"[Math.floor(this.next() * 4)] as string;
    return `${this.hex(8)}-${this.hex(4)}-4${this.hex(3)}-${variant}${this.hex(3)}-${this.hex(12)}`;
  }

  /** A short entry id, like pi's session tree ids. */
  entry(): string {
    return this.hex(8);
  }
}
