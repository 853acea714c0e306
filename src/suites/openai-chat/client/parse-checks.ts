/**
 * `openai-chat/client-parse/*` (contract §4, §8): what a client assembled from the robustness
 * cases, as its adapter reported it (`client-result` events), against what the kit expected for
 * the case (the `EXPECTED_NOTE` emitted just before each result). State is one verdict per case.
 */
import type { CheckDef, Evidence, Outcome } from "../../../core/checks/check.js";
import { parseChecks, type CaseReading, type ParseCheckSpec } from "../../../core/client-cases/judge.js";
import type { AdapterResult } from "./adapters/types.js";
import { casesFor, EXPECTED_NOTE, PARSE_CHECK_PREFIX, quirkOf, type ParseCheck } from "./cases.js";
import { diffResults, parseAdapterResult, summariseResult, type ResultField } from "./compare.js";
import { SEED } from "../labels.js";

export const NO_RESULTS_REASON = "no adapter results reported (a black-box client gets only client/* checks)";

const SPECS: ParseCheckSpec[] = [
  {
    id: "openai-chat/client-parse/split-chunks",
    level: "MUST",
    title: "Chunking does not change the result",
    rule: "The result is the same for the canonical stream, one byte per write, random writes, splits inside UTF-8 characters, and one coalesced write.",
    section: "§2 (streaming)",
    quote: "스트리밍을 지원한다면 `choices[0].delta.tool_calls` 형태의 증분 델타도 허용되며",
  },
  {
    id: "openai-chat/client-parse/sse-variants",
    level: "SHOULD",
    title: "Non-canonical SSE gives the canonical result",
    rule: "Valid non-canonical SSE gives the canonical result.",
    section: "§2 (streaming)",
    quote: "스트리밍을 지원한다면 … 증분 델타도 허용되며",
  },
  {
    id: "openai-chat/client-parse/termination",
    level: "SHOULD",
    title: "The stream ends where it should",
    rule: "The client finishes within 2 s of [DONE] on an open connection, ignores bytes after it, accepts EOF after a finish reason, and reports EOF before any finish reason as truncated.",
    section: "§2 (streaming)",
    quote: '마지막에 `finish_reason: "tool_calls"`를 반환해야 합니다.',
  },
  {
    id: "openai-chat/client-parse/tool-call-assembly",
    level: "MUST",
    title: "Tool calls are assembled as sent",
    rule: "Every call is assembled with the mock's id, name and arguments.",
    section: "§2, §3",
    quote: "Continue는 tool_calls를 파싱하고 해당 내장 tool을 실제로 실행합니다.",
  },
  {
    id: "openai-chat/client-parse/usage-chunk",
    level: "MUST",
    title: "The usage chunk is harmless",
    rule: "The choices: [] usage chunk neither raises an error nor loses content or calls.",
    section: "§2 (streaming)",
    quote: "`choices[0].delta.tool_calls` 형태의 증분 델타",
  },
  {
    id: "openai-chat/client-parse/error-surfaced",
    level: "MUST",
    title: "Errors surface as errors",
    rule: "An in-stream error after partial text, and an HTTP error, surface as errors carrying the message, not as text or success.",
    section: "§2; contract §3.10",
    quote: "Backend → Continue: 모델의 tool 호출 응답 형식",
  },
];

const QUIRK_SPEC: ParseCheckSpec = {
  id: "openai-chat/client-parse/quirk-tolerance",
  level: "INFO",
  title: "Tolerance of backend quirks",
  rule: "For each quirk fault (§8), reports whether the client's result still matched, with the server check that flags the quirk.",
  section: "§2; contract §8.10",
  quote: "`arguments`는 반드시 JSON 문자열이어야 합니다.",
};

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
      if (diff.length && quirks && diffResults(want.expected, got, { looseIds: true, ignore }).length === 0) return { diff: [], loose: true };
      return { diff };
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
