/**
 * One way to write a check, on either side: a suite declares its seed, its side and the notes that
 * explain an incomplete verdict once; each check then gives its id and its observer, and its
 * record (level, title, rule, the contract [section, sentence], the probes that feed it) comes
 * from the protocol's data file (see check-records).
 */
import { notApplicable, Tally, type CheckContext, type CheckDef, type CheckObserver, type ContractRef, type Side } from "./check.js";
import { checkRecord, type CheckRecord } from "./check-records.js";
import { all, onNote, subscriptionsOf } from "../views/hooks.js";
import { STREAMS_STOPPED_NOTE } from "../probes/probe-session.js";

export interface SuiteMeta {
  /** Seed file of the contract the references quote. */
  seed: string;
  side: Side;
  /**
   * Notes (by name) whose values explain why a check could not judge: the probes stopped early, a
   * request budget ran out... An incomplete outcome carries them.
   */
  reasons?: Record<string, (value: unknown) => string>;
  /**
   * The note (value `{topic, reason}`) by which the probes say the target legally never showed a
   * behaviour; a check naming that topic in `notApplicableWhen` and never exercised is skipped.
   */
  notApplicableNote?: string;
  /**
   * The note (value `{check, where}`) by which the probes say a rule failed in a way that left
   * other checks nothing to judge (a request reset before any answer; no server listed, so nothing
   * to connect): a check that judged nothing then ends as that rule's knock-on, skipped with
   * "not judged: …", not incomplete.
   */
  knockOnNote?: string;
  /** Where the records come from: the protocol's data file unless given (a test's own checks). */
  records?: (side: Side, id: string) => CheckRecord;
}

export type CheckSpec = Pick<CheckDef, "id" | "create"> & {
  /** Behaviours (topics) this rule is about that a target may legally never show. */
  notApplicableWhen?: readonly string[];
};

/** The compact form's observer maker: the maker makes the check's Tally and hands it over with the context. */
export type Judge = (t: Tally, ctx: CheckContext) => CheckObserver;

/** What a check says besides its id and observer (the compact form's middle argument). */
export type CheckOptions<S extends CheckSpec = CheckSpec> = Omit<S, "id" | "create">;

/** The three ways to write a check: compact with or without options, or the `{ id, create }` record. */
export type CheckArgs<S extends CheckSpec = CheckSpec> = [id: string, judge: Judge] | [id: string, options: CheckOptions<S>, judge: Judge] | [spec: S];

/**
 * A check maker. Most checks are compact, `make("p/area/rule", { notApplicableWhen }, (t, ctx) => observer)`: the
 * maker makes the Tally, so a check is only its rule. A check that needs something else first (parameters read before
 * its Tally, its own kind of outcome) gives `create` in a `{ id, create }` record.
 */
export interface MakeCheck<S extends CheckSpec = CheckSpec> {
  (id: string, judge: Judge): CheckDef;
  (id: string, options: CheckOptions<S>, judge: Judge): CheckDef;
  // Last: a function that infers from a maker's type reads its last signature.
  (spec: S): CheckDef;
}

/** The record a check maker's arguments stand for (the compact forms get a `create` that makes the Tally). */
export function checkSpec<S extends CheckSpec>(...args: CheckArgs<S>): S {
  if (args.length === 1) return args[0];
  const [id, options, judge] = args.length === 2 ? [args[0], {}, args[1]] : args;
  return { ...options, id, create: (ctx: CheckContext) => judge(new Tally(), ctx) } as S;
}

export function checkMaker(meta: SuiteMeta): MakeCheck {
  const reasons = Object.entries(meta.reasons ?? {});
  const make = ({ notApplicableWhen: topics = [], ...spec }: CheckSpec): CheckDef => {
    const { level, title, rule, ref: at, probes } = (meta.records ?? checkRecord)(meta.side, spec.id);
    const ref: ContractRef = { seed: meta.seed, section: at.section, quote: at.quote };
    const def: CheckDef = { id: spec.id, level, side: meta.side, title, rule, ref, probes, create: spec.create };
    const absentNote = topics.length ? meta.notApplicableNote : undefined;
    const knockNote = meta.knockOnNote;
    if (!reasons.length && !absentNote && !knockNote) return def;
    return {
      ...def,
      create(ctx) {
        const inner = spec.create(ctx);
        const why: string[] = [];
        let absent: string | undefined;
        let knock: string | undefined;
        const own = { listen: subscriptionsOf(inner.observe, inner.kinds) };
        const notes = reasons.map(([name, say]) => onNote(name, (v) => why.push(say(v))));
        if (absentNote) {
          notes.push(
            onNote(absentNote, (v) => {
              const n = v as { topic?: unknown; reason?: unknown } | null;
              if (n && topics.includes(n.topic as string)) absent ??= String(n.reason);
            }),
          );
        }
        if (knockNote) {
          notes.push(
            onNote(knockNote, (v) => {
              const n = v as { check?: unknown; where?: unknown } | null;
              if (n && typeof n.check === "string" && n.check !== spec.id) knock ??= `not judged: ${n.check} failed on ${String(n.where)}`;
            }),
          );
        }
        return {
          observe: all(own, ...notes),
          finish() {
            const o = inner.finish();
            if (knock !== undefined && o.verdict === "incomplete" && o.notExercised) return { verdict: "skip", message: knock };
            if (absent !== undefined && o.verdict === "incomplete" && o.notExercised) return notApplicable(absent);
            return why.length && o.verdict === "incomplete" ? { ...o, message: `${o.message} (${why.join("; ")})` } : o;
          },
        };
      },
    };
  };
  return (...args: CheckArgs) => make(checkSpec(...args));
}

/** The notes a server suite's probes publish that its checks read (see SuiteMeta). */
export interface ServerNotes {
  /** The probes stopped early; its value says why. */
  stopped: string;
  notApplicable?: string;
  knockOn?: string;
  /** Further notes that explain an incomplete verdict. */
  reasons?: Record<string, (value: unknown) => string>;
}

/** The server side's check maker: every suite says the same when its probes stopped early. */
export function serverCheckMaker(seed: string, notes: ServerNotes): MakeCheck {
  return checkMaker({
    seed,
    side: "server",
    reasons: { [notes.stopped]: (v) => `the probes stopped early: ${String(v)}`, [STREAMS_STOPPED_NOTE]: (v) => String(v), ...notes.reasons },
    ...(notes.notApplicable !== undefined ? { notApplicableNote: notes.notApplicable } : {}),
    ...(notes.knockOn !== undefined ? { knockOnNote: notes.knockOn } : {}),
  });
}
