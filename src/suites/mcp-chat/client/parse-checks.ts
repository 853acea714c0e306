/**
 * `mcp-chat/client-parse/*`: what a client assembled from the robustness cases, as its adapter
 * reported it (`client-result` events), against what the kit expected for the case (the
 * `EXPECTED_NOTE` emitted just before each result). State is one verdict per case.
 */
import { at, excerpt, type CheckDef, type CheckObserver, type Evidence, type Outcome } from "../../../core/check.js";
import type { TranscriptEvent } from "../../../core/transcript.js";
import type { AdapterResult } from "./adapters/types.js";
import { casesFor, EXPECTED_NOTE, PARSE_CHECK_PREFIX, type ParseCheck } from "./cases.js";
import { diffResults, parseAdapterResult, summariseResult } from "./compare.js";

const SEED = "002_f5cea501a704c7bf.txt";
export const NO_RESULTS_REASON = "no adapter results reported (a browser frontend gets only client/* checks)";

interface ParseCheckSpec {
  /** Full check id, `mcp-chat/client-parse/<ParseCheck>`. */
  id: string;
  level: CheckDef["level"];
  title: string;
  rule: string;
  section: string;
  quote: string;
}

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

type CaseVerdict = { ok: true } | { ok: false; diff: string[]; expected: string; actual: string; evidence: Evidence };

function parseCheck(spec: ParseCheckSpec): CheckDef {
  const id = spec.id;
  const check = id.slice(PARSE_CHECK_PREFIX.length) as ParseCheck;
  const caseIds = casesFor(check).map((c) => c.id);
  return {
    id,
    level: spec.level,
    side: "client",
    title: spec.title,
    rule: spec.rule,
    ref: { seed: SEED, section: spec.section, quote: spec.quote },
    probes: caseIds,
    create(): CheckObserver {
      const expected = new Map<string, AdapterResult>();
      const verdicts = new Map<string, CaseVerdict>();
      let anyResult = false;

      const judge = (event: Extract<TranscriptEvent, { kind: "client-result" }>): CaseVerdict => {
        const want = expected.get(event.case);
        const parsed = parseAdapterResult(event.result);
        const evidence = at(event, { note: `case ${event.case}`, excerpt: excerpt(event.result, 300) });
        if (!parsed.ok) return { ok: false, diff: [parsed.error], expected: "an AdapterResult", actual: excerpt(event.result), evidence };
        if (!want) {
          return { ok: false, diff: ["the kit recorded no expected result for this case"], expected: "(none)", actual: summariseResult(parsed.result), evidence };
        }
        const diff = diffResults(want, parsed.result);
        if (diff.length === 0) return { ok: true };
        return { ok: false, diff, expected: summariseResult(want), actual: summariseResult(parsed.result), evidence: { ...evidence, note: `case ${event.case}: ${diff.join("; ")}` } };
      };

      return {
        observe(event) {
          if (event.kind === "note" && event.name === EXPECTED_NOTE) {
            const v = event.value as { case?: unknown; expected?: unknown } | null;
            const parsed = parseAdapterResult(v?.expected);
            if (typeof v?.case === "string" && caseIds.includes(v.case) && parsed.ok) expected.set(v.case, parsed.result);
          } else if (event.kind === "client-result") {
            anyResult = true;
            if (!caseIds.includes(event.case)) return;
            // A case reported twice keeps its first failure.
            if (verdicts.get(event.case)?.ok === false) return;
            verdicts.set(event.case, judge(event));
          }
        },
        finish(): Outcome {
          if (!anyResult) return { verdict: "skip", message: NO_RESULTS_REASON };
          const failed = caseIds.flatMap((c) => {
            const v = verdicts.get(c);
            return v && !v.ok ? [{ id: c, ...v }] : [];
          });
          if (failed.length > 0) {
            const first = failed[0]!;
            const more = failed.length > 1 ? ` (and ${failed.length - 1} more case(s): ${failed.slice(1).map((f) => f.id).join(", ")})` : "";
            return {
              verdict: "fail",
              message: `${spec.rule} Case ${first.id}: ${first.diff.join("; ")}${more}`,
              expected: first.expected,
              actual: first.actual,
              evidence: failed.map((f) => f.evidence),
            };
          }
          const missing = caseIds.filter((c) => !verdicts.has(c));
          if (missing.length > 0) {
            return { verdict: "incomplete", message: `no result reported for case(s) ${missing.join(", ")}` };
          }
          return { verdict: "pass", message: `every case gave the expected result: ${caseIds.join(", ")}` };
        },
      };
    },
  };
}

export const PARSE_CHECKS: CheckDef[] = SPECS.map(parseCheck);
