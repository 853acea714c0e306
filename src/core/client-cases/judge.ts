/**
 * Judging what a client under test assembled from the kit's robustness cases. The kit notes what
 * it expects for a case (a `note` with the case id and the expected result) just before the
 * client's adapter reports what it got (a `client-result` event); a protocol supplies how results
 * parse, compare and read in a message. State is one verdict per case.
 *
 * A report is judged only when the mock recorded the case's own request before it: a client that
 * fetched some other stream (the endpoint without the case's query) reports what that stream gave,
 * which says nothing about the case. Such a case is left unjudged, never passed.
 *
 * In a run the kit stopped (Ctrl-C, a time limit), a wrong result reported from then on is left unjudged too: the
 * client may have reported what it had when the stop cut its case short. A right one holds all the same.
 */
import { at, excerpt, type CheckDef, type Evidence, type Outcome } from "../checks/check.js";
import type { RequestEvent } from "../checks/check-helpers.js";
import { checkMaker } from "../checks/define-check.js";
import type { TranscriptEvent } from "../transcript/transcript.js";
import { tap } from "../views/hooks.js";
import { RunStop } from "../checks/run-stop.js";
import { CASE_PARAM, CASES_PATH } from "./case-table.js";

export type Parsed<R> = { ok: true; result: R } | { ok: false; error: string };

/** A protocol's reading of adapter results. `E` is what the kit expected for a case. */
export interface CaseReading<R, E> {
  /** The note that carries `{case, expected, ...}`. */
  expectedNote: string;
  parse(value: unknown): Parsed<R>;
  /** The expectation a note describes (its parsed `expected` and any other fields it carries). */
  expectation(note: Record<string, unknown>, expected: R): E;
  expectedResult(e: E): R;
  /**
   * Differences between what was expected and what the client reported ([] = the same), and the
   * optional fields the client left out, which were therefore not compared.
   */
  compare(want: E, got: R, caseId: string): { diff: string[]; loose?: boolean; unreported?: readonly string[] };
  summarise(r: R): string;
}

export type CaseVerdict =
  | { ok: true; looseMatch?: boolean; unreported?: readonly string[] }
  | { ok: false; diff: string[]; expected: string; actual: string; evidence: Evidence };

/** Whether a request the mock recorded asked for the stream of case `caseId`. */
export type CaseRequested = (caseId: string, request: RequestEvent) => boolean;

/** The mocks record client traffic under this probe name. */
const CLIENT_PROBE = "client";

/** Without a protocol's own test: the request names the case in its `case` parameter. */
export const namesCase: CaseRequested = (caseId, request) => {
  const q = request.path.indexOf("?");
  return q >= 0 && new URLSearchParams(request.path.slice(q + 1)).get(CASE_PARAM) === caseId;
};

/**
 * Collects expectations and judges each reported result of `caseIds` whose request the mock
 * recorded before it (`requested`); a result without one goes to `unserved`, unjudged.
 */
export function caseJudge<R, E>(caseIds: readonly string[], reading: CaseReading<R, E>, requested: CaseRequested = namesCase) {
  const expected = new Map<string, E>();
  const verdicts = new Map<string, CaseVerdict>();
  /** Cases whose own request the mock recorded. */
  const served = new Set<string>();
  /** Cases reported with no request of theirs recorded before: the report is not judged. */
  const unserved = new Map<string, Evidence>();
  /** Cases whose only reports were wrong and came once the kit had stopped the run: not judged. */
  const cut = new Map<string, Evidence>();
  const stop = new RunStop();
  let anyResult = false;

  const judge = (event: Extract<TranscriptEvent, { kind: "client-result" }>): CaseVerdict => {
    const want = expected.get(event.case);
    const parsed = reading.parse(event.result);
    const evidence = at(event, { note: `case ${event.case}`, excerpt: excerpt(event.result, 300) });
    if (!parsed.ok) return { ok: false, diff: [parsed.error], expected: "an AdapterResult", actual: excerpt(event.result), evidence };
    if (!want) return { ok: false, diff: ["the kit recorded no expected result for this case"], expected: "(none)", actual: reading.summarise(parsed.result), evidence };
    const { diff, loose, unreported } = reading.compare(want, parsed.result, event.case);
    if (diff.length === 0) return { ok: true, ...(loose ? { looseMatch: true } : {}), ...(unreported?.length ? { unreported } : {}) };
    return {
      ok: false,
      diff,
      expected: reading.summarise(reading.expectedResult(want)),
      actual: reading.summarise(parsed.result),
      evidence: { ...evidence, note: `case ${event.case}: ${diff.join("; ")}` },
    };
  };

  return {
    verdicts,
    unserved,
    cut,
    stop,
    get anyResult() {
      return anyResult;
    },
    observe(event: TranscriptEvent) {
      if (event.kind === "note") stop.observe(event);
      if (event.kind === "http-request") {
        if (event.probe !== CLIENT_PROBE) return;
        for (const c of caseIds) if (!served.has(c) && requested(c, event)) served.add(c);
      } else if (event.kind === "note" && event.name === reading.expectedNote) {
        const v = event.value as Record<string, unknown> | null;
        const parsed = reading.parse(v?.expected);
        if (v && typeof v.case === "string" && caseIds.includes(v.case) && parsed.ok) expected.set(v.case, reading.expectation(v, parsed.result));
      } else if (event.kind === "client-result") {
        anyResult = true;
        if (!caseIds.includes(event.case)) return;
        if (!served.has(event.case)) {
          if (!verdicts.has(event.case)) unserved.set(event.case, at(event, { note: `case ${event.case}: reported, but the mock recorded no request of this case before it` }));
          return;
        }
        unserved.delete(event.case);
        // A case reported twice keeps its first failure.
        if (verdicts.get(event.case)?.ok === false) return;
        const verdict = judge(event);
        if (!verdict.ok && stop.hadStopped(event.t)) {
          if (!verdicts.has(event.case)) cut.set(event.case, verdict.evidence);
          return;
        }
        cut.delete(event.case);
        verdicts.set(event.case, verdict);
      }
    },
  };
}

/** Why wrong results were not judged: they came after the kit stopped the run. */
export function cutReason(caseIds: readonly string[], stop: RunStop): string {
  return `case(s) ${caseIds.join(", ")} reported a result other than the expected one after ${stop.said}: the stop may have cut the case short (not judged)`;
}

/** Why reported cases were not judged: the client never asked the mock for their streams. */
export function unservedReason(caseIds: readonly string[]): string {
  return (
    `case(s) ${caseIds.join(", ")} reported without the mock having served the case's stream (no request with the case's path and query, ` +
    `as GET ${CASES_PATH} lists it, was recorded before the report), so the result says nothing about the case`
  );
}

type CaseFailure = Extract<CaseVerdict, { ok: false }>;

/** What a witness made of one case: a failure, or why it could not judge the case. */
export type WitnessVerdict = CaseFailure | { ok: "unjudged"; reason: string };

/**
 * What the mock saw a client do with a case's stream, judged beside the client's report (when the
 * client let go of a stream held open after its end, say): a rule about how the client reads is
 * not proven by what it reported alone.
 */
export interface CaseWitness {
  /** Sees every `http-request`, `note` and `client-result` event the check sees. */
  observe(event: TranscriptEvent): void;
  /** At the end, per case it judges: a failure, or why it could not judge; a case it does not name holds. */
  verdicts(): ReadonlyMap<string, WitnessVerdict>;
}

/**
 * Every case must give its expected result, and hold what `witnessed` saw of it; no result at all
 * is `skip` (a black-box client).
 */
export function casesOutcome(
  rule: string,
  caseIds: readonly string[],
  judged: ReturnType<typeof caseJudge>,
  noResults: string,
  witnessed: ReadonlyMap<string, WitnessVerdict> = new Map(),
): Outcome {
  if (!judged.anyResult) return { verdict: "skip", message: noResults };
  const failed = caseIds.flatMap((c) => {
    const v = judged.verdicts.get(c);
    const w = witnessed.get(c);
    const fails = [v && !v.ok ? v : undefined, w && w.ok === false ? w : undefined].filter((f): f is CaseFailure => f !== undefined);
    if (fails.length === 0) return [];
    const first = fails[0]!;
    return [{ id: c, diff: fails.flatMap((f) => f.diff), expected: first.expected, actual: first.actual, evidence: fails.map((f) => f.evidence) }];
  });
  if (failed.length > 0) {
    const first = failed[0]!;
    const more = failed.length > 1 ? ` (and ${failed.length - 1} more case(s): ${failed.slice(1).map((f) => f.id).join(", ")})` : "";
    return {
      verdict: "fail",
      message: `${rule} Case ${first.id}: ${first.diff.join("; ")}${more}`,
      expected: first.expected,
      actual: first.actual,
      evidence: failed.flatMap((f) => f.evidence),
    };
  }
  const unserved = caseIds.filter((c) => judged.unserved.has(c));
  const cut = caseIds.filter((c) => judged.cut.has(c));
  const missing = caseIds.filter((c) => !judged.verdicts.has(c) && !judged.unserved.has(c) && !judged.cut.has(c));
  const unwitnessed = caseIds.flatMap((c) => {
    const w = witnessed.get(c);
    return w && w.ok === "unjudged" && judged.verdicts.has(c) ? [`case ${c}: ${w.reason}`] : [];
  });
  if (missing.length > 0 || unserved.length > 0 || cut.length > 0 || unwitnessed.length > 0) {
    const stopped = judged.stop.at !== undefined ? ` before ${judged.stop.said}` : "";
    const why = [
      ...(unserved.length > 0 ? [unservedReason(unserved)] : []),
      ...(cut.length > 0 ? [cutReason(cut, judged.stop)] : []),
      ...unwitnessed,
      ...(missing.length > 0 ? [`no result reported for case(s) ${missing.join(", ")}${stopped}`] : []),
    ];
    const evidence = [...unserved.map((c) => judged.unserved.get(c)!), ...cut.map((c) => judged.cut.get(c)!)];
    return { verdict: "incomplete", message: why.join("; "), ...(evidence.length > 0 ? { evidence } : {}) };
  }
  // What the client did not report was not judged: the pass says so rather than claim it.
  const unreported = [...new Set(caseIds.flatMap((c) => {
    const v = judged.verdicts.get(c);
    return v?.ok ? (v.unreported ?? []) : [];
  }))];
  const left = unreported.length ? ` (not compared, the client did not report them: ${unreported.join(", ")})` : "";
  return { verdict: "pass", message: `every case gave the expected result: ${caseIds.join(", ")}${left}` };
}

export interface ParseCheckSpec {
  /** Full check id, `<protocol>/client-parse/<name>`; the rest of its record is data (check-records). */
  id: string;
}

/**
 * A client-parse check: the cases of `spec` judged with `reading`. By default every case must give
 * its expected result; `outcome` reads the verdicts otherwise (a report that never fails).
 */
export function parseChecks<R, E>(opts: {
  seed: string;
  reading: CaseReading<R, E>;
  casesOf(spec: ParseCheckSpec): string[];
  noResults: string;
  outcome?(caseIds: readonly string[], judged: ReturnType<typeof caseJudge>): Outcome;
  /** Whether a recorded request asked for a case's stream (default: it names the case in its `case` parameter). */
  requested?: CaseRequested;
  /** What the mock saw of some cases of a check, judged beside the reports (see `CaseWitness`). */
  witness?(spec: ParseCheckSpec): CaseWitness | undefined;
}): (spec: ParseCheckSpec) => CheckDef {
  const make = checkMaker({ seed: opts.seed, side: "client" });
  return (spec) => {
    const caseIds = opts.casesOf(spec);
    const def = make({
      id: spec.id,
      create() {
        const cases = caseJudge(caseIds, opts.reading, opts.requested);
        const witness = opts.witness?.(spec);
        const finish = (): Outcome => {
          if (!opts.outcome) return casesOutcome(def.rule, caseIds, cases, opts.noResults, witness?.verdicts());
          return cases.anyResult ? opts.outcome(caseIds, cases) : { verdict: "skip", message: opts.noResults };
        };
        const observe = witness
          ? (event: TranscriptEvent) => {
              cases.observe(event);
              witness.observe(event);
            }
          : (event: TranscriptEvent) => cases.observe(event);
        return { observe: tap(["http-request", "note", "client-result"], observe), finish };
      },
    });
    // The record lists the cases for readers; the cases themselves say which check they feed.
    if (def.probes.join() !== caseIds.join()) throw new Error(`${spec.id}: its record lists cases ${def.probes.join(", ")}, the cases name ${caseIds.join(", ")}`);
    return def;
  };
}
