/**
 * Evaluation: feeds transcript events to the selected checks' observers and maps their outcomes
 * to verdicts by level, profile and --strict. Used live by the runner and offline on recorded
 * transcripts (fixtures, --replay), so both judge alike.
 */
import type { CheckContext, CheckDef, CheckObserver, Level, Outcome, ProfileDef, Side, Verdict } from "./check.js";
import type { CheckResult } from "./result.js";
import type { TranscriptEvent } from "./transcript.js";

export interface Selection {
  side?: Side;
  /** Id prefixes; with or without the "<protocol>/" part. */
  only?: string[];
  skip?: string[];
}

export function matchesPrefix(id: string, protocol: string, prefix: string): boolean {
  const p = prefix.replace(/^\/+/, "");
  return id.startsWith(p) || id.startsWith(`${protocol}/${p}`);
}

export function selectChecks(protocol: string, checks: CheckDef[], sel: Selection): CheckDef[] {
  return checks.filter(
    (c) =>
      (!sel.side || c.side === sel.side) &&
      (!sel.only?.length || sel.only.some((p) => matchesPrefix(c.id, protocol, p))) &&
      !(sel.skip ?? []).some((p) => matchesPrefix(c.id, protocol, p)),
  );
}

export function effectiveLevel(check: CheckDef, profile: ProfileDef): Level {
  return profile.levels?.[check.id] ?? check.level;
}

export function verdictFor(level: Level, outcome: Outcome, strict: boolean): Verdict {
  switch (outcome.verdict) {
    case "pass":
      return "pass";
    case "skip":
      return "skip";
    case "info":
      return "info";
    case "incomplete":
      return strict && outcome.notExercised ? "fail" : "incomplete";
    case "fail":
      if (level === "MUST") return "fail";
      if (level === "SHOULD") return strict ? "fail" : "warn";
      return "info";
  }
}

type Entry = { check: CheckDef; observer: CheckObserver | null; crash?: string };

export class Evaluation {
  private readonly entries: Entry[];
  /** Observers by the event kind they read; `everything` holds those that read all kinds. */
  private readonly byKind = new Map<string, Entry[]>();
  private readonly everything: Entry[] = [];

  constructor(
    checks: CheckDef[],
    private readonly ctx: CheckContext,
    private readonly strict = false,
  ) {
    this.entries = checks.map((check) => {
      try {
        return { check, observer: check.create(ctx) };
      } catch (e) {
        return { check, observer: null, crash: (e as Error).message };
      }
    });
    for (const e of this.entries) {
      const kinds = e.observer?.kinds;
      if (!kinds) {
        this.everything.push(e);
        continue;
      }
      for (const k of kinds) {
        const list = this.byKind.get(k) ?? [];
        list.push(e);
        this.byKind.set(k, list);
      }
    }
  }

  observe = (event: TranscriptEvent): void => {
    this.deliver(this.everything, event);
    const some = this.byKind.get(event.kind);
    if (some) this.deliver(some, event);
  };

  private deliver(entries: Entry[], event: TranscriptEvent): void {
    for (const e of entries) {
      if (!e.observer) continue;
      try {
        e.observer.observe(event);
      } catch (err) {
        // A bug in one check must not take the run (or other checks) down with it.
        e.crash = (err as Error).stack ?? String(err);
        e.observer = null;
      }
    }
  }

  /** Ends the evaluation. `override` replaces every outcome (e.g. the target was unreachable). */
  finish(override?: Outcome): CheckResult[] {
    return this.entries.map(({ check, observer, crash }) => {
      let outcome: Outcome;
      if (override) outcome = override;
      else if (!observer) outcome = { verdict: "incomplete", message: `internal error in check: ${crash}` };
      else {
        try {
          outcome = observer.finish();
        } catch (err) {
          outcome = { verdict: "incomplete", message: `internal error in check: ${(err as Error).message}` };
        }
      }
      const level = effectiveLevel(check, this.ctx.profile);
      return {
        id: check.id,
        level,
        side: check.side,
        title: check.title,
        rule: check.rule,
        ref: check.ref,
        verdict: verdictFor(level, outcome, this.strict),
        outcome: outcome.verdict,
        message: outcome.message,
        ...(outcome.expected !== undefined ? { expected: outcome.expected } : {}),
        ...(outcome.actual !== undefined ? { actual: outcome.actual } : {}),
        evidence: outcome.evidence ?? [],
      };
    });
  }
}
