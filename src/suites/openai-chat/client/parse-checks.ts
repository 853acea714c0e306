/**
 * `openai-chat/client-parse/*` (contract §4, §8): what a client assembled from the robustness
 * cases, as its adapter reported it (`client-result` events), against what the kit expected for
 * the case (the `EXPECTED_NOTE` emitted just before each result). State is one verdict per case.
 */
import type { CheckDef, Evidence, Outcome } from "../../../core/checks/check.js";
import { parseChecks, type CaseReading, type ParseCheckSpec } from "../../../core/client-cases/judge.js";
import type { AdapterResult } from "./adapters/types.js";
import { casesFor, EXPECTED_NOTE, PARSE_CHECK_PREFIX, quirkOf, type ParseCheck } from "./cases.js";
import { diffResults, parseAdapterResult, summariseResult, unreportedFields, type ResultField } from "./compare.js";
import { SEED } from "../labels.js";

export const NO_RESULTS_REASON = "no adapter results reported (a black-box client gets only client/* checks)";

const SPECS: ParseCheckSpec[] = [
  { id: "openai-chat/client-parse/split-chunks" },
  { id: "openai-chat/client-parse/sse-variants" },
  { id: "openai-chat/client-parse/termination" },
  { id: "openai-chat/client-parse/tool-call-assembly" },
  { id: "openai-chat/client-parse/usage-chunk" },
  { id: "openai-chat/client-parse/error-surfaced" },
];

const QUIRK_SPEC: ParseCheckSpec = { id: "openai-chat/client-parse/quirk-tolerance" };

interface Expectation {
  expected: AdapterResult;
  looseIds: boolean;
}

/**
 * How this suite's adapter results compare. `quirks`: the tolerance reading (finish reason and
 * usage left out, a match only with loose ids told apart from a full one).
 */
function reading(quirks: boolean): CaseReading<AdapterResult, Expectation> {
  return {
    expectedNote: EXPECTED_NOTE,
    parse: (v) => parseAdapterResult(v),
    expectation: (note, expected) => ({ expected, looseIds: note.looseIds === true }),
    expectedResult: (e) => e.expected,
    compare(want, got, caseId) {
      const ignore: ResultField[] = quirks ? ["finishReason", "usage", ...(quirkOf(caseId)?.ignoreText ? (["text"] as const) : [])] : [];
      const diff = diffResults(want.expected, got, { looseIds: want.looseIds && !quirks, ignore });
      const unreported = unreportedFields(want.expected, got, { ignore });
      if (diff.length && quirks && diffResults(want.expected, got, { looseIds: true, ignore }).length === 0) return { diff: [], loose: true, unreported };
      return { diff, unreported };
    },
    summarise: summariseResult,
  };
}

/** The short name cases use for a check: its id without `openai-chat/client-parse/`. */
const shortName = (spec: ParseCheckSpec): ParseCheck => spec.id.slice(PARSE_CHECK_PREFIX.length) as ParseCheck;
const casesOf = (spec: ParseCheckSpec): string[] => casesFor(shortName(spec)).map((c) => c.id);

const parseCheck = parseChecks({ seed: SEED, reading: reading(false), casesOf, noResults: NO_RESULTS_REASON });

/** `client-parse/quirk-tolerance`: one line per quirk fault, never a failure. */
const quirkCheck = parseChecks({
  seed: SEED,
  reading: reading(true),
  casesOf,
  noResults: NO_RESULTS_REASON,
  outcome(caseIds, cases): Outcome {
    const lines: string[] = [];
    const evidence: Evidence[] = [];
    let survived = 0;
    for (const c of caseIds) {
      const fault = c.replace(/^quirk-/, "");
      const v = cases.verdicts.get(c);
      if (!v) lines.push(`${fault}: not reported`);
      else if (v.ok && !v.looseMatch) {
        survived++;
        lines.push(`${fault}: survives`);
      } else if (v.ok) lines.push(`${fault}: degraded (call ids differ from the mock's)`);
      else {
        lines.push(`${fault}: breaks (${v.diff[0]})`);
        evidence.push(v.evidence);
      }
    }
    return { verdict: "info", message: `survives ${survived} of ${caseIds.length} quirk(s): ${lines.join("; ")}`, evidence };
  },
});

export const PARSE_CHECKS: CheckDef[] = [...SPECS.map(parseCheck), quirkCheck(QUIRK_SPEC)];
