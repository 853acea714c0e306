/**
 * A check judged on one Tally, written as a record: the suite's fields, what a pass says, why nothing could be
 * judged, and the hooks. The part every such check wrote alike — a new Tally and the check's state per evaluation,
 * the last word at the end, a branch the contract allows, the outcome — is written here once.
 */
import { Tally, type CheckContext, type CheckDef, type CheckObserver } from "./check.js";
import { RunStop } from "./run-stop.js";
import { all, type Observe } from "../views/hooks.js";

/** A value given as is, or computed at the end from the check's state. */
export type AtEnd<S, T> = T | ((s: S) => T);

export interface TallyRule<S> {
  /** What a pass says. */
  pass: AtEnd<S, string>;
  /** Why nothing could be judged, when the check saw nothing to judge (after "not exercised: "). */
  untested?: AtEnd<S, string | undefined>;
  /**
   * Why judging nothing is a branch the contract allows (the check then skips with it, unless something kept the
   * rule from being tested); undefined when it is not.
   */
  optional?: AtEnd<S, string | undefined>;
  /** What the check keeps per evaluation (only what its rule needs). */
  state?(ctx: CheckContext): S;
  /** The hooks that judge, on the tally; `stop` says whether and when the kit stopped the run. */
  observe(t: Tally, s: S, ctx: CheckContext, stop: RunStop): Observe;
  /** The last word at the end of the run: cases still open (unjudged when the kit's stop cut their time short). */
  end?(t: Tally, s: S, stop: RunStop): void;
}

const atEnd = <S, T>(v: AtEnd<S, T>, s: S): T => (typeof v === "function" ? (v as (s: S) => T)(s) : v);

/** The observer of a rule: a fresh Tally and state, the hooks, and the outcome at the end. */
export function tallyObserver<S>(rule: TallyRule<S>, ctx: CheckContext): CheckObserver {
  const t = new Tally();
  const s = rule.state ? rule.state(ctx) : (undefined as S);
  // Heard before the rule's own hooks: a rule reads the stop when the events after it come.
  const stop = new RunStop();
  return {
    observe: all(stop.observe, rule.observe(t, s, ctx, stop)),
    finish() {
      rule.end?.(t, s, stop);
      const optional = rule.optional === undefined ? undefined : atEnd(rule.optional, s);
      if (optional !== undefined) t.notApplicable(optional);
      return t.outcome(atEnd(rule.pass, s), rule.untested === undefined ? undefined : atEnd(rule.untested, s));
    },
  };
}

/** What a suite's check maker takes: a record with its `create`. */
export type MadeFrom = { create(ctx: CheckContext): CheckObserver };

/**
 * Rule checks for a suite's check maker: `tallyChecks(clientCheck)({ id, …, pass, untested, observe })`. The record's
 * other fields go to the maker as they are.
 */
export function tallyChecks<D extends MadeFrom>(make: (spec: D) => CheckDef) {
  return <S = undefined>(spec: Omit<D, "create"> & TallyRule<S>): CheckDef => {
    const { pass, untested, optional, state, observe, end, ...def } = spec;
    const rule: TallyRule<S> = { pass, observe, ...(untested !== undefined ? { untested } : {}), ...(optional !== undefined ? { optional } : {}), ...(state ? { state } : {}), ...(end ? { end } : {}) };
    return make({ ...def, create: (ctx: CheckContext) => tallyObserver(rule, ctx) } as unknown as D);
  };
}
