/**
 * Pieces every protocol's result comparison uses: the outcomes an adapter reports, and diff lines
 * worded the same way for every protocol (outcome, error, a text field, JSON by content). A
 * protocol keeps its own result shape and the lines about its own fields. Browser-safe.
 */

/** "done": the response ended normally; "error": the client surfaced an error; "truncated": it ended early. */
export type CaseOutcome = "done" | "error" | "truncated";

export const OUTCOMES: readonly CaseOutcome[] = ["done", "error", "truncated"];

/** What every adapter result carries, whatever else its protocol adds. */
export interface OutcomeOf {
  outcome: CaseOutcome;
  error?: string;
}

/**
 * The outcome line and, when both are errors, the error line. An error message only has to carry
 * the expected one (trimmed): clients may prefix or decorate it.
 */
export function diffOutcome(expected: OutcomeOf, actual: OutcomeOf): string[] {
  const out: string[] = [];
  if (expected.outcome !== actual.outcome) out.push(`outcome: expected "${expected.outcome}", got "${actual.outcome}"`);
  if (expected.outcome === "error" && actual.outcome === "error") {
    const want = (expected.error ?? "").trim();
    if (!(actual.error ?? "").includes(want)) out.push(`error: expected a message carrying ${quote(want)}, got ${quote(actual.error ?? "")}`);
  }
  return out;
}

/** Where two texts part, with a little context on each side; undefined when they are the same. */
export function diffText(field: string, expected: string, actual: string): string | undefined {
  if (expected === actual) return undefined;
  let i = 0;
  while (i < expected.length && i < actual.length && expected[i] === actual[i]) i++;
  const from = Math.max(0, i - 10);
  const fffd = actual.includes("\uFFFD") && !expected.includes("\uFFFD") ? " (contains U+FFFD)" : "";
  return (
    `${field} differs at char ${i}${fffd}: expected ${quote(expected.slice(from, i + 30))}, ` +
    `got ${quote(actual.slice(from, i + 30))} (lengths ${expected.length} vs ${actual.length})`
  );
}

export function quote(s: unknown): string {
  return JSON.stringify(s) ?? "undefined";
}

/** JSON with sorted keys, so objects compare by content. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "undefined";
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (isObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  return v;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The first `n` characters of a text, with an ellipsis when it was longer (for summaries). */
export function clip(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}
