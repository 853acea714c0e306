/**
 * A client run the kit cut short: Ctrl-C or SIGTERM, `test-client`'s time limit, `mock --check-client` or the proxy
 * stopping. The kit notes the moment it stops (a `run-stopped` note, so a replay judges alike), and the client rules
 * read it: what the client had already done wrong by then stays a failure, but what it still owed (a poll, a reply, a
 * resubscription) whose time had not run out when the kit stopped it is unjudged, and so is what it did because it
 * was stopped (its sockets closing, a result cut short).
 */
import type { NewEvent } from "../transcript/transcript.js";
import { onNote, type Tap } from "../views/hooks.js";

export const RUN_STOPPED_NOTE = "run-stopped";

/** The note's value: who or what stopped the run, as a report names it ("Ctrl-C", "the 120000 ms time limit"). */
export interface RunStoppedNote {
  by: string;
}

/** Notes on `bus` that the kit stops the run now. */
export function noteRunStopped(bus: { emit(event: NewEvent): unknown }, by: string): void {
  bus.emit({ kind: "note", probe: "kit", name: RUN_STOPPED_NOTE, value: { by } satisfies RunStoppedNote });
}

/** What a check knows of the kit's stop: one per check, fed the notes. */
export class RunStop {
  /** When the kit stopped the run (ms since it started), once it did. */
  at: number | undefined;
  /** Who or what stopped it. */
  by = "";

  readonly observe: Tap = onNote(RUN_STOPPED_NOTE, (value, ev) => {
    if (this.at !== undefined) return;
    this.at = ev.t;
    const by = (value as Partial<RunStoppedNote> | null)?.by;
    this.by = typeof by === "string" && by !== "" ? by : "the kit";
  });

  /** Whether the kit had stopped the run by time `t`: what the client did from then on may be the stop's doing. */
  hadStopped(t: number): boolean {
    return this.at !== undefined && t >= this.at;
  }

  /** Whether time owed until `due` was cut short by the stop: the client was stopped before it ran out. */
  cuts(due: number): boolean {
    return this.at !== undefined && due > this.at;
  }

  /** How a reason names the stop: "the kit stopped the run (Ctrl-C) at 1234 ms". */
  get said(): string {
    return `the kit stopped the run (${this.by}) at ${Math.round(this.at ?? 0)} ms`;
  }

  /** Why something owed is not judged: `owed` (what was still owed), then the stop. */
  reason(owed: string): string {
    return `${owed} when ${this.said}, before its time was up (not judged)`;
  }
}
