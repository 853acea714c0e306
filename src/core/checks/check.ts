/**
 * The check model. A check is a record — id, level, side, rule, contract reference — plus a
 * factory for an incremental observer. Observers see transcript events one at a time, keep only
 * the state their rule needs, do no I/O, and give one outcome at the end.
 */
import type { EventKind, TranscriptEvent } from "../transcript/transcript.js";
import type { ValidationResult } from "../schemas/schema-registry.js";
import type { Observe } from "../views/hooks.js";
import { nestedDeeperThan } from "../json-depth.js";
import { jsonPrefix } from "../json-prefix.js";

export type Level = "MUST" | "SHOULD" | "INFO";
export type Side = "server" | "client";
export type Verdict = "pass" | "fail" | "warn" | "info" | "skip" | "incomplete";

export interface ContractRef {
  /** Seed file name, e.g. "002_f5cea501a704c7bf.txt". */
  seed: string;
  /** Section of the contract, e.g. "§5 Send Chat Message (Streaming)". */
  section: string;
  /** The sentence the rule comes from, quoted. */
  quote: string;
}

/** Where in the transcript a finding was seen. */
export interface Evidence {
  probe?: string;
  exchange?: string;
  label?: string;
  /** Transcript sequence number of the offending event. */
  seq?: number;
  /** Index of the SSE event / line / frame within its exchange. */
  index?: number;
  /** Milliseconds since the run started. */
  at?: number;
  /** Excerpt of the offending bytes or payload (escaped, truncated). */
  excerpt?: string;
  note?: string;
}

/**
 * What an observer concludes. `fail` is mapped by the runner to fail/warn/info according to the
 * check's level (and --strict). `incomplete` means the rule could not be tested (`notExercised`
 * marks the case where the target simply did not show the behaviour).
 */
export interface Outcome {
  verdict: "pass" | "fail" | "incomplete" | "skip" | "info";
  message: string;
  expected?: string;
  actual?: string;
  evidence?: Evidence[];
  notExercised?: boolean;
}

export interface CheckContext {
  protocol: string;
  profile: ProfileDef;
  /** Validates against the protocol's schemas with the active profile's overlays. */
  validate(message: string, value: unknown): ValidationResult;
  /** Run options the rule depends on (min gaps, close timeout, origin...). */
  params: Readonly<Record<string, unknown>>;
}

export interface CheckObserver {
  /** Raw events (a Tap, optionally declaring its kinds) or hooks on shared views (see views/hooks). */
  observe: Observe;
  finish(): Outcome;
  /**
   * The event kinds a raw `observe` reads, when it does not declare them itself. Absent = all
   * kinds. Most checks read few kinds, which matters on long streams.
   */
  kinds?: ReadonlySet<EventKind>;
}

export { tap, type Tap } from "../views/hooks.js";

/**
 * The observer of hooks that must hear the end before the outcome (requests still unanswered, a wait
 * still open): `endThen(r, () => t.outcome(…))` observes with `r.observe`, and its finish calls `r.end()`
 * and then gives the outcome.
 */
export function endThen(hooks: { observe: Observe; end(): void }, outcome: () => Outcome): CheckObserver {
  return {
    observe: hooks.observe,
    finish: () => {
      hooks.end();
      return outcome();
    },
  };
}

export interface CheckDef {
  id: string;
  level: Level;
  side: Side;
  title: string;
  /** The rule, one testable sentence. */
  rule: string;
  ref: ContractRef;
  /** Probes (server side) or scenarios (client side) that feed this check. */
  probes: string[];
  create(ctx: CheckContext): CheckObserver;
}

/** A named set of relaxations for a known implementation. */
export interface ProfileDef {
  name: string;
  description: string;
  /** Checks whose level the profile changes, e.g. downgraded to INFO. */
  levels?: Record<string, Level>;
  /** Schema overlays: message name → replacement schema. */
  schemas?: Record<string, object>;
  /** Extra parameters checks and probes read (pacing, allowed event types...). */
  params?: Record<string, unknown>;
}

export const DEFAULT_PROFILE: ProfileDef = { name: "default", description: "The contract as written." };

/** One broken rule, the moment a check sees it (before the check's verdict at the end of the run). */
export interface Violation {
  expected: string;
  actual: string;
  evidence: Evidence;
}

export type ViolationSink = (violation: Violation) => void;

/**
 * When the kit's own hold-ups (recorded as `kit-stall` notes) let data read at `t` have arrived: how many ms earlier
 * it may have come (see KitStalls in kit-stalls.ts). One per evaluation, fed before any check hears the note.
 */
export interface HoldUps {
  heldBefore(t: number): number;
}

/** What the check being created reports to: its live violation sink and the run's hold-ups (see withViolationSink). */
let creating: { sink: ViolationSink | undefined; holdUps: HoldUps | undefined } = { sink: undefined, holdUps: undefined };

/**
 * Runs `create` with `sink` as the live sink of every Violations (and Tally) it makes, so an evaluation can report
 * each violation as it happens without checks passing anything around. A fail is final, so reporting it early never
 * contradicts the verdict. `holdUps` lets a Tally judge a late read against the kit's own hold-ups (`failLate`).
 */
export function withViolationSink<T>(sink: ViolationSink | undefined, create: () => T, holdUps?: HoldUps): T {
  const before = creating;
  creating = { sink, holdUps };
  try {
    return create();
  } finally {
    creating = before;
  }
}

/**
 * Collects violations for an observer and turns them into an outcome. Keeps at most `keep`
 * pieces of evidence (and a count of the rest), so a flood of violations costs constant memory.
 */
export class Violations {
  private readonly items: { expected: string; actual: string; evidence: Evidence }[] = [];
  private count = 0;
  /** Where the violations this keeps are also told as they happen (the kept ones only: a flood is counted). */
  private readonly live = creating.sink;
  constructor(private readonly keep = 5) {}

  add(expected: string, actual: string, evidence: Evidence = {}): void {
    this.count++;
    if (this.items.length < this.keep) {
      this.items.push({ expected, actual, evidence });
      this.live?.({ expected, actual, evidence });
    }
  }

  /** `add` for words that cost work in proportion to what they list: built only when this violation is kept. */
  addWith(words: () => readonly [expected: string, actual: string], evidence: Evidence = {}): void {
    if (this.items.length < this.keep) this.add(...words(), evidence);
    else this.count++;
  }

  get size(): number {
    return this.count;
  }

  /**
   * The outcome: fail when anything was added; otherwise pass, or incomplete when the rule was
   * never exercised (no event it applies to was seen).
   */
  outcome(opts: { pass: string; exercised?: boolean; untested?: string }): Outcome {
    if (this.count > 0) {
      const first = this.items[0]!;
      const more = this.count > 1 ? ` (${this.count} violations, first shown)` : "";
      return {
        verdict: "fail",
        message: `${first.actual}${more}`,
        expected: first.expected,
        actual: first.actual,
        evidence: this.items.map((i) => ({ ...i.evidence, note: i.evidence.note ?? i.actual })),
      };
    }
    if (opts.exercised === false) {
      return {
        verdict: "incomplete",
        notExercised: true,
        message: opts.untested ?? "not exercised: the target never showed the behaviour this rule is about",
      };
    }
    return { verdict: "pass", message: opts.pass };
  }
}

/**
 * Violations plus what an outcome needs besides them: whether the rule was applied at all, and
 * why not. A check that saw nothing to judge ends incomplete (not exercised), never a vacuous pass.
 */
export class Tally {
  private readonly v = new Violations();
  private exercised = false;
  private why: string | undefined;
  private alternative: string | undefined;
  private knock: string | undefined;
  /** Late reads held until the end, when every hold-up of the kit is known (see failLate). */
  private late: { read: number; overMs: number; fail: [string, string, Evidence | undefined] }[] = [];
  private readonly holdUps = creating.holdUps;
  /** How many times the rule was applied. */
  count = 0;

  /** The rule was applied once and held. */
  ok(): void {
    this.exercised = true;
    this.count++;
  }

  fail(expected: string, actual: string, evidence: Evidence = {}): void {
    this.exercised = true;
    this.count++;
    this.v.add(expected, actual, evidence);
  }

  /**
   * `fail` with words built only if the violation is kept (the first few): a rule that fails on every event of a long
   * stream, with words that list something growing, then costs nothing past them.
   */
  failWith(words: () => readonly [expected: string, actual: string], evidence: Evidence = {}): void {
    this.exercised = true;
    this.count++;
    this.v.addWith(words, evidence);
  }

  /**
   * An answer the kit read at `read` came `overMs` past the rule's limit. Judged at the end: when a hold-up of the kit
   * itself right before that read could explain the excess (the data may have waited unread), the instance is left
   * unjudged; otherwise it fails. Without a record of hold-ups it fails at once.
   */
  failLate(read: number, overMs: number, expected: string, actual: string, evidence: Evidence = {}): void {
    if (!this.holdUps || this.late.length >= MAX_LATE) return this.fail(expected, actual, evidence);
    this.late.push({ read, overMs, fail: [expected, actual, evidence] });
  }

  /** The rule could not be applied here (the first reason explains an incomplete). */
  untestable(reason: string): void {
    this.why ??= reason;
  }

  /**
   * This instance of the rule does not arise: the target legally took the other behaviour the
   * contract allows (the first reason is kept). A rule with nothing else to judge and nothing that
   * kept it from being tested then ends `skip`, not incomplete.
   */
  notApplicable(reason: string): void {
    this.alternative ??= reason;
  }

  /**
   * This instance cannot be judged because another rule already failed on the same evidence (the
   * stream ended early, the tool it would judge was never opened). Named, not counted twice: with
   * nothing else judged, the check ends `skip` "not judged: <check> failed on <where>", which does
   * not fail the run, --strict included.
   */
  knockOn(checkId: string, where: string): void {
    this.knock ??= `not judged: ${checkId} failed on ${where}`;
  }

  get failures(): number {
    return this.v.size;
  }

  get wasExercised(): boolean {
    return this.exercised;
  }

  outcome(pass: string, untested?: string): Outcome {
    const late = this.late;
    this.late = [];
    for (const { read, overMs, fail } of late) {
      const held = this.holdUps!.heldBefore(read);
      if (held >= overMs) this.untestable(`the kit itself was held up ${Math.round(held)} ms right before it read an answer ${Math.round(overMs)} ms too late: it cannot tell a late answer from a late read`);
      else this.fail(...fail);
    }
    if (!this.exercised && this.knock !== undefined) return { verdict: "skip", message: this.knock };
    if (!this.exercised && this.why === undefined && this.alternative !== undefined) return notApplicable(this.alternative);
    const why = this.why ?? untested;
    return this.v.outcome({ pass, exercised: this.exercised, ...(why ? { untested: `not exercised: ${why}` } : {}) });
  }
}

/** Late reads a Tally holds for the end; past this many, a late read fails at once (memory stays bounded). */
const MAX_LATE = 256;

/** The outcome of a rule whose case the target legally did not present: skipped, with the reason. */
export const notApplicable = (reason: string): Outcome => ({ verdict: "skip", message: `not applicable: ${reason}` });

/**
 * Escapes and truncates a payload for an evidence excerpt: a string's characters escaped as in JSON, anything else as
 * the start of its JSON text. Reads only as much of the value as the excerpt shows (jsonPrefix): a 50 MB answer costs
 * what 160 characters of it cost.
 */
export function excerpt(value: unknown, max = 160): string {
  // A long string is escaped only as far as the excerpt reaches: its first max characters escape to at least max, and
  // how the last of them escapes depends on the one after it (a surrogate pair), so max + 1 are kept.
  const text = typeof value === "string" ? JSON.stringify(value.length > max + 1 ? value.slice(0, max + 1) : value).slice(1, -1) : written(value, max);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * The start of a value's JSON text (a string in its quotes), cut past `max` characters with "…", read only as far as
 * it shows; `undefined` and values JSON cannot write show as excerpt shows them. Never throws.
 */
export function excerptJson(value: unknown, max = 160): string {
  const text = written(value, max);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The start of a value's JSON text, or what shows in its place where JSON cannot write it. Never throws. */
function written(value: unknown, max: number): string {
  const p = jsonPrefix(value, max);
  if ("text" in p) return p.text;
  return p.none === "deep" ? NESTED_TOO_DEEPLY : shown(value);
}

/** A value JSON cannot write: its String, or a note where even that throws (a deep array, a throwing toString). */
function shown(value: unknown): string {
  if (typeof value === "object" && value !== null && nestedDeeperThan(value)) return NESTED_TOO_DEEPLY;
  try {
    return String(value);
  } catch {
    return NESTED_TOO_DEEPLY;
  }
}

const NESTED_TOO_DEEPLY = "[nested too deeply to show]";

/** Evidence pointing at a transcript event. */
export function at(event: TranscriptEvent, extra: Partial<Evidence> = {}): Evidence {
  const e: Evidence = { probe: event.probe, seq: event.seq, at: event.t };
  if ("exchange" in event) {
    e.exchange = event.exchange;
    e.label = event.label;
  }
  if (event.kind === "sse-event") e.index = event.index;
  if (event.kind === "sse-line") e.index = event.lineNo;
  return { ...e, ...extra };
}
