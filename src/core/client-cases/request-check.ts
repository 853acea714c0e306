/**
 * A client-side rule judged request by request, from what a mock recorded: the protocol picks the
 * requests the rule applies to (and what of each it reads), the rule adds violations, and the
 * check passes only if some request was judged ("untestable ≠ pass").
 */
import { Violations, type CheckContext, type CheckDef, type CheckObserver } from "../checks/check.js";
import type { TranscriptEvent } from "../transcript/transcript.js";

export interface RequestRule<T> {
  /** What the rule reads of `event`, or undefined when the rule does not apply to it. */
  select(event: TranscriptEvent, checkId: string): T | undefined;
  /** Judges one request; `false` means it turned out not to be judged after all. */
  inspect(subject: T, v: Violations, ctx: CheckContext): boolean | void;
  /** The pass message. */
  pass: string;
  /** Why nothing could be judged. */
  untested: string;
}

export function requestRuleCheck<T>(def: Omit<CheckDef, "create" | "side">, rule: RequestRule<T>): CheckDef {
  return {
    ...def,
    side: "client",
    create(ctx): CheckObserver {
      const v = new Violations();
      let exercised = false;
      return {
        observe(event) {
          const subject = rule.select(event, def.id);
          if (subject !== undefined && rule.inspect(subject, v, ctx) !== false) exercised = true;
        },
        finish: () => v.outcome({ pass: rule.pass, exercised, untested: rule.untested }),
      };
    },
  };
}
