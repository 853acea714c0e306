/**
 * What every protocol's probe client shares: named probe groups between probe-start and probe-end
 * events, notes for the checks, and stopping the sequence early with a reason the checks repeat.
 */
import type { ProbeContext } from "../run/protocol.js";

/** Thrown to end the probe sequence early; a protocol's runProbes catches it. */
export class StopProbing extends Error {}

/**
 * Runs a protocol's probe sequence: an early stop is a result (the checks that saw nothing end
 * incomplete and say why), not a crash; `cleanup` runs either way.
 */
export async function untilStopped(sequence: () => Promise<void>, cleanup?: () => unknown): Promise<void> {
  try {
    await sequence();
  } catch (e) {
    if (!(e instanceof StopProbing)) throw e;
  } finally {
    await cleanup?.();
  }
}

/** The note that says why the probes stopped early (incomplete verdicts repeat it). */
export const STOPPED_NOTE = "probes-stopped";

/** The note that says why stream requests were no longer sent (an HTTP run's streams never ended); incomplete verdicts repeat it. */
export const STREAMS_STOPPED_NOTE = "streams-stopped";

export class ProbeSession {
  /** The probe (group) the next events belong to. */
  protected probe = "setup";

  constructor(
    readonly ctx: ProbeContext,
    protected readonly protocolId: string,
  ) {}

  /** Runs one named probe (a group of exchanges) between probe-start and probe-end events. */
  async group<T>(name: string, description: string, fn: () => Promise<T>): Promise<T> {
    this.probe = name;
    this.ctx.bus.emit({ kind: "probe-start", probe: name, description });
    this.ctx.progress(`${this.protocolId}: ${description}`);
    try {
      const out = await fn();
      this.ctx.bus.emit({ kind: "probe-end", probe: name });
      return out;
    } catch (e) {
      this.ctx.bus.emit({ kind: "probe-end", probe: name, error: (e as Error).message });
      throw e;
    }
  }

  note(name: string, value: unknown): void {
    this.ctx.bus.emit({ kind: "note", probe: this.probe, name, value });
  }

  /** Ends the probe sequence: the checks that could not be judged say why. */
  stop(reason: string): never {
    // Probes waiting side by side may all stop for the one reason: it is told once.
    if (!this.stoppedFor.has(reason)) {
      this.stoppedFor.add(reason);
      this.note(STOPPED_NOTE, reason);
      this.ctx.progress(`${this.protocolId}: stopping early: ${reason}`);
    }
    throw new StopProbing(reason);
  }

  private readonly stoppedFor = new Set<string>();
}
