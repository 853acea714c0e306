/**
 * Watches the kit's own process for hold-ups. A check that measures time (a gap between two
 * events, how long an answer took) reads the moment the kit read each event, not the moment it
 * arrived: while the process is held up (a loaded machine, a long task) events wait unread in its
 * sockets and are read late, close together. A timer that should tick every few milliseconds
 * shows such a hold-up by how late it ticks; the runner records each one in the transcript, so
 * those checks can tell "the target was slow" from "the kit was not looking" (and a replay sees
 * the same hold-ups as the live run).
 */

import { KIT_STALL_NOTE } from "../checks/kit-stalls.js";
import type { TranscriptBus } from "../transcript/transcript.js";

/** How often the watch ticks (ms). */
const STEP_MS = 10;
/** A tick this much late (ms) or more is a hold-up worth recording. */
const MIN_STALL_MS = 20;

export interface StallWatch {
  /** Records a hold-up that ended just now, if any (before judging, so none is missed). */
  flush(): void;
  stop(): void;
}

/** Calls `onStall(from, to)` (performance.now() times) for every hold-up of at least 20 ms. */
export function watchStalls(onStall: (from: number, to: number) => void): StallWatch {
  let last = performance.now();
  const check = () => {
    const at = performance.now();
    const due = last + STEP_MS;
    if (at - due >= MIN_STALL_MS) onStall(due, at);
    last = at;
  };
  const timer = setInterval(check, STEP_MS);
  // The watch never keeps a process alive.
  timer.unref();
  return {
    flush() {
      // Between ticks a hold-up shows as the time since the last one.
      const at = performance.now();
      if (at - (last + STEP_MS) >= MIN_STALL_MS) {
        onStall(last + STEP_MS, at);
        last = at;
      }
    },
    stop: () => clearInterval(timer),
  };
}

/** Records each hold-up on `bus` as a `kit-stall` note, in the bus's clock (what runs and the proxy do). */
export function recordStalls(bus: TranscriptBus): StallWatch {
  return watchStalls((from, to) => bus.emit({ kind: "note", probe: "kit", name: KIT_STALL_NOTE, value: { from: bus.clockOf(from), to: bus.clockOf(to) } }));
}
