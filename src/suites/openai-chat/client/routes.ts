/**
 * The kit's own endpoints on the openai-chat mock (`GET …/__agentwire/cases`, `POST
 * …/__agentwire/results`; see `core/client-cases/routes.ts`), filled with this protocol's cases,
 * result shape and ErrorResponse bodies. Plugged into the mock through its `routes` option, and
 * subscribed to the same bus as the mock's recorder, so the expectation is computed from the very
 * request the client sent for the case, with the call ids the mock gave it.
 */
import { caseRoutes, type CaseRoutes } from "../../../core/client-cases/routes.js";
import type { TranscriptBus, TranscriptEvent } from "../../../core/transcript/transcript.js";
import { EXPECTED_NOTE, findCase, wireCases, caseOfPath, type ClientCase } from "./cases.js";
import { parseAdapterResult } from "./compare.js";
import { emittedCallsOf } from "./emitted.js";
import { expectedResult, type ContentOptions, type Expectation, type RecordedRequest } from "./expected.js";
import { isCompletionRequest } from "./traffic-checks.js";

export type { CaseRoutes };

export interface CaseRoutesOptions {
  /** Mock options that change what the mock says (when the mock was started with them). */
  content?: ContentOptions;
  /** The mock's time scale: the case deadlines it lists follow it (default 1). */
  timeScale?: number;
  /** How the expected result of a case is computed (default: replayed on a fresh engine). */
  expected?: (c: ClientCase, recorded: RecordedRequest | undefined) => Promise<Expectation>;
}

export function createClientCaseRoutes(bus: TranscriptBus, options: CaseRoutesOptions = {}): CaseRoutes {
  const expected = options.expected ?? ((c, recorded) => expectedResult(c, recorded, options.content));
  // The last request the client sent for each case (one entry per case id: bounded).
  const sent = new Map<string, RecordedRequest>();
  bus.subscribe((event: TranscriptEvent) => {
    if (!isCompletionRequest(event)) return;
    const c = caseOfPath(event.path);
    if (!c) return;
    const catalogue = event.meta?.catalogue;
    sent.set(c.id, {
      body: event.body ?? "",
      ...(emittedCallsOf(event) ? { calls: emittedCallsOf(event)!.calls } : {}),
      ...(typeof catalogue === "string" ? { catalogue } : {}),
    });
  });

  return caseRoutes({
    bus,
    expectedNote: EXPECTED_NOTE,
    wireCases: () => wireCases(options.timeScale),
    findCase,
    parseResult: parseAdapterResult,
    resultShape: "{text, reasoning, toolCalls, finishReason, usage, outcome, error?}",
    async expectation(c) {
      const want = await expected(c, sent.get(c.id));
      return { expected: want.expected, ...(want.looseIds ? { looseIds: true } : {}) };
    },
    // Kit endpoint errors in the protocol's own ErrorResponse shape.
    errorBody: (message, code) => ({ error: { message, type: "invalid_request_error", param: null, code } }),
  });
}
