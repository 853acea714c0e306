/**
 * The client checks on recorded transcripts (fixtures/mcp-chat/transcripts/client/, verdicts in
 * expected.json), their edge cases (no traffic, missing or malformed results), the case list
 * against contract §8, and the kit endpoints that serve cases and take results.
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
import { FRAMINGS } from "../../../src/mocks/mcp-chat/framing.js";
import { NOT_CONNECTED_MESSAGE, STREAM_ERROR_MESSAGE } from "../../../src/mocks/mcp-chat/scenarios.js";
import {
  CLIENT_CASES,
  createClientCaseRoutes,
  defaultExpectedResult,
  EXPECTED_NOTE,
  MCP_CHAT_CLIENT_CHECKS,
  NO_RESULTS_REASON,
  toWireCase,
  type WireCase,
} from "../../../src/suites/mcp-chat/client/index.js";
import { stopNote } from "../../helpers/synthetic-transcript.js";

const DIR = fileURLToPath(new URL("../../../fixtures/mcp-chat/transcripts/client/", import.meta.url));
const ctx: CheckContext = {
  protocol: "mcp-chat",
  profile: DEFAULT_PROFILE,
  params: {},
  validate: (message, value) => registry.validate("mcp-chat", message, value),
};

function judge(events: TranscriptEvent[]): Record<string, CheckResult> {
  const evaluation = new Evaluation(MCP_CHAT_CLIENT_CHECKS, ctx);
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

let requests = 0;
/** The case's own request, as the mock records it when a client asks for the case's stream. */
function asked(id: string, path = toWireCase(CLIENT_CASES.find((x) => x.id === id)!).path, body = JSON.stringify(toWireCase(CLIENT_CASES.find((x) => x.id === id)!).body)): NewEvent {
  return { kind: "http-request", probe: "client", exchange: `c${++requests}`, label: "chat-stream", method: "POST", url: `http://127.0.0.1${path}`, path, headers: { "content-type": "application/json" }, body, meta: { connected: true } };
}

describe("client fixture transcripts", () => {
  const expected = JSON.parse(readFileSync(join(DIR, "expected.json"), "utf8")) as Record<string, Record<string, string>>;

  it("every fixture has expected verdicts, and every expectation a fixture", () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith(".jsonl")).sort();
    expect(Object.keys(expected).sort()).toEqual(files);
    for (const f of ["chat-text-plain.jsonl", "chat-msg-field.jsonl", "connect-unknown-id.jsonl", "chat-before-connect.jsonl", "clean.jsonl"]) {
      expect(files).toContain(f);
    }
  });

  for (const [file, outcomes] of Object.entries(expected)) {
    it(`${file} gives exactly its expected outcomes`, () => {
      const results = judge(parseJsonLines(readFileSync(join(DIR, file), "utf8")));
      const got = Object.fromEntries(Object.keys(outcomes).map((id) => [id, results[id]?.outcome]));
      expect(got).toEqual(outcomes);
      expect(Object.keys(results).sort()).toEqual(Object.keys(outcomes).sort());
    });
  }

  it("failure messages name the offending request", () => {
    const results = judge(parseJsonLines(readFileSync(join(DIR, "connect-unknown-id.jsonl"), "utf8")));
    const r = results["mcp-chat/client/connect-known-id"]!;
    expect(r.message).toContain('"nope"');
    expect(r.evidence[0]?.label).toBe("connect");
  });
});

describe("client checks without full evidence", () => {
  it("no traffic at all: client/* incomplete (not exercised), client-parse/* skipped", () => {
    const results = judge([]);
    for (const r of Object.values(results)) {
      if (r.id.startsWith("mcp-chat/client/")) expect(r.outcome, r.id).toBe("incomplete");
      else {
        expect(r.outcome, r.id).toBe("skip");
        expect(r.message).toBe(NO_RESULTS_REASON);
      }
    }
  });

  it("results for some cases only: the other checks are incomplete", async () => {
    const c = CLIENT_CASES.find((x) => x.id === "parallel-tools")!;
    const want = await defaultExpectedResult(c);
    const results = judge(
      stamped([
        asked(c.id),
        { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: c.id, expected: want } },
        { kind: "client-result", probe: "client", case: c.id, result: want },
      ]),
    );
    expect(results["mcp-chat/client-parse/tool-matching"]!.outcome).toBe("pass");
    expect(results["mcp-chat/client-parse/split-chunks"]!.outcome).toBe("incomplete");
    expect(results["mcp-chat/client-parse/split-chunks"]!.message).toContain("split-1");
  });

  it("a wrong result fails with the rule, the case and the diff", async () => {
    const c = CLIENT_CASES.find((x) => x.id === "parallel-tools")!;
    const want = await defaultExpectedResult(c);
    const wrong = { ...want, tools: want.tools.map((t, i) => ({ ...t, ended: i === 0 })) };
    const r = judge(
      stamped([
        asked(c.id),
        { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: c.id, expected: want } },
        { kind: "client-result", probe: "client", case: c.id, result: wrong },
      ]),
    )["mcp-chat/client-parse/tool-matching"]!;
    expect(r.outcome).toBe("fail");
    expect(r.verdict).toBe("fail");
    expect(r.message).toContain("tool_end completes the card with the same id");
    expect(r.message).toContain("Case parallel-tools");
    expect(r.message).toContain("tools[1] (tc-2).ended: expected true, got false");
    expect(r.expected).toContain("tc-2:get_weather");
    expect(r.actual).toContain("tc-2:get_weather(open)");
    expect(r.evidence[0]?.seq).toBe(2);
  });

  it("a wrong result reported once the kit stopped the run is not judged; a right one holds, one before the stop fails", async () => {
    const c = CLIENT_CASES.find((x) => x.id === "parallel-tools")!;
    const want = await defaultExpectedResult(c);
    // What a client stopped mid-case may report: the tools it had so far, none ended.
    const cut = { ...want, tools: want.tools.map((t) => ({ ...t, ended: false })) };
    const run = (result: unknown, stopFirst: boolean) =>
      judge(
        stamped([
          asked(c.id),
          { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: c.id, expected: want } },
          ...(stopFirst ? [stopNote("Ctrl-C")] : []),
          { kind: "client-result", probe: "client", case: c.id, result },
          ...(stopFirst ? [] : [stopNote("Ctrl-C")]),
        ]),
      )["mcp-chat/client-parse/tool-matching"]!;
    const after = run(cut, true);
    expect([after.outcome, after.message]).toEqual(["incomplete", expect.stringContaining("case(s) parallel-tools reported a result other than the expected one after the kit stopped the run (Ctrl-C)")]);
    expect(after.evidence[0]?.note).toContain("case parallel-tools");
    expect(run(want, true).outcome).toBe("pass");
    expect(run(cut, false).outcome).toBe("fail");
    // With no result at all the client is still a black box; cases not reported say the run was stopped before them.
    expect(judge(stamped([stopNote("SIGTERM")]))["mcp-chat/client-parse/tool-matching"]!.outcome).toBe("skip");
    const some = judge(
      stamped([
        asked(c.id),
        { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: c.id, expected: want } },
        { kind: "client-result", probe: "client", case: c.id, result: want },
        stopNote("SIGTERM"),
      ]),
    )["mcp-chat/client-parse/split-chunks"]!;
    expect([some.outcome, some.message]).toEqual(["incomplete", expect.stringMatching(/no result reported for case\(s\) .*split-1.* before the kit stopped the run \(SIGTERM\)/)]);
  });

  it("a malformed result, or one without an expectation, fails its case", () => {
    const results = judge(
      stamped([
        asked("stream-error"),
        asked("parallel-tools"),
        { kind: "client-result", probe: "client", case: "stream-error", result: { text: 1 } },
        { kind: "client-result", probe: "client", case: "parallel-tools", result: { text: "", tools: [], outcome: "done" } },
      ]),
    );
    expect(results["mcp-chat/client-parse/error-surfaced"]!.message).toContain("result.text must be a string");
    expect(results["mcp-chat/client-parse/tool-matching"]!.message).toContain("no expected result");
  });

  it("a case whose stream the mock never served is not judged from the report, whatever it says", async () => {
    const events = async (ids: string[], path?: (id: string) => string) =>
      stamped(
        (
          await Promise.all(
            ids.map(async (id) => {
              const want = await defaultExpectedResult(CLIENT_CASES.find((x) => x.id === id)!);
              return [
                asked(id, path?.(id)),
                { kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: id, expected: want } },
                { kind: "client-result", probe: "client", case: id, result: want },
              ] as NewEvent[];
            }),
          )
        ).flat(),
      );
    const ids = (check: string) => CLIENT_CASES.filter((x) => x.checks.includes(check as never)).map((x) => x.id);
    // A harness that posts every case to the plain endpoint gets the canonical stream each time.
    for (const check of ["split-chunks", "sse-variants", "done-terminates", "unexpected-payloads", "truncation-detected"]) {
      const r = judge(await events(ids(check), () => "/chat/stream"))[`mcp-chat/client-parse/${check}`]!;
      expect([r.outcome, r.message], check).toEqual(["incomplete", expect.stringContaining("reported without the mock having served the case's stream")]);
    }
    // The case named, but not its framing: still not the case's stream.
    const r = judge(await events(["split-1"], (id) => `/chat/stream?case=${id}&scenario=weather-tool`))["mcp-chat/client-parse/split-chunks"]!;
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining("split-1")]);
    // bad-input with a valid message is not the bad-input case.
    const valid = judge(stamped([asked("bad-input", undefined, '{"message":"hi"}'), { kind: "client-result", probe: "client", case: "bad-input", result: { text: "", tools: [], outcome: "done" } }]));
    expect(valid["mcp-chat/client-parse/http-error-detail"]!.message).toContain("bad-input reported without the mock having served");
    // With every case's own request recorded, the same reports are judged.
    const served = judge(await events(ids("split-chunks")))["mcp-chat/client-parse/split-chunks"]!;
    expect(served.outcome).toBe("pass");
  });

  describe("done-terminates on the held open-after-done stream", () => {
    const note = (value: Record<string, unknown>): NewEvent => ({ kind: "note", probe: "client", name: "mcp-chat/after-done", value });
    const events = async (middle: (exchange: string) => NewEvent[], after: (exchange: string) => NewEvent[] = () => []) => {
      const out: NewEvent[] = [];
      for (const id of ["open-after-done", "trailing-after-done"]) {
        const want = await defaultExpectedResult(CLIENT_CASES.find((x) => x.id === id)!);
        const request = asked(id);
        const exchange = (request as { exchange: string }).exchange;
        out.push(request);
        if (id === "open-after-done") out.push(...middle(exchange));
        out.push({ kind: "note", probe: "client", name: EXPECTED_NOTE, value: { case: id, expected: want } }, { kind: "client-result", probe: "client", case: id, result: want });
        if (id === "open-after-done") out.push(...after(exchange));
      }
      return judge(stamped(out))["mcp-chat/client-parse/done-terminates"]!;
    };

    it("the mock ending the held body before the client let go fails, whatever the client reported", async () => {
      const r = await events((x) => [note({ exchange: x, event: "done" }), note({ exchange: x, event: "closed", by: "server" })]);
      expect([r.outcome, r.message]).toEqual(["fail", expect.stringContaining("Case open-after-done: the client was still reading when the mock ended the body")]);
    });

    it("closing the connection, reporting or sending the next request while the body is held passes", async () => {
      expect((await events((x) => [note({ exchange: x, event: "done" }), note({ exchange: x, event: "closed", by: "client" })])).outcome).toBe("pass");
      // The report came first; the mock ended the body only later.
      expect((await events((x) => [note({ exchange: x, event: "done" })], (x) => [note({ exchange: x, event: "closed", by: "server" })])).outcome).toBe("pass");
      // The next case's request arrives before the report (a harness that reports at the end).
      const nextFirst = await events((x) => [note({ exchange: x, event: "done" }), asked("canonical"), note({ exchange: x, event: "closed", by: "server" })]);
      expect(nextFirst.outcome).toBe("pass");
    });

    it("held when the kit stopped the run: the mock's close and the client's after it judge nothing either way", async () => {
      // Stopping mock --check-client closes the held stream: no failure of the client.
      const mockClosed = await events((x) => [note({ exchange: x, event: "done" }), stopNote("Ctrl-C"), note({ exchange: x, event: "closed", by: "server" })]);
      expect([mockClosed.outcome, mockClosed.message]).toEqual(["incomplete", expect.stringContaining("the run ended (the kit stopped the run (Ctrl-C)")]);
      // A client the kit stopped lets go of the stream as it ends: that is no pass either.
      const ended = await events((x) => [note({ exchange: x, event: "done" }), stopNote(), note({ exchange: x, event: "closed", by: "client" })]);
      expect(ended.outcome).toBe("incomplete");
      // The mock had ended the body before the stop: that still fails.
      const before = await events((x) => [note({ exchange: x, event: "done" }), note({ exchange: x, event: "closed", by: "server" }), stopNote()]);
      expect(before.outcome).toBe("fail");
    });

    it("without the mock's notes on the held stream, a right report is not a pass", async () => {
      const r = await events(() => []);
      expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining("case open-after-done: the mock noted no [DONE] going out on the case's held stream")]);
    });
  });

  it("a request the kit asked to be invalid does not count against chat-request", () => {
    const request = (path: string, body: string): NewEvent => ({
      kind: "http-request",
      probe: "client",
      exchange: "c1",
      label: "chat-stream",
      method: "POST",
      url: `http://127.0.0.1${path}`,
      path,
      headers: { "content-type": "application/json" },
      body,
      meta: { connected: true },
    });
    const results = judge(
      stamped([request("/chat/stream?case=bad-input&scenario=weather-tool", '{"message":42}'), request("/chat/stream", '{"message":"hi"}')]),
    );
    expect(results["mcp-chat/client/chat-request"]!.outcome).toBe("pass");
    const unasked = judge(stamped([request("/chat/stream?case=split-1", '{"message":42}')]));
    expect(unasked["mcp-chat/client/chat-request"]!.outcome).toBe("fail");
  });
});

describe("mcp-chat/client/connect-before-chat across the wire", () => {
  /** A request at `t` with the mock's connection state when it arrived, and its answer at `answeredAt`. */
  const exchange = (n: number, label: string, method: string, path: string, t: number, connected: boolean, answeredAt?: number): TranscriptEvent[] => {
    const ref = { probe: "client", exchange: `c${n}`, label };
    const out: TranscriptEvent[] = [{ kind: "http-request", ...ref, method, url: `http://127.0.0.1${path}`, path, headers: { "content-type": "application/json" }, ...(label.startsWith("chat") ? { body: '{"message":"hi"}' } : {}), meta: { connected }, seq: 0, t } as TranscriptEvent];
    if (answeredAt !== undefined) out.push({ kind: "http-response", ...ref, status: 200, headers: {}, seq: 0, t: answeredAt } as TranscriptEvent);
    return out;
  };
  const ordered = (...lists: TranscriptEvent[][]) => lists.flat().sort((a, b) => a.t - b.t).map((e, seq) => ({ ...e, seq }));
  const verdict = (events: TranscriptEvent[]) => judge(events)["mcp-chat/client/connect-before-chat"]!;

  it("a chat sent while a connect that dropped the state was still unanswered is not judged", () => {
    // Connected at first; a connect to an unknown id (which this mock answers by dropping the state) arrives at 100,
    // answered at 104; the chat, sent before its answer came, arrives at 102 and finds the mock disconnected.
    const events = ordered(exchange(1, "connect", "POST", "/connect/nope", 100, true, 104), exchange(2, "chat-stream", "POST", "/chat/stream", 102, false, 110));
    const r = verdict(events);
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringMatching(/POST \/chat\/stream arrived within 250 ms of an update from the mock/)]);
  });

  it("long after the change was answered, or with no change at all, a chat while disconnected fails", () => {
    const late = ordered(exchange(1, "disconnect", "POST", "/disconnect", 100, true, 104), exchange(2, "chat-stream", "POST", "/chat/stream", 600, false, 610));
    expect(verdict(late).outcome).toBe("fail");
    // A disconnect made while already disconnected changed nothing.
    const none = ordered(exchange(1, "disconnect", "POST", "/disconnect", 100, false, 104), exchange(2, "chat-stream", "POST", "/chat/stream", 102, false, 110));
    expect(verdict(none).outcome).toBe("fail");
  });
});

describe("mcp-chat/client/connect-known-id", () => {
  /** A connect the mock (or the proxy) recorded, with the listing it knew of, if any. */
  const connect = (path: string, listedIds?: string[]): NewEvent => ({
    kind: "http-request",
    probe: "client",
    exchange: "c1",
    label: "connect",
    method: "POST",
    url: `http://127.0.0.1${path}`,
    path,
    headers: {},
    meta: { connected: false, ...(listedIds ? { listedIds } : {}) },
  });
  const verdict = (...events: NewEvent[]) => judge(stamped(events))["mcp-chat/client/connect-known-id"]!;

  it("a well-encoded connect is not a pass while the listing is unknown", () => {
    const r = verdict(connect("/connect/weather"));
    expect([r.outcome, r.message]).toEqual(["incomplete", expect.stringContaining("the listing was unknown when POST /connect/weather was sent")]);
  });

  it("with the listing known, a listed id passes and an unlisted one fails", () => {
    expect(verdict(connect("/connect/weather", ["weather"])).outcome).toBe("pass");
    expect(verdict(connect("/connect/nope", ["weather"])).outcome).toBe("fail");
  });

  it("an id that is not percent-encoded fails, listing known or not", () => {
    expect(verdict(connect("/connect/a b")).outcome).toBe("fail");
    expect(verdict(connect("/connect/a b", ["a b"])).outcome).toBe("fail");
  });

  it("one connect judged on both halves passes the rule, another with the listing unknown is left out", () => {
    expect(verdict(connect("/connect/weather"), connect("/connect/weather", ["weather"])).outcome).toBe("pass");
  });
});

describe("robustness cases (contract §8)", () => {
  it("cover every check and the listed variants", () => {
    const byCheck = new Map<string, string[]>();
    for (const c of CLIENT_CASES) for (const k of c.checks) byCheck.set(k, [...(byCheck.get(k) ?? []), c.framing]);
    expect([...byCheck.keys()].sort()).toEqual(
      MCP_CHAT_CLIENT_CHECKS.filter((c) => c.id.includes("client-parse/")).map((c) => c.id.split("/").pop()).sort(),
    );
    expect(byCheck.get("split-chunks")).toEqual(expect.arrayContaining(["split-1", "split-random", "coalesced"]));
    expect(byCheck.get("sse-variants")!.sort()).toEqual(
      ["split-crlf", "cr", "mixed-eol", "no-space", "comments", "extra-fields", "multiline-data", "bom"].sort(),
    );
    expect(byCheck.get("done-terminates")!.sort()).toEqual(["open-after-done", "trailing-after-done"]);
    expect(byCheck.get("truncation-detected")!.sort()).toEqual(["eof-no-terminal", "no-final-blank"]);
    expect(byCheck.get("unexpected-payloads")!.sort()).toEqual(["non-json-data", "unknown-type"]);
    const framings = new Set(FRAMINGS.map((f) => f.name));
    for (const c of CLIENT_CASES) expect(framings.has(c.framing), c.framing).toBe(true);
  });

  it("expected results come from the scenarios", async () => {
    const get = (id: string) => defaultExpectedResult(CLIENT_CASES.find((c) => c.id === id)!);
    const weather = await get("canonical");
    expect(weather).toMatchObject({ outcome: "done", text: "The current weather in San Francisco is 65°F and sunny." });
    expect(weather.tools).toEqual([{ id: "tc-1", name: "get_weather", args: { city: "San Francisco" }, ended: true }]);
    expect(await get("ascii-json")).toEqual(weather);
    expect(await get("eof-no-terminal")).toEqual({ ...weather, outcome: "truncated" });
    expect(await get("stream-error")).toMatchObject({ outcome: "error", error: STREAM_ERROR_MESSAGE, text: "Partial " });
    expect(await get("not-connected")).toEqual({ text: "", tools: [], outcome: "error", error: NOT_CONNECTED_MESSAGE });
    expect(await get("http-409")).toEqual({ text: "", tools: [], outcome: "error", error: NOT_CONNECTED_MESSAGE });
    expect((await get("bad-input")).outcome).toBe("error");
    expect((await get("utf8-split")).text).toMatch(/é.*東京.*😀/u);
  });
});

describe("kit endpoints", () => {
  const setup = () => {
    const bus = new TranscriptBus();
    const events: TranscriptEvent[] = [];
    bus.subscribe((e) => events.push(e));
    return { routes: createClientCaseRoutes(bus), events };
  };
  const BASE = "http://127.0.0.1:8000";

  it("list the cases", async () => {
    const { routes } = setup();
    const response = (await routes(new Request(`${BASE}/__agentwire/cases`)))!;
    expect(response.status).toBe(200);
    const { cases } = (await response.json()) as { cases: WireCase[] };
    expect(cases.map((c) => c.id)).toEqual(CLIENT_CASES.map((c) => c.id));
    const split = cases.find((c) => c.id === "split-1")!;
    expect(split).toMatchObject({ method: "POST", body: { message: expect.any(String) }, checks: ["mcp-chat/client-parse/split-chunks"] });
    expect(split.path).toMatch(/^\/chat\/stream\?case=split-1&scenario=weather-tool&framing=split-1$/);
  });

  it("record a result after its expectation, and answer 204", async () => {
    const { routes, events } = setup();
    const result = { text: "", tools: [], outcome: "error", error: "x" };
    const response = (await routes(
      new Request(`${BASE}/__agentwire/results`, { method: "POST", body: JSON.stringify({ case: "stream-error", result }) }),
    ))!;
    expect(response.status).toBe(204);
    expect(events.map((e) => e.kind)).toEqual(["note", "client-result"]);
    expect(events[1]).toMatchObject({ kind: "client-result", probe: "client", case: "stream-error", result });
    expect(events[0]).toMatchObject({ name: EXPECTED_NOTE, value: { case: "stream-error", expected: { outcome: "error" } } });
  });

  it("refuse bad bodies with 400 {detail}", async () => {
    const { routes, events } = setup();
    const post = (body: string) => routes(new Request(`${BASE}/__agentwire/results`, { method: "POST", body }));
    for (const body of ["not json", "{}", '{"case":"nope","result":{}}', '{"case":"split-1","result":{"text":"","tools":[],"outcome":"maybe"}}']) {
      const r = (await post(body))!;
      expect(r.status, body).toBe(400);
      expect(typeof ((await r.json()) as { detail: unknown }).detail).toBe("string");
    }
    expect(events).toEqual([]);
  });

  it("leave other paths to the mock; answer wrong methods, unknown kit paths and preflights", async () => {
    const { routes } = setup();
    expect(await routes(new Request(`${BASE}/chat/stream`, { method: "POST", body: "{}" }))).toBeUndefined();
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
