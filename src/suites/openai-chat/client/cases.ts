/**
 * The client robustness cases (contract §8): each is one `POST …/chat/completions` the kit asks a
 * client with an adapter to make, with the scenario, framing and fault chosen through the query
 * and headers, and the client-parse checks its result feeds. Browser-safe: plain data (the tool
 * definitions come from the mock's catalogue records).
 */
import { findCatalogue } from "../../../mocks/openai-chat/catalogues.js";
import { caseTable, type CaseRow } from "../../../core/client-cases/case-table.js";
import type { AdapterResult } from "./adapters/types.js";

/** Short ids of the client-parse checks (full id: `openai-chat/client-parse/<id>`). */
export type ParseCheck =
  | "split-chunks"
  | "sse-variants"
  | "termination"
  | "tool-call-assembly"
  | "usage-chunk"
  | "error-surfaced"
  | "quirk-tolerance";

export interface ClientCase extends CaseRow<ParseCheck> {
  /** A quirk fault of §7 (dropped for the expectation: the result should still be the canonical one). */
  fault?: string;
  /** Changes to the default request body (`stream: false`, `stream_options`, another model...). */
  body?: Record<string, unknown>;
  /** Headers the request carries on top of the client's own (a wrong key...). */
  headers?: Record<string, string>;
  checks: ParseCheck[];
  /** How the expected result differs from what the canonical framing gives. */
  expect?: Partial<Pick<AdapterResult, "outcome" | "finishReason" | "error">>;
  /** Client-side traffic checks (full ids) this request breaks because the kit asked for it. */
  exempt?: string[];
  /**
   * The id of the case that is this one's next turn: the client sends the history again with the
   * calls it assembled and one tool result per call (seed §3), to the follow-up's path.
   */
  followUp?: string;
  /** This case is only ever sent as the follow-up of another (not listed on its own). */
  turn?: "follow-up";
}

/** The next turn of a case, as `GET /__agentwire/cases` lists it inside its first turn. */
export interface WireFollowUp {
  id: string;
  description: string;
  path: string;
  headers: Record<string, string>;
  /** The result a tool message carries for each call (any text will do). */
  toolResult: string;
  checks: string[];
  timeoutMs: number;
}

/** What `GET /__agentwire/cases` lists for each case. */
export interface WireCase {
  id: string;
  description: string;
  method: "POST";
  /** Path and query, relative to the mock's base URL (which conventionally ends in /v1). */
  path: string;
  /** Extra request headers (faults, a deliberately wrong key); the client adds its own. */
  headers: Record<string, string>;
  body: unknown;
  /** Whether the request asks for a stream (`body.stream`). */
  stream: boolean;
  /** Full ids of the client-parse checks the case feeds. */
  checks: string[];
  timeoutMs: number;
  followUp?: WireFollowUp;
}

export { CASES_PATH, RESULTS_PATH, CASE_PARAM } from "../../../core/client-cases/case-table.js";
export const PARSE_CHECK_PREFIX = "openai-chat/client-parse/";
/**
 * Transcript note the kit emits before each reported result: `{case, expected, looseIds?}`.
 * Keeping the expectation in the transcript lets a saved run be judged again exactly as it was.
 */
export const EXPECTED_NOTE = "openai-chat/client-case-expected";
export const FAULT_HEADER = "X-Agentwire-Fault";

export const DEFAULT_MODEL = "agentwire-mock";
export const DEFAULT_PROMPT = "Help me with this project.";
const SYSTEM_PROMPT = "You are a coding assistant with Continue's built-in tools.";

/** The seed catalogue's tools, offered in every case that may call one (contract §2). */
export const SEED_TOOL_NAMES = [
  "read_file",
  "read_currently_open_file",
  "create_new_file",
  "edit_existing_file",
  "search_and_replace_in_file",
  "grep_search",
  "file_glob_search",
  "search_web",
  "view_diff",
  "ls",
  "fetch_url_content",
  "create_rule_block",
  "request_rule",
  "codebase",
  "run_terminal_command",
] as const;

/** `tool-read-file` for `read_file`: the mock's per-tool scenario names. */
export const toolScenario = (name: string): string => `tool-${name.replace(/_/g, "-")}`;

const USAGE = { stream_options: { include_usage: true } };
const NO_STREAM = { stream: false };

const c = (
  id: string,
  scenario: string,
  framing: string,
  checks: ParseCheck[],
  description: string,
  extra: Partial<ClientCase> = {},
): ClientCase => ({ id, description, scenario, framing, checks, ...extra });

export interface Quirk {
  fault: string;
  scenario: string;
  body?: Record<string, unknown>;
  /** Text the fault adds legitimately (content beside a call is legal OpenAI): not compared. */
  ignoreText?: boolean;
  /** The fault is an error the client should surface, with this message (§3.10 "error-like"). */
  expectError?: string;
}

/**
 * Quirk faults of the tolerance table (§8.10), each with a scenario that shows it. A client
 * survives a quirk when what it acts on is still the canonical result: the outcome, the text and
 * the calls (ids only for being present and distinct when they differ); the finish reason and
 * usage it reports are not compared.
 */
export const QUIRKS: readonly Quirk[] = [
  { fault: "tool-index-missing", scenario: "tool-read-file" },
  { fault: "parallel-same-index", scenario: "parallel-tools" },
  { fault: "tool-id-missing", scenario: "tool-read-file" },
  { fault: "tool-id-changes", scenario: "tool-read-file" },
  { fault: "tool-id-repeated", scenario: "tool-read-file" },
  { fault: "tool-name-repeated", scenario: "tool-read-file" },
  { fault: "tool-name-late", scenario: "tool-read-file" },
  { fault: "tool-type-missing", scenario: "tool-read-file" },
  { fault: "arguments-object", scenario: "tool-read-file" },
  { fault: "arguments-cumulative", scenario: "tool-read-file" },
  { fault: "arguments-repeated-at-end", scenario: "tool-read-file" },
  { fault: "arguments-placeholder-first", scenario: "tool-read-file" },
  { fault: "no-arg-empty-string", scenario: "tool-view-diff" },
  { fault: "content-with-tool-call", scenario: "tool-read-file", ignoreText: true },
  { fault: "parallel-interleaved", scenario: "parallel-tools" },
  { fault: "stop-instead-of-tool-calls", scenario: "tool-read-file" },
  { fault: "missing-finish-reason", scenario: "tool-read-file" },
  { fault: "no-done", scenario: "tool-read-file" },
  { fault: "missing-role", scenario: "text-only" },
  { fault: "role-empty-string", scenario: "text-only" },
  { fault: "usage-every-chunk", scenario: "text-only", body: USAGE },
  { fault: "usage-choices-null", scenario: "text-only", body: USAGE },
  { fault: "keepalive-as-data", scenario: "text-only" },
  // vLLM's old error object: a careful client surfaces it as an error with its message.
  { fault: "stream-error-vllm-object", scenario: "text-only", expectError: "The model failed to generate a response" },
  { fault: "hold-open-after-done", scenario: "text-only" },
  { fault: "events-after-done", scenario: "text-only" },
];

export const CLIENT_CASES: readonly ClientCase[] = [
  // Chunking: TCP keeps no event boundaries (§8.1). One call or text per case, no usage chunk,
  // so that only the reading is on trial here.
  c("canonical-text", "text-only", "canonical", ["split-chunks"], "baseline: text, one write per event"),
  c("canonical-tool", "tool-run-terminal-command", "canonical", ["split-chunks"], "baseline: one call, one write per event"),
  c("reasoning", "reasoning", "canonical", ["split-chunks"], "reasoning_content deltas before the text, kept out of the answer (§8.7)"),
  c("split-1", "tool-create-new-file", "split-1", ["split-chunks"], "a call with escapes, one byte per write"),
  c("split-random", "tool-edit-existing-file", "split-random", ["split-chunks"], "seeded random write sizes"),
  c("split-utf8", "long-stream", "split-utf8", ["split-chunks"], "1,000 deltas with 2-, 3- and 4-byte characters, writes cut inside them", {
    presentation: { chunkDelayMs: "0" },
  }),
  c("coalesced", "tool-run-terminal-command", "coalesced", ["split-chunks"], "the whole stream in one write"),
  // Valid but non-canonical SSE (§8.2).
  c("crlf", "tool-read-file", "crlf", ["sse-variants"], "CRLF line ends"),
  c("split-crlf", "tool-read-file", "split-crlf", ["sse-variants"], "CRLF line ends cut between CR and LF"),
  c("cr", "tool-read-file", "cr", ["sse-variants"], "CR line ends"),
  c("no-space", "tool-read-file", "no-space", ["sse-variants"], "data: without the space"),
  c("comments", "text-only", "comments", ["sse-variants"], ": ping comments and one 2 KB comment"),
  c("multiline-data", "tool-read-file", "multiline-data", ["sse-variants"], "a chunk's JSON over several data: lines"),
  c("extra-fields", "text-only", "extra-fields", ["sse-variants"], "event:, id: and retry: lines"),
  c("slow", "slow", "canonical", ["sse-variants"], ": ping every second while the first chunk is 5 s late", { timeoutMs: 15_000 }),
  // Termination (§8.3).
  c("open-after-done", "text-only", "open-after-done", ["termination"], "the connection stays open after [DONE]", { timeoutMs: 5_000 }),
  c("trailing-after-done", "text-only", "trailing-after-done", ["termination"], "a chunk after [DONE]"),
  c("eof-no-done", "tool-read-file", "eof-no-done", ["termination"], "EOF after the finish reason, no [DONE]"),
  c("eof-mid-stream", "text-only", "eof-mid-stream", ["termination"], "EOF before any finish reason: truncated", {
    expect: { outcome: "truncated", finishReason: null },
  }),
  // Tool calls (§8.4, §8.5, §8.9): one case per seed tool, then the shapes calls come in.
  ...SEED_TOOL_NAMES.map((name) => c(toolScenario(name), toolScenario(name), "canonical", ["tool-call-assembly"], `one ${name} call`)),
  c("parallel-tools", "parallel-tools", "canonical", ["tool-call-assembly"], "two sequential calls at index 0 and 1"),
  c("long-tool-args", "long-tool-args", "canonical", ["tool-call-assembly"], "16 KB of arguments with escapes and emoji in 3-character fragments", {
    presentation: { chunkDelayMs: "0" },
  }),
  c("args-1-char", "tool-create-new-file", "canonical", ["tool-call-assembly"], "arguments in 1-character fragments", { query: { argFragment: "1" } }),
  c("args-whole", "tool-create-new-file", "canonical", ["tool-call-assembly"], "arguments whole in the first delta", { query: { argFragment: "0" } }),
  c("length-in-tool-call", "length-in-tool-call", "canonical", ["tool-call-assembly"], 'arguments cut mid-JSON, finish_reason "length"'),
  c("length-truncated", "length-truncated", "canonical", ["tool-call-assembly"], 'text then finish_reason "length": no call'),
  c("sync-tool", "tool-read-file", "canonical", ["tool-call-assembly"], "one call in a non-streamed chat.completion", { body: NO_STREAM }),
  c("sync-parallel", "parallel-tools", "canonical", ["tool-call-assembly"], "two calls in a non-streamed chat.completion", { body: NO_STREAM }),
  // The tool loop (seed §2-§3): a call, then the history again with its result.
  c("loop-call", "tool-run-terminal-command", "canonical", ["tool-call-assembly"], "a call the client answers in a follow-up request", {
    followUp: "loop-answer",
  }),
  c("loop-answer", "tool-run-terminal-command", "canonical", ["tool-call-assembly"], "the final answer after the tool result", {
    turn: "follow-up",
  }),
  // The usage chunk (§8.6).
  c("usage-text", "text-only", "canonical", ["usage-chunk"], "text, then the choices: [] usage chunk", { body: USAGE }),
  c("usage-tool", "tool-read-file", "canonical", ["usage-chunk"], "a call, then the choices: [] usage chunk", { body: USAGE }),
  // Errors (§8.8).
  c("error-mid-stream", "error-mid-stream", "canonical", ["error-surfaced"], "an in-stream error after partial text"),
  c("error-sync", "error-mid-stream", "canonical", ["error-surfaced"], "500 with an ErrorResponse for a non-streamed request", { body: NO_STREAM }),
  c("http-429", "http-error", "canonical", ["error-surfaced"], "429 with Retry-After and an ErrorResponse"),
  c("unknown-model", "text-only", "canonical", ["error-surfaced"], "404 model_not_found for an unknown model", {
    body: { model: "agentwire-no-such-model" },
  }),
  // The tolerance matrix (§8.10): reported, never failed.
  ...QUIRKS.map((q) =>
    c(`quirk-${q.fault}`, q.scenario, "canonical", ["quirk-tolerance"], `quirk fault ${q.fault}`, {
      fault: q.fault,
      ...(q.body ? { body: q.body } : {}),
      ...(q.expectError !== undefined ? { expect: { outcome: "error" as const, error: q.expectError } } : {}),
      ...(q.fault === "hold-open-after-done" ? { timeoutMs: 5_000 } : {}),
    }),
  ),
];

const table = caseTable<ClientCase, ParseCheck>(CLIENT_CASES, "/chat/completions", PARSE_CHECK_PREFIX);

export const { findCase, casesFor, casePath, canonicalPath, caseOfPath } = table;

export function quirkOf(caseId: string): Quirk | undefined {
  return QUIRKS.find((q) => `quirk-${q.fault}` === caseId);
}

/**
 * The tools a case offers: the one its scenario calls (`read_file` for the others), so each request
 * stays small; across the cases every seed tool is offered, `request_rule` (disabled) only in its
 * own case.
 */
export function caseToolNames(x: ClientCase): string[] {
  const own = SEED_TOOL_NAMES.find((n) => x.scenario === toolScenario(n));
  if (own) return [own];
  if (x.scenario === "long-tool-args") return ["create_new_file"];
  return ["read_file"];
}

/** ToolDefinitions for seed tools, as the kit's probes send them: name, description, parameters. */
export function toolDefinitions(names: readonly string[]): unknown[] {
  const seed = findCatalogue("seed");
  return names.flatMap((name) => {
    const t = seed?.tools.find((x) => x.name === name);
    return t ? [{ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }] : [];
  });
}

/** The request body of a case (a follow-up's first turn; the client adds the rest). */
export function caseBody(x: ClientCase): Record<string, unknown> {
  return {
    model: DEFAULT_MODEL,
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: DEFAULT_PROMPT },
    ],
    tools: toolDefinitions(caseToolNames(x)),
    stream: true,
    ...(x.body ?? {}),
  };
}

export function caseHeaders(x: ClientCase): Record<string, string> {
  return { ...(x.fault ? { [FAULT_HEADER]: x.fault } : {}), ...(x.headers ?? {}) };
}

export const TOOL_RESULT = "added 420 packages, and audited 421 packages in 3s\n\nfound 0 vulnerabilities";

/** `timeScale`: the mock's (see core/client-cases/time-scale.ts); the deadlines follow it. */
export function toWireCase(x: ClientCase, timeScale = 1): WireCase {
  const body = caseBody(x);
  const next = x.followUp ? findCase(x.followUp) : undefined;
  return {
    id: x.id,
    description: x.description,
    method: "POST",
    path: casePath(x),
    headers: caseHeaders(x),
    body,
    stream: body.stream === true,
    checks: table.checkIds(x),
    timeoutMs: table.timeoutOf(x, timeScale),
    ...(next
      ? {
          followUp: {
            id: next.id,
            description: next.description,
            path: casePath(next),
            headers: caseHeaders(next),
            toolResult: TOOL_RESULT,
            checks: table.checkIds(next),
            timeoutMs: table.timeoutOf(next, timeScale),
          },
        }
      : {}),
  };
}

/** The cases a client is handed: every case but the follow-up turns (listed inside their first turn). */
export function wireCases(timeScale = 1): WireCase[] {
  return CLIENT_CASES.filter((x) => x.turn !== "follow-up").map((x) => toWireCase(x, timeScale));
}
