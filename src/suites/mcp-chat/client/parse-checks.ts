/**
 * `mcp-chat/client-parse/*`: what a client assembled from the robustness cases, as its adapter
 * reported it (`client-result` events), against what the kit expected for the case (the
 * `EXPECTED_NOTE` emitted just before each result). State is one verdict per case.
 */
import type { CheckDef } from "../../../core/checks/check.js";
import { parseChecks, type CaseReading, type ParseCheckSpec } from "../../../core/client-cases/judge.js";
import type { AdapterResult } from "./adapters/types.js";
import { casesFor, EXPECTED_NOTE, PARSE_CHECK_PREFIX, type ParseCheck } from "./cases.js";
import { diffResults, parseAdapterResult, summariseResult } from "./compare.js";
import { SEED } from "../labels.js";

export const NO_RESULTS_REASON = "no adapter results reported (a browser frontend gets only client/* checks)";

const SPECS: ParseCheckSpec[] = [
  {
    id: "mcp-chat/client-parse/split-chunks",
    level: "MUST",
    title: "Chunking does not change the result",
    rule: "The result is the same for 1-byte, random and coalesced chunks.",
    section: "§5 SSE Event Format",
    quote: "Each event follows the SSE format: data: {json_payload}\\n\\n",
  },
  {
    id: "mcp-chat/client-parse/utf8-split",
    level: "MUST",
    title: "Split UTF-8 characters decode",
    rule: "Characters split across chunks decode without U+FFFD.",
    section: "§5 Complete SSE Stream Example",
    quote: 'data: {"type": "text", "content": "is 65°F and sunny."}',
  },
  {
    id: "mcp-chat/client-parse/sse-variants",
    level: "SHOULD",
    title: "Non-canonical SSE parses as WHATWG says",
    rule: "Valid but non-canonical SSE gives the canonical result (WHATWG rules).",
    section: "§5 Send Chat Message (Streaming)",
    quote: "Response: Server-Sent Events (SSE) stream",
  },
  {
    id: "mcp-chat/client-parse/done-terminates",
    level: "MUST",
    title: "[DONE] ends the stream",
    rule: "The client finishes at [DONE] with the connection still open, and ignores what follows.",
    section: "§5 Event Types",
    quote: "Done Signal - Indicates stream completion",
  },
  {
    id: "mcp-chat/client-parse/error-surfaced",
    level: "MUST",
    title: "[ERROR] is shown as a failure",
    rule: "[ERROR] msg ends the stream as a failure that carries msg (trimmed), not as text.",
    section: "§5 Event Types",
    quote: "Error Signal - Indicates an error occurred: data: [ERROR] Error message here",
  },
  {
    id: "mcp-chat/client-parse/truncation-detected",
    level: "SHOULD",
    title: "A stream without a sentinel is truncated",
    rule: "EOF without a sentinel is reported as truncated.",
    section: "Implementation Notes: Tool Call Flow",
    quote: "Send [DONE] to signal completion",
  },
  {
    id: "mcp-chat/client-parse/http-error-detail",
    level: "SHOULD",
    title: "HTTP errors show their detail",
    rule: "A non-2xx chat answer is an error that carries detail.",
    section: "Important Behaviors 4; §2 Response (Error - 4xx/5xx)",
    quote: "return HTTP error codes for request-level errors … { \"detail\": \"Error message describing what went wrong\" }",
  },
  {
    id: "mcp-chat/client-parse/tool-matching",
    level: "MUST",
    title: "tool_end matches its tool_start by id",
    rule: "tool_end completes the card with the same id, even for out-of-order ends of the same tool.",
    section: "§5 Event Field Reference",
    quote: "id | string | ✓ | Unique ID for this tool call (used to match with tool_end)",
  },
  {
    id: "mcp-chat/client-parse/unexpected-payloads",
    level: "SHOULD",
    title: "Unknown payloads are not shown",
    rule: "Unknown types and non-JSON payloads neither break the stream nor become text.",
    section: "TypeScript Interface Reference",
    quote: "type: 'tool_start' | 'tool_end' | 'text';",
  },
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
});

export const PARSE_CHECKS: CheckDef[] = SPECS.map(parseCheck);
