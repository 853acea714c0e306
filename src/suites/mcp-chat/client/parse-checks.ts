/**
 * `mcp-chat/client-parse/*`: what a client assembled from the robustness cases, as its adapter
 * reported it (`client-result` events), against what the kit expected for the case (the
 * `EXPECTED_NOTE` emitted just before each result). State is one verdict per case.
 * done-terminates also reads what the mock saw of the held open-after-done stream (held-stream.ts).
 */
import type { CheckDef } from "../../../core/checks/check.js";
import { parseChecks, type CaseReading, type ParseCheckSpec } from "../../../core/client-cases/judge.js";
import type { AdapterResult } from "./adapters/types.js";
import { casesFor, EXPECTED_NOTE, findCase, isCaseRequest, PARSE_CHECK_PREFIX, type ParseCheck } from "./cases.js";
import { diffResults, parseAdapterResult, summariseResult } from "./compare.js";
import { SEED } from "../labels.js";
import { heldStreamWitness } from "./held-stream.js";

const DONE_TERMINATES = "mcp-chat/client-parse/done-terminates";

export const NO_RESULTS_REASON = "no adapter results reported (a browser frontend gets only client/* checks)";

const SPECS: ParseCheckSpec[] = [
  { id: "mcp-chat/client-parse/split-chunks" },
  { id: "mcp-chat/client-parse/utf8-split" },
  { id: "mcp-chat/client-parse/sse-variants" },
  { id: "mcp-chat/client-parse/done-terminates" },
  { id: "mcp-chat/client-parse/error-surfaced" },
  { id: "mcp-chat/client-parse/truncation-detected" },
  { id: "mcp-chat/client-parse/http-error-detail" },
  { id: "mcp-chat/client-parse/tool-matching" },
  { id: "mcp-chat/client-parse/unexpected-payloads" },
];

/** How this suite's adapter results parse, compare and read. */
const READING: CaseReading<AdapterResult, AdapterResult> = {
  expectedNote: EXPECTED_NOTE,
  parse: (v) => parseAdapterResult(v),
  expectation: (_note, expected) => expected,
  expectedResult: (e) => e,
  compare: (want, got) => ({ diff: diffResults(want, got) }),
  summarise: summariseResult,
};

const parseCheck = parseChecks({
  seed: SEED,
  reading: READING,
  casesOf: (spec) => casesFor(spec.id.slice(PARSE_CHECK_PREFIX.length) as ParseCheck).map((c) => c.id),
  noResults: NO_RESULTS_REASON,
  // A result counts only for a stream the mock served as the case asks (its query, and its body for bad input).
  requested: (id, request) => {
    const c = findCase(id);
    return c !== undefined && isCaseRequest(c, request.path, request.body);
  },
  // done-terminates: the client must finish while the mock still holds the stream open, not only report the right result.
  witness: (spec) => (spec.id === DONE_TERMINATES ? heldStreamWitness() : undefined),
});

export const PARSE_CHECKS: CheckDef[] = SPECS.map(parseCheck);
