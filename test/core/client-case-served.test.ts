/**
 * The case kit judges a client's report only when the mock served the case's own stream first: a
 * report made after the client fetched some other stream (the endpoint without the case's query)
 * is left unjudged, never passed, for every protocol that uses the kit.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, type CheckContext } from "../../src/core/checks/check.js";
import { caseTable } from "../../src/core/client-cases/case-table.js";
import { caseJudge, casesOutcome, type CaseReading } from "../../src/core/client-cases/judge.js";
import { registry } from "../../src/core/schemas/schema-registry.js";
import { TranscriptBus, type NewEvent, type TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { Evaluation } from "../../src/core/verdicts/evaluation.js";
import { CLIENT_CASES, EXPECTED_NOTE, expectedResult, OPENAI_CHAT_CLIENT_CHECKS, wireCases } from "../../src/suites/openai-chat/client/index.js";

const TABLE = caseTable(
  [
    { id: "plain", description: "", scenario: "s", framing: "canonical", checks: ["x"] },
    { id: "split", description: "", scenario: "s", framing: "split-1", checks: ["x"], presentation: { asciiJson: "1" } },
  ],
  "/chat/stream",
  "p/",
);

/** Results are strings here; a case expects its own id. */
const READING: CaseReading<string, string> = {
  expectedNote: "n",
  parse: (v) => (typeof v === "string" ? { ok: true, result: v } : { ok: false, error: "not a string" }),
  expectation: (_note, expected) => expected,
  expectedResult: (e) => e,
  compare: (want, got) => ({ diff: want === got ? [] : [`expected ${want}, got ${got}`] }),
  summarise: (r) => r,
};

function stamped(list: NewEvent[]): TranscriptEvent[] {
  const bus = new TranscriptBus();
  const out: TranscriptEvent[] = [];
  bus.subscribe((e) => out.push(e));
  for (const e of list) bus.emit(e);
  return out;
}

let n = 0;
const request = (path: string): NewEvent => ({ kind: "http-request", probe: "client", exchange: `c${++n}`, label: "chat-stream", method: "POST", url: `http://127.0.0.1${path}`, path, headers: {}, meta: {} });
const report = (id: string, result: string): NewEvent[] => [
  { kind: "note", probe: "client", name: "n", value: { case: id, expected: id } },
  { kind: "client-result", probe: "client", case: id, result },
];

describe("a case's own request", () => {
  it("is the endpoint with every parameter of the case's path; others may come along", () => {
    const split = TABLE.findCase("split")!;
    expect(TABLE.isRequestOf(split, TABLE.casePath(split))).toBe(true);
    expect(TABLE.isRequestOf(split, `/base${TABLE.casePath(split)}&extra=1`)).toBe(true);
    expect(TABLE.isRequestOf(split, "/chat/stream")).toBe(false);
    expect(TABLE.isRequestOf(split, "/chat/stream?case=split&scenario=s&framing=split-1")).toBe(false);
    expect(TABLE.isRequestOf(split, TABLE.casePath(split).replace("/chat/stream", "/chat"))).toBe(false);
    expect(TABLE.isRequestOf(split, TABLE.casePath(TABLE.findCase("plain")!))).toBe(false);
  });
});

describe("reports judged only after the case's stream was served", () => {
  const judge = (events: NewEvent[], requested?: Parameters<typeof caseJudge>[2]) => {
    const j = caseJudge(["plain", "split"], READING, requested);
    for (const e of stamped(events)) j.observe(e);
    return casesOutcome("Rule.", ["plain", "split"], j, "no results");
  };
  const own = (id: string, path: string) => TABLE.isRequestOf(TABLE.findCase(id)!, path);

  it("with no request of the case recorded, a matching report does not pass and a differing one does not fail", () => {
    const right = judge([request("/chat/stream"), ...report("plain", "plain"), ...report("split", "split")]);
    expect([right.verdict, right.message]).toEqual(["incomplete", expect.stringContaining("case(s) plain, split reported without the mock having served the case's stream")]);
    const wrong = judge([request("/chat/stream"), ...report("plain", "other"), ...report("split", "other")]);
    expect(wrong.verdict).toBe("incomplete");
  });

  it("a request that names the case (the kit's default test) or carries its whole query (a protocol's own test) lets it be judged", () => {
    expect(judge([request("/chat/stream?case=plain"), ...report("plain", "plain"), request("/chat/stream?case=split"), ...report("split", "split")]).verdict).toBe("pass");
    const strict = (id: string, e: { path: string }) => own(id, e.path);
    const bare = judge([request("/chat/stream?case=plain"), ...report("plain", "plain"), request("/chat/stream?case=split"), ...report("split", "split")], strict);
    expect([bare.verdict, bare.message]).toEqual(["incomplete", expect.stringContaining("case(s) plain, split reported without")]);
    const full = [request(TABLE.casePath(TABLE.findCase("plain")!)), ...report("plain", "plain"), request(TABLE.casePath(TABLE.findCase("split")!)), ...report("split", "other")];
    expect(judge(full, strict).verdict).toBe("fail");
  });

  it("a request recorded only after the report does not count; a later report after it is judged", () => {
    const late = judge([...report("plain", "plain"), request("/chat/stream?case=plain"), request("/chat/stream?case=split"), ...report("split", "split")]);
    expect([late.verdict, late.message]).toEqual(["incomplete", expect.stringMatching(/^case\(s\) plain reported without/)]);
    const again = judge([...report("plain", "plain"), request("/chat/stream?case=plain"), ...report("plain", "plain"), request("/chat/stream?case=split"), ...report("split", "split")]);
    expect(again.verdict).toBe("pass");
  });

  it("a case not reported at all is named apart from one reported unserved", () => {
    const r = judge([...report("plain", "plain")]);
    expect(r.message).toBe(
      "case(s) plain reported without the mock having served the case's stream (no request with the case's path and query, as GET /__agentwire/cases lists it, was recorded before the report), so the result says nothing about the case; no result reported for case(s) split",
    );
  });
});

describe("openai-chat through the kit", () => {
  const ctx: CheckContext = { protocol: "openai-chat", profile: DEFAULT_PROFILE, params: {}, validate: (m, v) => registry.validate("openai-chat", m, v) };

  it("a harness that posts every termination case to the plain endpoint gets no pass", async () => {
    const ids = CLIENT_CASES.filter((c) => c.checks.includes("termination")).map((c) => c.id);
    const events: NewEvent[] = [];
    for (const id of ids) {
      const { expected } = await expectedResult(CLIENT_CASES.find((c) => c.id === id)!);
      events.push(request("/v1/chat/completions"), { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: id, expected } }, { kind: "client-result", probe: "client", case: id, result: expected });
    }
    const evaluate = (list: NewEvent[]) => {
      const evaluation = new Evaluation(OPENAI_CHAT_CLIENT_CHECKS, ctx);
      for (const e of stamped(list)) evaluation.observe(e);
      return evaluation.finish().find((r) => r.id === "openai-chat/client-parse/termination")!;
    };
    const r = evaluate(events);
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining("reported without the mock having served the case's stream")]);
    // The same reports after each case's own request are judged.
    const paths = Object.fromEntries(wireCases().map((w) => [w.id, `/v1${w.path}`]));
    const served = events.map((e) => (e.kind === "http-request" ? null : e)).flatMap((e, i) => (e ? [e] : [request(paths[ids[Math.floor(i / 3)]!]!)]));
    expect(evaluate(served).outcome).toBe("pass");
  });
});
