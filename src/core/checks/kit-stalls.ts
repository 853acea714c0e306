/**
 * The kit's own hold-ups, as the runner recorded them (`kit-stall` notes, run-clock times): a
 * timing rule asks how long the kit was not reading during a span, and does not blame the target
 * for a gap or a delay that the hold-up alone could explain.
 */
import { onNote, type Tap } from "../views/hooks.js";

export const KIT_STALL_NOTE = "kit-stall";

export interface KitStall {
  /** When the kit stopped reading, and when it read again (ms, the transcript's clock). */
  from: number;
  to: number;
}

export class KitStalls {
  private readonly stalls: KitStall[] = [];

  readonly observe: Tap = onNote(KIT_STALL_NOTE, (v) => {
    const s = v as Partial<KitStall> | null;
    if (s && typeof s.from === "number" && typeof s.to === "number" && s.to > s.from) this.stalls.push({ from: s.from, to: s.to });
  });

  /** Milliseconds of hold-up within [from, to]. */
  within(from: number, to: number): number {
    let ms = 0;
    for (const s of this.stalls) ms += Math.max(0, Math.min(to, s.to) - Math.max(from, s.from));
    return ms;
  }

  /**
   * How much earlier than `t` what the kit read at `t` may have arrived: the hold-up the read came
   * out of (one that ended just before it, or was noticed just after it), else 0. Data that arrived
   * while the kit was reading was read at once; only a hold-up right before the read hides when.
   */
  heldBefore(t: number): number {
    let ms = 0;
    for (const s of this.stalls) if (s.from < t && s.to >= t - ADJACENT_MS) ms = Math.max(ms, Math.min(t, s.to) - s.from);
    return ms;
  }
}

/** A read this close (ms) after a hold-up's end came out of it (the loop's turn after a stall, on a busy machine). */
const ADJACENT_MS = 20;
