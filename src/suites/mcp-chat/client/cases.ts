/**
 * The client robustness cases (contract §8): each is one `/chat/stream` request the kit asks a
 * client with an adapter to make, with the scenario and framing chosen through query parameters,
 * and the client-parse checks its result feeds. Browser-safe: plain data and string building.
 */
import { caseTable, type CaseRow } from "../../../core/client-cases/case-table.js";
import { canonicalJson } from "../../../core/client-cases/compare.js";
import type { AdapterResult } from "./adapters/types.js";

/** Short ids of the client-parse checks (full id: `mcp-chat/client-parse/<id>`). */
export type ParseCheck =
  | "split-chunks"
  | "utf8-split"
  | "sse-variants"
  | "done-terminates"
  | "error-surfaced"
  | "truncation-detected"
  | "http-error-detail"
  | "tool-matching"
  | "unexpected-payloads";

export interface ClientCase extends CaseRow<ParseCheck> {
  /** Request body; a valid ChatRequest unless the case is about bad input. */
  body?: unknown;
  checks: ParseCheck[];
  /** How the expected result differs from what the canonical framing gives. */
  expect?: Pick<AdapterResult, "outcome">;
  /** Client-side traffic checks (full ids) this request breaks because the kit asked for it. */
  exempt?: string[];
}

/** What `GET /__agentwire/cases` lists for each case. */
export interface WireCase {
  id: string;
  description: string;
  method: "POST";
  /** Path and query, relative to the mock's base URL. */
  path: string;
  body: unknown;
  /** Full ids of the client-parse checks the case feeds. */
  checks: string[];
  timeoutMs: number;
}

export { CASES_PATH, RESULTS_PATH, CASE_PARAM } from "../../../core/client-cases/case-table.js";
export const PARSE_CHECK_PREFIX = "mcp-chat/client-parse/";
export const CHAT_REQUEST_CHECK = "mcp-chat/client/chat-request";
/**
 * Transcript note the kit emits before each reported result: `{case, expected}`. Keeping the
 * expectation in the transcript lets a saved run be judged again exactly as it was.
 */
export const EXPECTED_NOTE = "mcp-chat/client-case-expected";

export const DEFAULT_MESSAGE = "What is the weather in San Francisco?";

const weather = (framing: string, checks: ParseCheck[], description: string, extra: Partial<ClientCase> = {}): ClientCase => ({
  id: framing,
  description,
  scenario: "weather-tool",
  framing,
  checks,
  ...extra,
});

export const CLIENT_CASES: readonly ClientCase[] = [
  // Chunking: TCP keeps no event boundaries.
  weather("canonical", ["split-chunks"], "baseline: one write per event"),
  weather("split-1", ["split-chunks"], "one byte per write"),
  weather("split-random", ["split-chunks"], "seeded random write sizes"),
  weather("coalesced", ["split-chunks"], "the whole stream in one write"),
  weather("canonical", ["split-chunks"], "non-ASCII sent as \\u escapes gives the same text", {
    id: "ascii-json",
    presentation: { asciiJson: "1" },
  }),
  {
    id: "utf8-split",
    description: "write boundaries inside 2-, 3- and 4-byte characters",
    scenario: "long-answer",
    framing: "split-utf8",
    checks: ["utf8-split"],
  },
  // Valid but non-canonical SSE (WHATWG rules).
  weather("split-crlf", ["sse-variants"], "CRLF line ends split between CR and LF"),
  weather("cr", ["sse-variants"], "CR line ends"),
  weather("mixed-eol", ["sse-variants"], "LF, CRLF and CR mixed"),
  weather("no-space", ["sse-variants"], "data: without the space"),
  weather("comments", ["sse-variants"], "comment lines, one of 2 KB"),
  weather("extra-fields", ["sse-variants"], "event:, id:, retry: and an ignored Data: line"),
  weather("multiline-data", ["sse-variants"], "JSON over several data: lines, joined with LF"),
  weather("bom", ["sse-variants"], "a byte order mark at the start"),
  // Termination.
  weather("open-after-done", ["done-terminates"], "the connection stays open after [DONE]", { timeoutMs: 5_000 }),
  weather("trailing-after-done", ["done-terminates"], "bytes after [DONE]"),
  weather("eof-no-terminal", ["truncation-detected"], "EOF without a sentinel", { expect: { outcome: "truncated" } }),
  weather("no-final-blank", ["truncation-detected"], "[DONE] without its blank line, so never dispatched", {
    expect: { outcome: "truncated" },
  }),
  // Errors.
  {
    id: "stream-error",
    description: "[ERROR] after a tool and partial text",
    scenario: "stream-error",
    framing: "canonical",
    checks: ["error-surfaced"],
  },
  {
    id: "not-connected",
    description: "[ERROR] alone (chat while disconnected, SSE form)",
    scenario: "not-connected",
    framing: "canonical",
    query: { notConnected: "sse-error" },
    checks: ["error-surfaced"],
  },
  {
    id: "http-409",
    description: "409 {detail} instead of a stream (chat while disconnected, HTTP form)",
    scenario: "not-connected",
    framing: "canonical",
    query: { notConnected: "http-409" },
    checks: ["http-error-detail"],
  },
  {
    id: "bad-input",
    description: "422 {detail} for a non-string message",
    scenario: "weather-tool",
    framing: "canonical",
    body: { message: 42 },
    checks: ["http-error-detail"],
    exempt: [CHAT_REQUEST_CHECK],
  },
  // Tools and payloads.
  {
    id: "parallel-tools",
    description: "two calls of one tool, ended out of order",
    scenario: "parallel-tools",
    framing: "canonical",
    checks: ["tool-matching"],
  },
  weather("unknown-type", ["unexpected-payloads"], 'an event of type "status"'),
  weather("non-json-data", ["unexpected-payloads"], "a data: line that is not JSON"),
];

const table = caseTable<ClientCase, ParseCheck>(CLIENT_CASES, "/chat/stream", PARSE_CHECK_PREFIX);

export const { findCase, casesFor, casePath, canonicalPath, caseOfPath } = table;

/**
 * Whether a recorded request asked for the case's stream: its path and query (see
 * `CaseTable.isRequestOf`), and, for a case that sends a body of its own (bad input), that body.
 */
export function isCaseRequest(c: ClientCase, path: string, body: string | undefined): boolean {
  if (!table.isRequestOf(c, path)) return false;
  if (c.body === undefined) return true;
  try {
    return canonicalJson(JSON.parse(body ?? "")) === canonicalJson(c.body);
  } catch {
    return false;
  }
}

export function caseBody(c: ClientCase): unknown {
  return c.body === undefined ? { message: DEFAULT_MESSAGE } : c.body;
}

/** `timeScale`: the mock's (see core/client-cases/time-scale.ts); the deadline follows it. */
export function toWireCase(c: ClientCase, timeScale = 1): WireCase {
  return {
    id: c.id,
    description: c.description,
    method: "POST",
    path: casePath(c),
    body: caseBody(c),
    checks: table.checkIds(c),
    timeoutMs: table.timeoutOf(c, timeScale),
  };
}
