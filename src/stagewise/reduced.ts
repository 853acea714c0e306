/**
 * The outcome of a stagewise-chat reducer: the new state, or the rule the input broke. Reducers never throw, so a
 * check, a mock or a toolbar can feed them anything a peer sent and report the violation instead of crashing.
 */

/** A broken rule of the stagewise-chat contract (§3), named precisely enough to report. */
export interface RuleViolation {
  /** The contract rule, e.g. `r7` (chat reducer), `r17` (messaging reducer). */
  rule: string;
  /** The clause of that rule, e.g. `message-updated.create-at-end`. */
  clause: string;
  /** JSON pointer into the offending update, e.g. `/update/partIndex` (`""` for the whole update). */
  path: string;
  message: string;
}

export type Reduced<S> = { ok: true; state: S } | { ok: false; violation: RuleViolation };

export function violation(rule: string, clause: string, path: string, message: string): { ok: false; violation: RuleViolation } {
  return { ok: false, violation: { rule, clause, path, message } };
}

/** Short readable form for check details: `r7 message-updated.create-at-end at /update/partIndex: …`. */
export function describeViolation(v: RuleViolation): string {
  return `${v.rule} ${v.clause}${v.path ? ` at ${v.path}` : ""}: ${v.message}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Appended texts are ropes in V8: a long stream of small appends would keep a node (tens of bytes) per append, so the
 * reduced text of a 10^6-delta reply would weigh 30 times its characters. Every so many appends the text is flattened
 * (ToNumber flattens a rope; the number is kept only so the call is not dropped): copies stay amortised, memory
 * proportional to the text. Both reducers append with it.
 */
const FLATTEN_EVERY = 1024;
let appends = 0;
let flattened = 0;
export function joined(a: string, b: string): string {
  const s = a + b;
  if (++appends % FLATTEN_EVERY === 0) flattened = Number(s) || flattened;
  return s;
}
