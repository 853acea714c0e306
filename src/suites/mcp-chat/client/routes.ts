/**
 * The kit's own endpoints on the mcp-chat mock (`GET …/__agentwire/cases`, `POST
 * …/__agentwire/results`; see `core/client-cases/routes.ts`), filled with this protocol's cases,
 * result shape and `{detail}` errors. Plugged into the mock through its `routes` option.
 */
import { caseRoutes, type CaseRoutes } from "../../../core/client-cases/routes.js";
import type { TranscriptBus } from "../../../core/transcript/transcript.js";
import type { AdapterResult } from "./adapters/types.js";
import { CLIENT_CASES, EXPECTED_NOTE, findCase, toWireCase, type ClientCase } from "./cases.js";
import { parseAdapterResult } from "./compare.js";
import { defaultExpectedResult } from "./expected.js";

export type { CaseRoutes };

export interface CaseRoutesOptions {
  /** The mock's time scale: the case deadlines it lists follow it (default 1). */
  timeScale?: number;
  /** How the expected result of a case is computed (default: against the default mock content). */
  expected?: (c: ClientCase) => Promise<AdapterResult>;
}

export function createClientCaseRoutes(bus: TranscriptBus, options: CaseRoutesOptions = {}): CaseRoutes {
  const expected = options.expected ?? defaultExpectedResult;
  return caseRoutes({
    bus,
    expectedNote: EXPECTED_NOTE,
    wireCases: () => CLIENT_CASES.map((c) => toWireCase(c, options.timeScale)),
    findCase,
    parseResult: parseAdapterResult,
    resultShape: "{text, tools, outcome, error?}",
    expectation: async (c) => ({ expected: await expected(c) }),
    errorBody: (detail) => ({ detail }),
    allowCredentials: true,
  });
}
