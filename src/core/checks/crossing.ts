/**
 * Frames cross on the wire. The mock knows when it sent each update and when each client frame arrived, not what the
 * client had read when it wrote that frame: a frame arriving soon after an update may have been written before the
 * update reached the client. A client rule that holds a frame to what the mock had told the client therefore judges
 * it by every state the client may have acted on — the one in force a grace before the frame arrived, and each one the
 * mock sent since — and fails it only when it is wrong in all of them. A frame right in some and wrong in others is
 * not judged (never a pass from it). The window starts later once the client has shown it read the updates (it
 * answered a frame the mock sent after them on the same connection, or named the last of them).
 */
import type { CheckContext } from "./check.js";

/**
 * How long after the mock sent an update a client frame may still have been written without it: the update's way to
 * the client, the client's turn, and the frame's way back. On loopback that is a few milliseconds; 250 ms leaves room
 * for a busy machine and a browser's event loop. Set `crossingGraceMs` in the run's params to change it.
 */
export const CROSSING_GRACE_MS = 250;

/** The grace of a run: `params.crossingGraceMs` when it is a non-negative number, else {@link CROSSING_GRACE_MS}. */
export function crossingGrace(ctx: Pick<CheckContext, "params"> | undefined): number {
  const v = ctx?.params.crossingGraceMs;
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : CROSSING_GRACE_MS;
}

/**
 * A state the mock tells a client, with when each value was sent: what a client frame arriving at a given time may
 * have been written against. Memory: the values sent within one grace of the latest (and the one before them).
 */
export class StateTrail<T> {
  /** The value in force before the first kept entry. */
  private base: T;
  private readonly entries: { t: number; value: T }[] = [];
  /** The client had read every value the mock sent up to this time. */
  private read = -Infinity;

  constructor(
    initial: T,
    readonly grace: number = CROSSING_GRACE_MS,
  ) {
    this.base = initial;
  }

  /** The value as the mock last told it. */
  get latest(): T {
    return this.entries.length ? this.entries[this.entries.length - 1]!.value : this.base;
  }

  /** The mock told the client `value` at `t`. */
  set(t: number, value: T): void {
    this.entries.push({ t, value });
    // Nothing arriving from now on looks further back than one grace.
    while (this.entries.length > 1 && this.entries[1]!.t <= t - this.grace) this.base = this.entries.shift()!.value;
  }

  /**
   * The client showed that it had read every value the mock sent up to `sentAt` (the suite says what shows it: an
   * answer to a later frame on the connection the values came by, a resume naming the last event).
   */
  readUpTo(sentAt: number): void {
    if (sentAt > this.read) this.read = sentAt;
  }

  /** The values a client frame arriving at `t` may have been written against, oldest first. */
  plausible(t: number): T[] {
    const from = Math.min(t, Math.max(t - this.grace, this.read));
    let before = this.base;
    const after: T[] = [];
    for (const e of this.entries) {
      if (e.t <= from) before = e.value;
      else if (e.t <= t) after.push(e.value);
    }
    return [before, ...after];
  }
}

export type Across = { verdict: "ok" } | { verdict: "fail"; problem: string } | { verdict: "unsure"; problem: string };

/**
 * A frame judged by every state it may have been written against: `problem` says what is wrong with it in one state
 * (undefined: nothing). Fails only when it is wrong in all of them (with the latest state's problem); right in all is
 * a pass; anything else is unsure.
 */
export function acrossStates<T>(states: readonly T[], problem: (s: T) => string | undefined): Across {
  const problems = states.map(problem);
  const wrong = problems.filter((p): p is string => p !== undefined);
  if (wrong.length === 0) return { verdict: "ok" };
  if (wrong.length === problems.length) return { verdict: "fail", problem: wrong[wrong.length - 1]! };
  return { verdict: "unsure", problem: wrong[wrong.length - 1]! };
}

/** Why a frame was not judged: it arrived within the grace of an update that would change its verdict. */
export const crossedReason = (what: string, grace: number): string =>
  `${what} arrived within ${grace} ms of an update from the mock that changes its verdict, and may have been sent before the client read it (not judged)`;

/**
 * The states left once a frame shows what the client had read: when it names something (a chat, a tool call) that
 * appears only from some state on, it was written after that state arrived, so the earlier ones drop out. When no
 * state has it, all stay.
 */
export function sinceShown<T>(states: readonly T[], shows: (s: T) => boolean): T[] {
  const i = states.findIndex(shows);
  return i <= 0 ? [...states] : states.slice(i);
}
