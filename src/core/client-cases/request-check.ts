/**
 * Client rules judged request by request, from what a mock recorded, as records. A protocol says once which requests
 * a check judges and what of each it reads (`select`, which sees the check's record); each check then gives its
 * record, what a pass and "nothing judged" say, and `judge`. A request judged without a failure holds the rule; a
 * check that judged no request ends incomplete ("untestable ≠ pass").
 */
import type { CheckContext, CheckDef, Tally } from "../checks/check.js";
import type { RequestEvent } from "../checks/check-helpers.js";
import { tallyChecks, type MadeFrom } from "../checks/tally-rule.js";
import { tap } from "../views/hooks.js";

export interface RequestRule<T> {
  /** The pass message. */
  pass: string;
  /** Why nothing could be judged (after "not exercised: "). */
  untested: string;
  /** Judges one request (fails on the tally); `false` means it turned out not to be judged after all. */
  judge(subject: T, t: Tally, ctx: CheckContext): boolean | void;
}

/** A suite's request rules: `select` picks the requests a record judges, and what of each it reads. */
export function requestRules<D extends MadeFrom, T, X extends object = object>(
  make: (spec: D) => CheckDef,
  select: (req: RequestEvent, rule: Omit<D, "create"> & X) => T | undefined,
) {
  const ruleCheck = tallyChecks(make);
  return (spec: Omit<D, "create"> & X & RequestRule<T>): CheckDef => {
    const { pass, untested, judge, ...record } = spec;
    const rule = record as unknown as Omit<D, "create"> & X;
    return ruleCheck({
      ...(rule as Omit<D, "create">),
      pass,
      untested,
      observe: (t: Tally, _s: undefined, ctx: CheckContext) =>
        tap(["http-request"], (event) => {
          if (event.kind !== "http-request") return;
          const subject = select(event, rule);
          if (subject === undefined) return;
          const failures = t.failures;
          if (judge(subject, t, ctx) !== false && t.failures === failures) t.ok();
        }),
    } as Omit<D, "create"> & Parameters<typeof ruleCheck>[0]);
  };
}
