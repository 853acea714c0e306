/**
 * A protocol's table of client robustness cases, and what the kit derives from it: lookup by id,
 * the cases feeding one client-parse check, the request path a client sends (scenario, framing and
 * knobs in the query, the case named by its `case` parameter), the case a recorded request
 * belongs to, and whether a recorded request asked for a case's own stream. A protocol supplies
 * the rows and its endpoint. Browser-safe.
 */
import { scaleMs } from "./time-scale.js";

/** The kit's own endpoints on a mock (see `routes.ts`). */
export const CASES_PATH = "/__agentwire/cases";
export const RESULTS_PATH = "/__agentwire/results";
/** Query parameter naming the case a request belongs to (the mocks ignore it). */
export const CASE_PARAM = "case";
/** How long a conforming client may take over a case unless the case says otherwise. */
export const DEFAULT_CASE_TIMEOUT_MS = 10_000;

/** What every protocol's case row carries. */
export interface CaseRow<K extends string = string> {
  id: string;
  description: string;
  scenario: string;
  /** Mock framing variant; "canonical" is the contract's own. */
  framing: string;
  /** Per-request mock knobs that change what is said (kept when computing the expectation). */
  query?: Record<string, string>;
  /** Per-request mock knobs that change only how or when it is sent (dropped for the expectation). */
  presentation?: Record<string, string>;
  checks: readonly K[];
  /** A conforming client finishes well within this; a longer wait means it hung. */
  timeoutMs?: number;
}

export interface CaseTable<C extends CaseRow<K>, K extends string> {
  findCase(id: string): C | undefined;
  /** The cases feeding one client-parse check. */
  casesFor(check: K): C[];
  /** The request path of a case as the client sends it. */
  casePath(c: C): string;
  /** The same request with the contract's own encoding: what the expected result is computed from. */
  canonicalPath(c: C): string;
  /** The case a recorded request belongs to, from its path's `case` parameter. */
  caseOfPath(path: string): C | undefined;
  /**
   * Whether a recorded request path asked for the case's own stream: the endpoint, with every
   * parameter of the case's path (its `case`, scenario, framing and knobs) as the case sets it.
   */
  isRequestOf(c: C, path: string): boolean;
  /** Full ids of the client-parse checks a case feeds. */
  checkIds(c: C): string[];
  /** The case's deadline; a deadline of its own follows the time scale (see `time-scale.ts`). */
  timeoutOf(c: C, timeScale?: number): number;
}

/** The derived views of `cases`, sent to `endpoint` (e.g. "/chat/stream"), checks named `<prefix><short id>`. */
export function caseTable<C extends CaseRow<K>, K extends string>(cases: readonly C[], endpoint: string, checkPrefix: string): CaseTable<C, K> {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const findCase = (id: string) => byId.get(id);
  const pathOf = (c: C, params: Record<string, string>) => {
    const q = new URLSearchParams({ [CASE_PARAM]: c.id, scenario: c.scenario, ...params });
    return `${endpoint}?${q.toString()}`;
  };
  const casePath = (c: C) => pathOf(c, { framing: c.framing, ...(c.query ?? {}), ...(c.presentation ?? {}) });
  return {
    findCase,
    casesFor: (check) => cases.filter((c) => c.checks.includes(check)),
    casePath,
    canonicalPath: (c) => pathOf(c, { framing: "canonical", ...(c.query ?? {}) }),
    caseOfPath(path) {
      const q = path.indexOf("?");
      if (q < 0) return undefined;
      const id = new URLSearchParams(path.slice(q + 1)).get(CASE_PARAM);
      return id === null ? undefined : findCase(id);
    },
    isRequestOf(c, path) {
      const q = path.indexOf("?");
      if (q < 0 || !path.slice(0, q).endsWith(endpoint)) return false;
      const sent = new URLSearchParams(path.slice(q + 1));
      const wanted = new URLSearchParams(casePath(c).slice(endpoint.length + 1));
      for (const [k, v] of wanted) if (sent.get(k) !== v) return false;
      return true;
    },
    checkIds: (c) => c.checks.map((k) => checkPrefix + k),
    // The default deadline only guards against a hang: no case waits for it by design.
    timeoutOf: (c, timeScale = 1) => (c.timeoutMs !== undefined ? scaleMs(c.timeoutMs, timeScale) : DEFAULT_CASE_TIMEOUT_MS),
  };
}
