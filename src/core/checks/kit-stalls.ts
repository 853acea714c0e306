/**
 * The kit's own hold-ups, as the runner recorded them (`kit-stall` notes, run-clock times): a
 * timing rule asks how much earlier than a read its data may have come, and does not blame the
 * target for a gap that the hold-up alone could explain.
 */
import { endThen, type CheckObserver, type Outcome, type Tally } from "./check.js";
import { all, onNote, type Observe, type Tap } from "../views/hooks.js";

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

/**
 * The rule "the first event came at least `minGapMs` before the end" with the kit's hold-ups taken
 * into account: a gap too short is held until the end, when every hold-up is known, and fails only
 * if the hold-up its first event's read came out of cannot explain it; else the stream is unjudged.
 */
export class HeldBackGaps {
  readonly stalls = new KitStalls();
  private readonly pending: { first: number; gap: number; fail: Parameters<Tally["fail"]> }[] = [];

  constructor(
    private readonly minGapMs: number,
    /** What the first read held ("the first event", "the first text"). */
    private readonly what: string,
  ) {}

  /** A gap shorter than the limit: `first` is when the first event was read; `fail` the finding if it stands. */
  tooShort(first: number, gap: number, ...fail: Parameters<Tally["fail"]>): void {
    this.pending.push({ first, gap, fail });
  }

  /** Judges the gaps held (from a check's `finish`). */
  judge(t: Tally): void {
    for (const { first, gap, fail } of this.pending) {
      const held = this.stalls.heldBefore(first);
      if (gap + held >= this.minGapMs)
        t.untestable(`the kit itself was held up ${Math.round(held)} ms right before it read ${this.what}: its reads cannot tell a held-back stream from a late read`);
      else t.fail(...fail);
    }
  }

  /** A check's observer: its stream hooks and the kit's hold-ups; at the end the gaps held are judged, then `outcome`. */
  observer(t: Tally, streams: Observe, outcome: () => Outcome): CheckObserver {
    return endThen({ observe: all(streams, this.stalls.observe), end: () => this.judge(t) }, outcome);
  }
}
