/**
 * One way to write a check, on either side: a suite declares its seed, its side and the notes that
 * explain an incomplete verdict once; each check then gives its id, level, title, rule, the
 * contract [section, sentence], the probes that feed it and its observer.
 */
import type { CheckDef, ContractRef, Side } from "./check.js";
import { all, onNote, subscriptionsOf } from "./views/hooks.js";

export interface SuiteMeta {
  /** Seed file of the contract the references quote. */
  seed: string;
  side: Side;
  /**
   * Notes (by name) whose values explain why a check could not judge: the probes stopped early, a
   * request budget ran out... An incomplete outcome carries them.
   */
  reasons?: Record<string, (value: unknown) => string>;
}

export type CheckSpec = Omit<CheckDef, "side" | "ref"> & {
  /** [section, the sentence the rule comes from]. */
  ref: [string, string];
};

export function checkMaker(meta: SuiteMeta): (spec: CheckSpec) => CheckDef {
  const reasons = Object.entries(meta.reasons ?? {});
  return (spec) => {
    const [section, quote] = spec.ref;
    const ref: ContractRef = { seed: meta.seed, section, quote };
    const def: CheckDef = { ...spec, side: meta.side, ref };
    if (!reasons.length) return def;
    return {
      ...def,
      create(ctx) {
        const inner = spec.create(ctx);
        const why: string[] = [];
        const own = { listen: subscriptionsOf(inner.observe, inner.kinds) };
        return {
          observe: all(own, ...reasons.map(([name, say]) => onNote(name, (v) => why.push(say(v))))),
          finish() {
            const o = inner.finish();
            return why.length && o.verdict === "incomplete" ? { ...o, message: `${o.message} (${why.join("; ")})` } : o;
          },
        };
      },
    };
  };
}
