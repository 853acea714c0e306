/**
 * The openai-chat client checks on recorded transcripts (fixtures/openai-chat/transcripts/client/,
 * verdicts in expected.json), their edge cases (no traffic, missing or malformed results, the
 * tolerance report), the case list against contract §8, the expected results the kit computes,
 * and the kit endpoints that serve cases and take results.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, type CheckContext } from "../../../src/core/checks/check.js";
import { Evaluation } from "../../../src/core/verdicts/evaluation.js";
import type { CheckResult } from "../../../src/core/verdicts/result.js";
import { registry } from "../../../src/core/schemas/schema-registry.js";
import { parseJsonLines, TranscriptBus, type NewEvent, type TranscriptEvent } from "../../../src/core/transcript/transcript.js";
import { OPENAI_CHAT_FAULTS, OPENAI_CHAT_FRAMINGS, OPENAI_CHAT_SCENARIOS } from "../../../src/mocks/openai-chat/index.js";
import {
  CLIENT_CASES,
  createClientCaseRoutes,
  EXPECTED_NOTE,
  expectedResult,
  findCase,
  OPENAI_CHAT_CLIENT_CHECKS,
  NO_RESULTS_REASON,
  QUIRKS,
  parseAdapterResult,
  wireCases,
  type AdapterResult,
  type WireCase,
} from "../../../src/suites/openai-chat/client/index.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";

const DIR = fileURLToPath(new URL("../../../fixtures/openai-chat/transcripts/client/", import.meta.url));
/** The quirk faults of the contract's tolerance table (§8.10), in its order. */
const TOLERANCE_TABLE = [
  "tool-index-missing",
  "parallel-same-index",
  "tool-id-missing",
  "tool-id-changes",
  "tool-id-repeated",
  "tool-name-repeated",
  "tool-name-late",
  "tool-type-missing",
  "arguments-object",
  "arguments-cumulative",
  "arguments-repeated-at-end",
  "arguments-placeholder-first",
  "no-arg-empty-string",
  "content-with-tool-call",
  "parallel-interleaved",
  "stop-instead-of-tool-calls",
  "missing-finish-reason",
  "no-done",
  "missing-role",
  "role-empty-string",
  "usage-every-chunk",
  "usage-choices-null",
  "keepalive-as-data",
  "stream-error-vllm-object",
  "hold-open-after-done",
  "events-after-done",
];
const ctx: CheckContext = {
  protocol: "openai-chat",
  profile: DEFAULT_PROFILE,
  params: { catalogue: "seed" },
  validate: (message, value) => registry.validate("openai-chat", message, value),
};

function judge(events: TranscriptEvent[], context: CheckContext = ctx): Record<string, CheckResult> {
  const evaluation = new Evaluation(OPENAI_CHAT_CLIENT_CHECKS, context);
  for (const e of events) evaluation.observe(e);
  return Object.fromEntries(evaluation.finish().map((r) => [r.id, r]));
}

/** Events as a bus stamps them. */
function stamped(list: NewEvent[]): TranscriptEvent[] {
  const bus = new TranscriptBus();
  const out: TranscriptEvent[] = [];
  bus.subscribe((e) => out.push(e));
  for (const e of list) bus.emit(e);
  return out;
}

/** The case's own request, as the mock records it: the kit judges a report only after it. */
function asked(id: string): NewEvent {
  const path = `/v1${wireCases().find((w) => w.id === id)?.path ?? `/chat/completions?case=${id}`}`;
  return { kind: "http-request", probe: "client", exchange: `c-${id}`, label: "chat-completions", method: "POST", url: `http://127.0.0.1${path}`, path, headers: {}, meta: {} };
}

const fixture = (file: string) => parseJsonLines(readFileSync(join(DIR, file), "utf8"));

describe("client check catalogue", () => {
  it("has every client-side id of contract §4, with its level", () => {
    const levels = Object.fromEntries(OPENAI_CHAT_CLIENT_CHECKS.map((c) => [c.id.replace("openai-chat/", ""), c.level]));
    expect(levels).toEqual({
      "client/request-schema": "MUST",
      "client/auth-header": "SHOULD",
      "client/options-consistent": "MUST",
      "client/tools-well-formed": "MUST",
      "client/tools-match-catalogue": "MUST",
      "client/tool-results-answer-calls": "MUST",
      "client/all-calls-answered": "MUST",
      "client/tool-call-ids-unique": "MUST",
      "client/arguments-strings": "MUST",
      "client/history-matches-sent": "SHOULD",
      "client/catalogue-coverage": "INFO",
      "client/finishes-after-done": "SHOULD",
      "client-parse/split-chunks": "MUST",
      "client-parse/sse-variants": "SHOULD",
      "client-parse/termination": "SHOULD",
      "client-parse/tool-call-assembly": "MUST",
      "client-parse/usage-chunk": "MUST",
      "client-parse/error-surfaced": "MUST",
      "client-parse/quirk-tolerance": "INFO",
    });
    for (const c of OPENAI_CHAT_CLIENT_CHECKS) {
      expect(c.side).toBe("client");
      expect(c.ref.seed).toBe("001_ba8f1763064c3ebc.txt");
    }
  });

  it("is the client half of the openaiChat ProtocolDef", () => {
    expect(openaiChat.checks.filter((c) => c.side === "client").map((c) => c.id)).toEqual(OPENAI_CHAT_CLIENT_CHECKS.map((c) => c.id));
  });
});

describe("client fixture transcripts", () => {
  const expected = JSON.parse(readFileSync(join(DIR, "expected.json"), "utf8")) as Record<string, Record<string, string>>;

  it("every fixture has expected verdicts, and every expectation a fixture", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".jsonl")).sort();
    expect(Object.keys(expected).sort()).toEqual(files);
  });

  it("every client/* check except the INFO report is proven by a fixture that fails it alone", () => {
    const traffic = OPENAI_CHAT_CLIENT_CHECKS.filter((c) => c.id.startsWith("openai-chat/client/") && c.level !== "INFO").map((c) => c.id);
    for (const id of traffic) {
      const alone = Object.entries(expected).filter(([, outcomes]) => {
        const failed = Object.entries(outcomes).filter(([, o]) => o === "fail").map(([k]) => k);
        return failed.length === 1 && failed[0] === id;
      });
      expect(alone.length, id).toBeGreaterThan(0);
    }
  });

  for (const [file, outcomes] of Object.entries(expected)) {
    it(`${file} gives exactly its expected outcomes`, () => {
      const results = judge(fixture(file));
      const got = Object.fromEntries(Object.keys(outcomes).map((id) => [id, results[id]?.outcome]));
      expect(got).toEqual(outcomes);
      expect(Object.keys(results).sort()).toEqual(Object.keys(outcomes).sort());
    });
  }

  it("failure messages name the offending request and value", () => {
    const s1 = judge(fixture("seed-s1-request.jsonl"))["openai-chat/client/tools-match-catalogue"]!;
    expect(s1.message).toContain('unknown property "path"');
    expect(s1.evidence[0]?.label).toBe("chat-completions");
    const differs = judge(fixture("history-differs.jsonl"))["openai-chat/client/history-matches-sent"]!;
    expect(differs.verdict).toBe("warn");
    expect(differs.message).toContain("OTHER.md");
    const prefix = judge(fixture("builtin-prefix.jsonl"))["openai-chat/client/tools-match-catalogue"]!;
    expect(prefix.message).toContain('"builtin_read_file", a near miss of the built-in "read_file"');
  });

  it("tools-match-catalogue skips with --catalogue none", () => {
    const results = judge(fixture("seed-s1-request.jsonl"), { ...ctx, params: { catalogue: "none" } });
    expect(results["openai-chat/client/tools-match-catalogue"]!.outcome).toBe("skip");
  });

  it("tools-match-catalogue does not pass when the client offers none of the catalogue's tools", () => {
    const offer = (names: string[]): NewEvent => ({
      kind: "http-request",
      probe: "client",
      exchange: "c1",
      label: "chat-completions",
      method: "POST",
      url: "http://127.0.0.1:1/v1/chat/completions",
      path: "/v1/chat/completions",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "m",
        messages: [{ role: "user", content: "hi" }],
        tools: names.map((name) => ({ type: "function", function: { name, parameters: { type: "object", properties: {} } } })),
      }),
    });
    const none = judge(stamped([offer(["Read", "Bash"])]))["openai-chat/client/tools-match-catalogue"]!;
    expect(none.outcome).toBe("incomplete");
    expect(none.message).toContain("offered none of catalogue seed's tools (offered: Read, Bash)");
    const one = judge(stamped([offer(["Read", "view_diff"])]))["openai-chat/client/tools-match-catalogue"]!;
    expect(one.outcome).toBe("pass");
  });

  it("auth-header names the scheme a client sent, never its credential", () => {
    const basic = "Basic dXNlcjpzdXBlcnNlY3JldHBhc3N3b3JkMTIzNDU2Nzg5MA==";
    const request: NewEvent = {
      kind: "http-request",
      probe: "client",
      exchange: "c1",
      label: "models",
      method: "GET",
      url: "http://127.0.0.1:1/v1/models",
      path: "/v1/models",
      headers: { authorization: basic },
    };
    const r = judge(stamped([request]))["openai-chat/client/auth-header"]!;
    expect(r.outcome).toBe("fail");
    expect(r.message).toContain('sent Authorization "Basic [redacted]"');
    expect(JSON.stringify(r)).not.toContain(basic.slice(6, 16));
  });

  it("the spec run reports the tolerance of every quirk of the table", () => {
    const r = judge(fixture("adapter-spec.jsonl"))["openai-chat/client-parse/quirk-tolerance"]!;
    expect(r.verdict).toBe("info");
    for (const q of QUIRKS) expect(r.message).toContain(`${q.fault}: `);
    expect(r.message).toContain("arguments-cumulative: breaks");
    expect(r.message).toContain("parallel-interleaved: survives");
  });
});

describe("client checks without full evidence", () => {
  it("no traffic at all: client/* incomplete (not exercised), client-parse/* skipped", () => {
    const results = judge([]);
    for (const r of Object.values(results)) {
      if (r.id.startsWith("openai-chat/client/")) expect(r.outcome, r.id).toBe("incomplete");
      else {
        expect(r.outcome, r.id).toBe("skip");
        expect(r.message).toBe(NO_RESULTS_REASON);
      }
    }
  });

  it("results for some cases only: the other checks are incomplete", async () => {
    const c = findCase("parallel-tools")!;
    const { expected: want } = await expectedResult(c);
    const results = judge(
      stamped([
        asked(c.id),
        { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: c.id, expected: want } },
        { kind: "client-result", probe: "client", case: c.id, result: want },
      ]),
    );
    expect(results["openai-chat/client-parse/tool-call-assembly"]!.outcome).toBe("incomplete");
    expect(results["openai-chat/client-parse/tool-call-assembly"]!.message).toContain("tool-read-file");
    expect(results["openai-chat/client-parse/split-chunks"]!.outcome).toBe("incomplete");
  });

  it("a wrong result fails with the rule, the case and the diff", async () => {
    const c = findCase("usage-tool")!;
    const { expected: want } = await expectedResult(c);
    const wrong: AdapterResult = { ...want, toolCalls: want.toolCalls.map((t) => ({ ...t, arguments: "{}" })) };
    const r = judge(
      stamped([
        asked(c.id),
        { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: c.id, expected: want } },
        { kind: "client-result", probe: "client", case: c.id, result: wrong },
      ]),
    )["openai-chat/client-parse/usage-chunk"]!;
    expect(r.outcome).toBe("fail");
    expect(r.verdict).toBe("fail");
    expect(r.message).toContain("neither raises an error nor loses content or calls");
    expect(r.message).toContain("Case usage-tool");
    expect(r.message).toContain("toolCalls[0].arguments differs");
    expect(r.evidence[0]?.seq).toBe(2);
  });

  it("a malformed result, or one without an expectation, fails its case", () => {
    const results = judge(
      stamped([
        asked("error-mid-stream"),
        asked("usage-text"),
        { kind: "client-result", probe: "client", case: "error-mid-stream", result: { text: 1 } },
        { kind: "client-result", probe: "client", case: "usage-text", result: { text: "", toolCalls: [], finishReason: null, outcome: "done" } },
      ]),
    );
    expect(results["openai-chat/client-parse/error-surfaced"]!.message).toContain("result.text must be a string");
    expect(results["openai-chat/client-parse/usage-chunk"]!.message).toContain("no expected result");
  });

  it("ids are compared loosely only when the kit could not learn the mock's", async () => {
    const c = findCase("tool-read-file")!;
    const { expected: want, looseIds } = await expectedResult(c);
    expect(looseIds).toBe(true);
    const renamed = { ...want, toolCalls: want.toolCalls.map((t) => ({ ...t, id: "call_other" })) };
    const verdict = (loose: boolean) =>
      judge(
        stamped([
          asked(c.id),
          { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: c.id, expected: want, ...(loose ? { looseIds: true } : {}) } },
          { kind: "client-result", probe: "client", case: c.id, result: renamed },
        ]),
      )["openai-chat/client-parse/tool-call-assembly"]!;
    expect(verdict(false).message).toContain('toolCalls[0].id: expected "call_aw000001", got "call_other"');
    expect(verdict(true).message).not.toContain("toolCalls[0].id");
  });
});

describe("robustness cases (contract §8)", () => {
  const byCheck = new Map<string, string[]>();
  for (const c of CLIENT_CASES) for (const k of c.checks) byCheck.set(k, [...(byCheck.get(k) ?? []), c.id]);
  const framingsOf = (check: string) => CLIENT_CASES.filter((c) => c.checks.includes(check as never)).map((c) => c.framing);

  it("feed every client-parse check", () => {
    expect([...byCheck.keys()].sort()).toEqual(
      OPENAI_CHAT_CLIENT_CHECKS.filter((c) => c.id.includes("client-parse/")).map((c) => c.id.split("/").pop()).sort(),
    );
  });

  it("use only the mock's scenarios, framings and faults", () => {
    const scenarios = new Set(OPENAI_CHAT_SCENARIOS.map((s) => s.name));
    const framings = new Set(OPENAI_CHAT_FRAMINGS.map((f) => f.name));
    const faults = new Set(OPENAI_CHAT_FAULTS.map((f) => f.name));
    for (const c of CLIENT_CASES) {
      expect(scenarios.has(c.scenario), c.scenario).toBe(true);
      expect(framings.has(c.framing), c.framing).toBe(true);
      if (c.fault) expect(faults.has(c.fault), c.fault).toBe(true);
    }
  });

  it("cover the variants §8 lists", () => {
    expect(framingsOf("split-chunks")).toEqual(expect.arrayContaining(["canonical", "split-1", "split-random", "split-utf8", "coalesced"]));
    expect(framingsOf("sse-variants")).toEqual(
      expect.arrayContaining(["crlf", "cr", "split-crlf", "no-space", "comments", "multiline-data", "extra-fields"]),
    );
    expect(byCheck.get("sse-variants")).toContain("slow");
    expect(framingsOf("termination").sort()).toEqual(["eof-mid-stream", "eof-no-done", "open-after-done", "trailing-after-done"]);
    const assembly = byCheck.get("tool-call-assembly")!;
    for (const s of OPENAI_CHAT_SCENARIOS.map((x) => x.name).filter((n) => n.startsWith("tool-") && n !== "tool-then-answer")) {
      // Every tool-* scenario of the seed catalogue (the other catalogues' tools are not offered).
      if (findCase(s)) expect(assembly).toContain(s);
    }
    expect(assembly.filter((id) => id.startsWith("tool-"))).toHaveLength(15);
    expect(assembly).toEqual(expect.arrayContaining(["parallel-tools", "long-tool-args", "args-1-char", "args-whole", "length-in-tool-call", "sync-tool", "loop-call", "loop-answer"]));
    expect(byCheck.get("usage-chunk")).toEqual(["usage-text", "usage-tool"]);
    expect(byCheck.get("error-surfaced")).toEqual(expect.arrayContaining(["error-mid-stream", "http-429", "unknown-model"]));
  });

  it("run every quirk fault of the tolerance table", () => {
    expect(QUIRKS.map((q) => q.fault)).toEqual(TOLERANCE_TABLE);
    expect(byCheck.get("quirk-tolerance")).toEqual(QUIRKS.map((q) => `quirk-${q.fault}`));
  });

  it("ask for the usage chunk only where usage-chunk (or a usage quirk) is judged", () => {
    for (const c of CLIENT_CASES) {
      const usage = (c.body as { stream_options?: unknown } | undefined)?.stream_options !== undefined;
      if (usage) expect(c.checks[0] === "usage-chunk" || c.fault?.startsWith("usage-"), c.id).toBe(true);
    }
  });

  it("expected results come from the scenarios", async () => {
    const get = async (id: string) => (await expectedResult(findCase(id)!)).expected;
    const text = await get("canonical-text");
    expect(text).toMatchObject({ outcome: "done", finishReason: "stop", toolCalls: [], reasoning: "" });
    expect(text.text).toContain("Hello from the agentwire mock");
    expect(await get("reasoning")).toMatchObject({ reasoning: "Let me think about this.", text: text.text });
    expect(await get("tool-read-file")).toMatchObject({ toolCalls: [{ name: "read_file", arguments: '{"filepath":"README.md"}' }], finishReason: "tool_calls" });
    expect((await get("parallel-tools")).toolCalls.map((c) => c.arguments)).toEqual(['{"filepath":"README.md"}', '{"filepath":"package.json"}']);
    expect(await get("eof-mid-stream")).toMatchObject({ outcome: "truncated", finishReason: null });
    expect(await get("error-mid-stream")).toMatchObject({ outcome: "error", error: "Upstream model failed", text: "Partial answer " });
    expect(await get("http-429")).toMatchObject({ outcome: "error", error: expect.stringContaining("Rate limit") });
    expect(await get("unknown-model")).toMatchObject({ outcome: "error", error: expect.stringContaining("agentwire-no-such-model") });
    expect((await get("usage-text")).usage).toMatchObject({ total_tokens: expect.any(Number) });
    expect((await get("canonical-text")).usage).toBeNull();
    const long = await get("long-tool-args");
    expect(long.toolCalls[0]!.arguments.length).toBeGreaterThan(16_000);
    expect((await get("length-in-tool-call")).finishReason).toBe("length");
    expect(await get("split-utf8")).toMatchObject({ text: expect.stringMatching(/é.*東京.*😀/u) });
  });

  it("the follow-up's expectation comes from the request the client sent", async () => {
    const c = findCase("loop-answer")!;
    const body = {
      model: "agentwire-mock",
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: null, tool_calls: [{ id: "call_x", type: "function", function: { name: "run_terminal_command", arguments: '{"command":"ls"}' } }] },
        { role: "tool", tool_call_id: "call_x", content: "12345" },
      ],
      tools: [],
      stream: true,
    };
    const { expected: want } = await expectedResult(c, { body: JSON.stringify(body) });
    expect(want.text).toBe("Done. I received 1 tool result(s): call_x (run_terminal_command, 5 chars).");
  });
});

describe("kit endpoints", () => {
  const setup = () => {
    const bus = new TranscriptBus();
    const events: TranscriptEvent[] = [];
    bus.subscribe((e) => events.push(e));
    return { bus, routes: createClientCaseRoutes(bus), events };
  };
  const BASE = "http://127.0.0.1:8000/v1";

  it("list the cases, follow-up turns inside their first turn", async () => {
    const { routes } = setup();
    const response = (await routes(new Request(`${BASE}/__agentwire/cases`)))!;
    expect(response.status).toBe(200);
    const { cases } = (await response.json()) as { cases: WireCase[] };
    expect(cases.map((c) => c.id)).toEqual(wireCases().map((c) => c.id));
    expect(cases.map((c) => c.id)).not.toContain("loop-answer");
    const loop = cases.find((c) => c.id === "loop-call")!;
    expect(loop.followUp).toMatchObject({ id: "loop-answer", checks: ["openai-chat/client-parse/tool-call-assembly"] });
    const split = cases.find((c) => c.id === "split-1")!;
    expect(split).toMatchObject({ method: "POST", stream: true, headers: {}, checks: ["openai-chat/client-parse/split-chunks"] });
    expect(split.path).toBe("/chat/completions?case=split-1&scenario=tool-create-new-file&framing=split-1");
    expect(split.body).toMatchObject({ model: "agentwire-mock", stream: true, tools: [{ type: "function", function: { name: "create_new_file" } }] });
    expect(cases.find((c) => c.id === "quirk-tool-id-missing")!.headers).toEqual({ "X-Agentwire-Fault": "tool-id-missing" });
    expect(cases.find((c) => c.id === "sync-tool")!.stream).toBe(false);
  });

  it("record a result after its expectation, with the live call ids, and answer 204", async () => {
    const { bus, routes, events } = setup();
    // The mock's record of the client's request for the case, as the recorder emits it.
    bus.emit({
      kind: "http-request",
      probe: "client",
      exchange: "c7",
      label: "chat-completions",
      method: "POST",
      url: `${BASE}/chat/completions?case=tool-ls`,
      path: "/v1/chat/completions?case=tool-ls&scenario=tool-ls&framing=canonical",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(wireCases().find((c) => c.id === "tool-ls")!.body),
      meta: { catalogue: "seed", expectedCalls: [{ id: "call_aw000042", name: "ls", arguments: '{"dirPath":".","recursive":false}' }] },
    });
    const result = { text: "", reasoning: "", toolCalls: [], finishReason: null, usage: null, outcome: "error", error: "x" };
    const response = (await routes(new Request(`${BASE}/__agentwire/results`, { method: "POST", body: JSON.stringify({ case: "tool-ls", result }) })))!;
    expect(response.status).toBe(204);
    expect(events.map((e) => e.kind)).toEqual(["http-request", "note", "client-result"]);
    expect(events[2]).toMatchObject({ kind: "client-result", probe: "client", case: "tool-ls", result });
    expect(events[1]).toMatchObject({
      name: EXPECTED_NOTE,
      value: { case: "tool-ls", expected: { outcome: "done", toolCalls: [{ id: "call_aw000042", name: "ls", arguments: '{"dirPath":".","recursive":false}' }] } },
    });
    expect((events[1] as { value: { looseIds?: boolean } }).value.looseIds).toBeUndefined();
  });

  it("refuse bad bodies with 400 and an ErrorResponse", async () => {
    const { routes, events } = setup();
    const post = (body: string) => routes(new Request(`${BASE}/__agentwire/results`, { method: "POST", body }));
    for (const body of ["not json", "{}", '{"case":"nope","result":{}}', '{"case":"split-1","result":{"text":"","toolCalls":[],"outcome":"maybe"}}']) {
      const r = (await post(body))!;
      expect(r.status, body).toBe(400);
      expect(typeof ((await r.json()) as { error: { message: unknown } }).error.message).toBe("string");
    }
    expect(events).toEqual([]);
  });

  it("leave other paths to the mock; answer wrong methods, unknown kit paths and preflights", async () => {
    const { routes } = setup();
    expect(await routes(new Request(`${BASE}/chat/completions`, { method: "POST", body: "{}" }))).toBeUndefined();
    expect((await routes(new Request(`${BASE}/__agentwire/cases`, { method: "POST" })))!.status).toBe(405);
    expect((await routes(new Request(`${BASE}/__agentwire/nope`)))!.status).toBe(404);
    const pre = (await routes(
      new Request(`${BASE}/__agentwire/results`, {
        method: "OPTIONS",
        headers: { origin: "http://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      }),
    ))!;
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect(pre.headers.get("access-control-allow-headers")).toBe("content-type");
  });
});

describe("openai-chat/client/history-matches-sent: a follow-up is one sent after the answer it follows", () => {
  /** A completion request at `t` whose answer (calls `planned`) ends at `endsAt`. */
  const exchange = (n: number, t: number, endsAt: number, messages: unknown[], planned: { id: string; name: string; arguments: string }[] = []): TranscriptEvent[] => {
    const ref = { probe: "client", exchange: `c${n}`, label: "chat" };
    return [
      { kind: "http-request", ...ref, method: "POST", url: "http://127.0.0.1/v1/chat/completions", path: "/v1/chat/completions", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "m", messages }), meta: { expectedCalls: planned }, seq: 0, t },
      { kind: "http-response", ...ref, status: 200, headers: {}, seq: 0, t: endsAt },
      { kind: "body-end", ...ref, reason: "eof", bytes: 0, seq: 0, t: endsAt },
    ] as TranscriptEvent[];
  };
  const ordered = (...lists: TranscriptEvent[][]) => lists.flat().sort((a, b) => a.t - b.t).map((e, seq) => ({ ...e, seq }));
  const call = { id: "call_1", name: "read_file", arguments: '{"filepath":"a.txt"}' };
  /** Another conversation's follow-up: tool results for a call the mock did not send in this run. */
  const other = [
    { role: "user", content: "hi" },
    { role: "assistant", content: null, tool_calls: [{ id: "call_x", type: "function", function: { name: "ls", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "call_x", content: "." },
  ];
  const verdict = (events: TranscriptEvent[]) => judge(events)["openai-chat/client/history-matches-sent"]!;

  it("a request ending with tool results that arrives right after an answer with calls may have crossed it: not judged", () => {
    const r = verdict(ordered(exchange(1, 0, 100, [{ role: "user", content: "read" }], [call]), exchange(2, 103, 110, other)));
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringMatching(/echoes none of exchange c1's calls, arrived within 250 ms/)]);
  });

  it("a follow-up to another conversation's answer is not held to the last answer", () => {
    const x = { id: "call_x", name: "ls", arguments: "{}" };
    const events = ordered(exchange(1, 0, 50, [{ role: "user", content: "hi" }], [x]), exchange(2, 60, 100, [{ role: "user", content: "read" }], [call]), exchange(3, 600, 610, other));
    expect(verdict(events).outcome).toBe("pass");
  });

  it("well after the answer, tool results to other calls are calls lost or renamed: fails", () => {
    const r = verdict(ordered(exchange(1, 0, 100, [{ role: "user", content: "read" }], [call]), exchange(2, 600, 610, other)));
    expect([r.outcome, r.actual]).toEqual(["fail", expect.stringMatching(/follows up with calls \[call_x\] where the mock sent \[call_1 \(read_file\)\]/)]);
  });
});

describe("openai-chat/client/tools-well-formed: each parameters compiles on its own, in the dialect it names", () => {
  const offer = (n: number, parameters: unknown): NewEvent => ({
    kind: "http-request",
    probe: "client",
    exchange: `c${n}`,
    label: "chat-completions",
    method: "POST",
    url: "http://127.0.0.1:1/v1/chat/completions",
    path: "/v1/chat/completions",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "weather_get", parameters } }] }),
  });
  const verdict = (...parameters: unknown[]) => judge(stamped(parameters.map((p, i) => offer(i, p))))["openai-chat/client/tools-well-formed"]!;
  const city = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

  it("accepts the common meta-schema URIs", () => {
    for (const uri of [
      "http://json-schema.org/draft-04/schema#",
      "http://json-schema.org/draft-06/schema#",
      "http://json-schema.org/draft-07/schema#",
      "http://json-schema.org/draft-07/schema",
      "https://json-schema.org/draft/2019-09/schema",
      "https://json-schema.org/draft/2020-12/schema",
    ]) {
      const r = verdict({ $schema: uri, ...city });
      expect([uri, r.outcome, r.message]).toEqual([uri, "pass", expect.any(String)]);
    }
  });

  it("reads each dialect's own keywords: draft-04 boolean exclusiveMaximum, draft-07 tuple items", () => {
    expect(verdict({ $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "number", maximum: 3, exclusiveMaximum: true } } }).outcome).toBe("pass");
    expect(verdict({ $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { p: { type: "array", items: [{ type: "number" }, { type: "number" }] } } }).outcome).toBe("pass");
    // 2020-12 spells tuples prefixItems: an array items is not 2020-12.
    expect(verdict({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", properties: { p: { type: "array", items: [{ type: "number" }] } } }).outcome).toBe("fail");
  });

  it("a schema with an $id compiles on every request that resends it, and distinct ones never clash", () => {
    const withId = { $id: "https://example.com/weather.json", ...city };
    expect(verdict(withId, withId, withId).outcome).toBe("pass");
    const many = Array.from({ length: 300 }, (_, i) => ({ $id: `https://example.com/t${i % 7}.json`, ...city, description: `v${i}` }));
    expect(verdict(...many).outcome).toBe("pass");
  });

  it("a schema that is invalid in its dialect, or names an unresolvable $ref, still fails", () => {
    for (const bad of [
      { type: "object", properties: { city: { type: "strng" } } },
      { $schema: "http://json-schema.org/draft-07/schema#", type: "object", required: "city" },
      { $schema: 7, type: "object" },
      { type: "object", properties: { city: { $ref: "#/$defs/missing" } } },
    ]) {
      const r = verdict(bad);
      expect([JSON.stringify(bad), r.outcome]).toEqual([JSON.stringify(bad), "fail"]);
      expect(r.message).toContain("parameters do not compile");
    }
  });
});

describe("openai-chat/client/request-schema: null where OpenAI's API accepts null is the same as absent", () => {
  const request = (body: Record<string, unknown>): NewEvent => ({
    kind: "http-request",
    probe: "client",
    exchange: "c1",
    label: "chat-completions",
    method: "POST",
    url: "http://127.0.0.1:1/v1/chat/completions",
    path: "/v1/chat/completions",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }], ...body }),
  });
  const results = (body: Record<string, unknown>) => judge(stamped([request(body)]));
  const nulls = Object.fromEntries(
    ["temperature", "top_p", "max_tokens", "max_completion_tokens", "n", "seed", "stop", "stream", "stream_options", "presence_penalty", "frequency_penalty", "user"].map((k) => [k, null]),
  );

  it("passes the optional fields as null, with and without tools", () => {
    for (const body of [nulls, { ...nulls, tools: null, tool_choice: null }, { ...nulls, tools: [{ type: "function", function: { name: "view_diff" } }], tool_choice: null }]) {
      const r = results(body);
      expect([r["openai-chat/client/request-schema"]!.outcome, r["openai-chat/client/request-schema"]!.message]).toEqual(["pass", expect.any(String)]);
      expect(r["openai-chat/client/options-consistent"]!.outcome).toBe("pass");
      expect(r["openai-chat/client/tools-well-formed"]!.outcome).not.toBe("fail");
    }
  });

  it("still fails a wrong type, and parallel_tool_calls: null, which OpenAI answers with 400", () => {
    expect(results({ temperature: "hot" })["openai-chat/client/request-schema"]!.outcome).toBe("fail");
    const r = results({ tools: [{ type: "function", function: { name: "view_diff" } }], parallel_tool_calls: null })["openai-chat/client/request-schema"]!;
    expect([r.outcome, r.message]).toEqual(["fail", expect.stringContaining("/parallel_tool_calls")]);
  });
});

describe("client-parse: an optional field the client leaves out is not compared", () => {
  /** The verdicts for results of `cases`, each the expected result changed by `change`. */
  async function verdicts(cases: string[], change: (r: AdapterResult) => Record<string, unknown>): Promise<Record<string, CheckResult>> {
    const events: NewEvent[] = [];
    for (const id of cases) {
      const c = findCase(id)!;
      const { expected: want } = await expectedResult(c);
      events.push(asked(c.id));
      events.push({ kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: c.id, expected: want } });
      events.push({ kind: "client-result", probe: "client", case: c.id, result: change(want) });
    }
    return judge(stamped(events));
  }
  const omit = (...keys: string[]) => (r: AdapterResult) => Object.fromEntries(Object.entries(r).filter(([k]) => !keys.includes(k)));

  it("usage, reasoning and finishReason left out: the cases pass on what was reported, and say what was not compared", async () => {
    const r = await verdicts(["usage-text", "usage-tool", "sync-tool", "reasoning"], omit("usage", "reasoning", "finishReason"));
    for (const id of ["usage-chunk", "tool-call-assembly", "split-chunks"]) {
      const check = r[`openai-chat/client-parse/${id}`]!;
      // The other cases of the check were not reported: incomplete, but no failure.
      expect([id, check.outcome]).toEqual([id, id === "usage-chunk" ? "pass" : "incomplete"]);
    }
    expect(r["openai-chat/client-parse/usage-chunk"]!.message).toContain("not compared, the client did not report them: finishReason, usage");
  });

  it("every case of a check reported without usage: pass, naming usage as not compared", async () => {
    const ids = CLIENT_CASES.filter((c) => c.checks.includes("tool-call-assembly")).map((c) => c.id);
    const r = (await verdicts(ids, omit("usage")))["openai-chat/client-parse/tool-call-assembly"]!;
    expect([r.outcome, r.message]).toEqual(["pass", expect.stringContaining("(not compared, the client did not report them: usage)")]);
  });

  it("a reported value is still compared: null usage, another usage, another finish reason, empty reasoning", async () => {
    const usage = await verdicts(["usage-text"], (x) => ({ ...x, usage: null }));
    expect(usage["openai-chat/client-parse/usage-chunk"]!.message).toContain("usage: expected");
    const other = await verdicts(["usage-tool"], (x) => ({ ...x, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }));
    expect(other["openai-chat/client-parse/usage-chunk"]!.outcome).toBe("fail");
    const finish = await verdicts(["usage-text"], (x) => ({ ...x, finishReason: "length" }));
    expect(finish["openai-chat/client-parse/usage-chunk"]!.message).toContain('finishReason: expected "stop", got "length"');
    const reasoning = await verdicts(["reasoning"], (x) => ({ ...x, reasoning: "" }));
    expect(reasoning["openai-chat/client-parse/split-chunks"]!.message).toContain("reasoning differs");
  });

  it("parseAdapterResult keeps an omitted field absent and a reported null as null", () => {
    const base = { text: "t", toolCalls: [], outcome: "done" };
    const omitted = parseAdapterResult(base);
    expect(omitted.ok && Object.keys(omitted.result).sort()).toEqual(["outcome", "text", "toolCalls"]);
    const nulls = parseAdapterResult({ ...base, finishReason: null, usage: null, reasoning: "" });
    expect(nulls.ok && nulls.result).toMatchObject({ finishReason: null, usage: null, reasoning: "" });
  });
});
