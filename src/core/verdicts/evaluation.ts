/**
 * Evaluation: feeds transcript events to the selected checks' observers and maps their outcomes
 * to verdicts by level, profile and --strict. Used live by the runner and offline on recorded
 * transcripts (fixtures, --replay), so both judge alike.
 */
import { KitStalls } from "../checks/kit-stalls.js";
import { withViolationSink, type CheckContext, type CheckDef, type CheckObserver, type Level, type Outcome, type ProfileDef, type Side, type Verdict, type Violation } from "../checks/check.js";
import type { CheckResult } from "./result.js";
import type { TranscriptEvent } from "../transcript/transcript.js";
import { subscriptionsOf, type Guard } from "../views/hooks.js";
import { ViewRouter } from "../views/router.js";
import { debugging } from "../debug.js";

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
  /** One instance of each view the checks read, each event routed once. */
  private readonly router: ViewRouter;

  constructor(
    checks: CheckDef[],
    private readonly ctx: CheckContext,
    private readonly strict = false,
    /** Told of each violation as a check sees it, with the check and its level under the profile. */
    onViolation?: (check: CheckDef, level: Level, violation: Violation) => void,
  ) {
    this.router = new ViewRouter(ctx);
    // The kit's own hold-ups: a Tally's late reads are judged against them at the end (when all are known).
    const holdUps = new KitStalls();
    this.entries = checks.map((check) => {
      const entry: Entry = { check, observer: null };
      try {
        const level = effectiveLevel(check, ctx.profile);
        // A listener's error is its own: it must not pass for a crash of the check that told it.
        const sink =
          onViolation &&
          ((v: Violation) => {
            try {
              onViolation(check, level, v);
            } catch {
              /* ignored */
            }
          });
        entry.observer = withViolationSink(sink, () => check.create(ctx), holdUps);
      } catch (e) {
        entry.crash = crashText(check.id, e);
        return entry;
      }
      const guard: Guard = {
        dead: false,
        fail(err) {
          // A bug in one check must not take the run (or other checks) down with it.
          if (guard.dead) return;
          guard.dead = true;
          entry.crash = crashText(check.id, err);
          entry.observer = null;
        },
      };
      for (const sub of subscriptionsOf(entry.observer.observe, entry.observer.kinds)) this.router.add(sub, guard);
      return entry;
    });
    // Subscribed after the checks, so the order in which they hear events is theirs alone.
    const never: Guard = { dead: false, fail() {} };
    for (const sub of subscriptionsOf(holdUps.observe)) this.router.add(sub, never);
    this.router.seal();
    this.observe = this.router.observe;
  }

  /** The router's own entry point, handed to the bus as is: no extra call per event. */
  readonly observe: (event: TranscriptEvent) => void;

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
          outcome = { verdict: "incomplete", message: `internal error in check: ${crashText(check.id, err)}` };
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

/**
 * What a report says of a check that threw: the error's message, never its stack (a report is read as the verdict
 * on a server, and frames of the kit's code say nothing about it). Under AGENTWIRE_DEBUG the stack goes to stderr.
 */
function crashText(id: string, err: unknown): string {
  if (debugging()) {
    const stack = err instanceof Error ? err.stack : undefined;
    process.stderr.write(`${id}: ${stack ?? String(err)}\n`);
  }
  if (err instanceof Error) return err.message || err.name;
  if (typeof err === "object" && err !== null && typeof (err as { message?: unknown }).message === "string") return (err as { message: string }).message;
  return String(err);
}
