/**
 * The openai-chat client-parse adapters: unit behaviour on hand-made byte streams, then each
 * adapter run over every robustness case against the real mock (over HTTP, with the openaiChat
 * ProtocolDef), judged by the client checks. Each defect adapter must fail exactly the checks its
 * defect is about, and every adapter must leave the traffic checks green.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { renderSse } from "../../../src/core/transport/sse-framing.js";
import { startClientSession } from "../../../src/core/run/runner.js";
import type { RunResult } from "../../../src/core/verdicts/result.js";
import { openaiChat } from "../../../src/suites/openai-chat/index.js";
import { openaiChatAdapters, runOpenaiChatCases, type OpenaiChatAdapterResult } from "../../../src/adapters.js";
import { QUIRKS } from "../../../src/suites/openai-chat/client/index.js";
import { quickMock } from "../../helpers/quick-pacing.js";

const enc = new TextEncoder();

/** A response whose body arrives in exactly these pieces. */
function streamOf(pieces: (string | Uint8Array)[], init: ResponseInit = {}): Response {
  const queue = pieces.map((p) => (typeof p === "string" ? enc.encode(p) : p));
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = queue.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" }, ...init });
}

const ENV = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model: "m" };
const chunk = (delta: object, finish: string | null = null) => JSON.stringify({ ...ENV, choices: [{ index: 0, delta, finish_reason: finish }] });
const first = (index: number, id: string, name: string) => ({ index, id, type: "function", function: { name, arguments: "" } });
const frag = (index: number, args: string) => ({ index, function: { arguments: args } });
const USAGE = { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 };
const usageChunk = JSON.stringify({ ...ENV, choices: [], usage: USAGE });

/** Two parallel calls, each complete before the next, then usage and [DONE]. */
const PARALLEL = [
  chunk({ role: "assistant", content: null, tool_calls: [first(0, "call_1", "read_file")] }),
  chunk({ tool_calls: [frag(0, '{"filepath":')] }),
  chunk({ tool_calls: [frag(0, '"README.md"}')] }),
  chunk({ tool_calls: [first(1, "call_2", "read_file")] }),
  chunk({ tool_calls: [frag(1, '{"filepath":"package.json"}')] }),
  chunk({}, "tool_calls"),
  usageChunk,
  "[DONE]",
];
const PARALLEL_RESULT: OpenaiChatAdapterResult = {
  text: "",
  reasoning: "",
  toolCalls: [
    { id: "call_1", name: "read_file", arguments: '{"filepath":"README.md"}' },
    { id: "call_2", name: "read_file", arguments: '{"filepath":"package.json"}' },
  ],
  finishReason: "tool_calls",
  usage: USAGE,
  outcome: "done",
};
/** Reasoning, then text with multi-byte characters. */
const TEXT = [
  chunk({ role: "assistant", content: "" }),
  chunk({ reasoning_content: "Let me think." }),
  chunk({ content: "It is 18°C " }),
  chunk({ content: "😀 in 東京" }),
  chunk({}, "stop"),
  "[DONE]",
];
const TEXT_RESULT: OpenaiChatAdapterResult = {
  text: "It is 18°C 😀 in 東京",
  reasoning: "Let me think.",
  toolCalls: [],
  finishReason: "stop",
  usage: null,
  outcome: "done",
};

const sse = (payloads: string[], framing = "canonical") => renderSse(payloads, framing);
const bytewise = (payloads: string[]) => sse(payloads).flatMap((b) => Array.from(b, (x) => new Uint8Array([x])));

describe("spec adapter", () => {
  const spec = openaiChatAdapters.spec!;

  it("assembles parallel calls and the usage chunk", async () => {
    expect(await spec(streamOf(sse(PARALLEL)))).toEqual(PARALLEL_RESULT);
  });

  it("keeps reasoning out of the text, byte by byte (split UTF-8 included)", async () => {
    expect(await spec(streamOf(bytewise(TEXT)))).toEqual(TEXT_RESULT);
  });

  it("reads CRLF, CR-only, no-space, comments and multi-line data the same", async () => {
    for (const framing of ["crlf", "cr", "no-space", "comments", "multiline-data", "extra-fields", "split-crlf"]) {
      expect(await spec(streamOf(sse(PARALLEL, framing))), framing).toEqual(PARALLEL_RESULT);
    }
  });

  it("stops at [DONE] and cancels a body that stays open", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const b of sse(TEXT)) c.enqueue(b);
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await spec(new Response(body, { headers: { "content-type": "text/event-stream" } }))).toEqual(TEXT_RESULT);
    expect(cancelled).toBe(true);
  });

  it("accepts EOF after a finish reason, and reports EOF before one as truncated", async () => {
    expect(await spec(streamOf(sse(TEXT.slice(0, -1))))).toEqual(TEXT_RESULT);
    expect(await spec(streamOf(sse(TEXT.slice(0, 3))))).toMatchObject({ outcome: "truncated", finishReason: null, text: "It is 18°C " });
  });

  it("surfaces an in-stream error and an HTTP ErrorResponse with their messages", async () => {
    const inStream = await spec(streamOf(sse([chunk({ role: "assistant", content: "" }), chunk({ content: "Partial " }), JSON.stringify({ error: { message: "Upstream model failed", type: "server_error", code: null } })])));
    expect(inStream).toMatchObject({ outcome: "error", error: "Upstream model failed", text: "Partial " });
    const http = new Response(JSON.stringify({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }), { status: 429 });
    expect(await spec(http)).toMatchObject({ outcome: "error", error: "Rate limit reached" });
    expect(await spec(new Response("oops", { status: 502, statusText: "Bad Gateway" }))).toMatchObject({ outcome: "error", error: "HTTP 502 Bad Gateway" });
  });

  it("reads a non-streamed chat.completion", async () => {
    const body = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: null, reasoning_content: "Hmm.", tool_calls: PARALLEL_RESULT.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) }, finish_reason: "tool_calls" }],
      usage: USAGE,
    };
    expect(await spec(new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } }))).toEqual({ ...PARALLEL_RESULT, reasoning: "Hmm." });
  });

  it("follows the contract's joining rule: identity once, a new id with a name starts a call", async () => {
    const stream = [
      chunk({ role: "assistant", content: null, tool_calls: [{ ...first(0, "call_1", "read_file"), function: { name: "read_file", arguments: "{" } }] }),
      chunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "read_file", arguments: "}" } }] }),
      chunk({ tool_calls: [first(0, "call_2", "view_diff")] }),
      chunk({ tool_calls: [{ function: { arguments: "{}" } }] }),
      chunk({}, "tool_calls"),
      "[DONE]",
    ];
    const result = await spec(streamOf(sse(stream)));
    expect(result.toolCalls).toEqual([
      { id: "call_1", name: "read_file", arguments: "{}" },
      { id: "call_2", name: "view_diff", arguments: "{}" },
    ]);
  });

  it("ignores a data payload that is not JSON", async () => {
    expect(await spec(streamOf(sse([": OPENROUTER PROCESSING", ...TEXT])))).toEqual(TEXT_RESULT);
  });
});

describe("naive adapter", () => {
  const naive = openaiChatAdapters.naive!;

  it("handles one call read whole, and surfaces errors", async () => {
    const single = PARALLEL.slice(0, 3).concat(chunk({}, "tool_calls"), "[DONE]");
    expect((await naive(streamOf(sse(single)))).toolCalls).toEqual([PARALLEL_RESULT.toolCalls[0]]);
    const http = new Response(JSON.stringify({ error: { message: "nope", type: "x", code: null } }), { status: 404 });
    expect(await naive(http)).toMatchObject({ outcome: "error", error: "nope" });
  });

  it("merges parallel calls, breaks on the usage chunk, and on cut reads", async () => {
    const merged = await naive(streamOf(sse(PARALLEL.filter((p) => p !== usageChunk))));
    expect(merged.toolCalls).toEqual([{ id: "call_1call_2", name: "read_fileread_file", arguments: '{"filepath":"README.md"}{"filepath":"package.json"}' }]);
    expect((await naive(streamOf(sse(PARALLEL)))).outcome).toBe("error");
    expect(await naive(streamOf(bytewise(TEXT)))).not.toEqual(TEXT_RESULT);
  });

  it("reads on after [DONE] and takes EOF as success", async () => {
    const after = await naive(streamOf(sse([...TEXT, chunk({ content: "!" })])));
    expect(after.text).toBe(`${TEXT_RESULT.text}!`);
    expect((await naive(streamOf(sse(TEXT.slice(0, 3))))).outcome).toBe("done");
  });
});

describe("defect adapters differ from spec in one place", () => {
  it("wait-for-eof counts what follows [DONE]", async () => {
    const result = await openaiChatAdapters["wait-for-eof"]!(streamOf(sse([...TEXT, chunk({ content: "!" })])));
    expect(result).toEqual({ ...TEXT_RESULT, text: `${TEXT_RESULT.text}!` });
  });

  it("error-as-text shows the error as answer text", async () => {
    const http = new Response(JSON.stringify({ error: { message: "nope", type: "x", code: null } }), { status: 404 });
    const result = await openaiChatAdapters["error-as-text"]!(http);
    expect(result.text).toBe("nope");
    expect(result.outcome).not.toBe("error");
  });

  it("merge-tool-deltas merges parallel calls but reads the usage chunk", async () => {
    const result = await openaiChatAdapters["merge-tool-deltas"]!(streamOf(sse(PARALLEL)));
    expect(result.toolCalls).toHaveLength(1);
    expect(result.usage).toEqual(USAGE);
  });

  it("first-choice throws on the choices: [] usage chunk only", async () => {
    const adapter = openaiChatAdapters["first-choice"]!;
    expect(await adapter(streamOf(sse(TEXT)))).toEqual(TEXT_RESULT);
    expect(await adapter(streamOf(sse(PARALLEL)))).toMatchObject({ outcome: "error" });
  });
});

// ---------------------------------------------------------------------------------------------
// Every adapter over every case, against the mock.

/**
 * Quick timing, the designed waits (the `slow` scenario's 5 s, the held streams) scaled down with
 * their limits and deadlines. No cap over the case deadlines: split-1 (a byte per ms) needs its
 * full deadline on a loaded machine.
 */
const MOCK = quickMock("openai-chat");

/** client-parse/<id>, or a full id under openai-chat/ (the wire-side rule a defect also breaks). */
const EXPECTED_FAILS: Record<string, string[]> = {
  spec: [],
  // Both read to the end of the body: the mock sees them keep a held stream open after [DONE].
  naive: ["split-chunks", "sse-variants", "termination", "tool-call-assembly", "usage-chunk", "client/finishes-after-done"],
  "error-as-text": ["error-surfaced"],
  "wait-for-eof": ["termination", "client/finishes-after-done"],
  "merge-tool-deltas": ["tool-call-assembly"],
  "first-choice": ["usage-chunk"],
};

/** The run of one adapter over every case, started once: the tolerance report below reads the spec run too. */
const runs = new Map<string, Promise<{ run: RunResult; runError: unknown }>>();
function runOf(name: string) {
  let p = runs.get(name);
  if (!p) {
    p = (async () => {
      const session = await startClientSession(openaiChat, { mock: MOCK });
      let runError: unknown;
      try {
        await runOpenaiChatCases(session.url, openaiChatAdapters[name]!);
      } catch (e) {
        runError = e;
      }
      return { run: await session.finish(), runError };
    })();
    // Awaited by its test; a failure must not surface earlier as an unhandled rejection.
    p.catch(() => undefined);
    runs.set(name, p);
  }
  return p;
}

describe.concurrent("adapters against the mock", () => {
  // All runs at once: they mostly wait on the mock's pace, whatever the file's test concurrency.
  beforeAll(() => {
    for (const name of Object.keys(EXPECTED_FAILS)) void runOf(name);
  });

  it("the list of adapters is the list under test", () => {
    expect(Object.keys(openaiChatAdapters).sort()).toEqual(Object.keys(EXPECTED_FAILS).sort());
  });

  for (const [name, fails] of Object.entries(EXPECTED_FAILS)) {
    it(`${name} fails exactly ${fails.length ? fails.join(", ") : "nothing"}`, async () => {
      const { run, runError } = await runOf(name);
      expect(runError).toBeUndefined();
      const notPassed = run.checks.filter((c) => c.outcome !== "pass" && c.outcome !== "info");
      expect(
        notPassed.map((c) => c.id).sort(),
        JSON.stringify(notPassed.map((c) => [c.id, c.message]), null, 1),
      ).toEqual(fails.map((f) => (f.includes("/") ? `openai-chat/${f}` : `openai-chat/client-parse/${f}`)).sort());
      for (const c of notPassed) expect(c.outcome, c.id).toBe("fail");
      const info = run.checks.filter((c) => c.outcome === "info").map((c) => c.id).sort();
      expect(info).toEqual(["openai-chat/client-parse/quirk-tolerance", "openai-chat/client/catalogue-coverage"]);
    });
  }
});

describe("the spec adapter's tolerance report", () => {
  it("survives every quirk but the ones no reader can undo", async () => {
    // The spec run above went through every quirk case; its report is the one to read.
    const report = (await runOf("spec")).run.checks.find((c) => c.id === "openai-chat/client-parse/quirk-tolerance")!;
    expect(report.verdict).toBe("info");
    const lines = Object.fromEntries(
      report.message
        .replace(/^survives \d+ of \d+ quirk\(s\): /, "")
        .split(/; (?=[a-z-]+: )/)
        .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2).replace(/ \(.*$/s, "")]),
    );
    expect(Object.keys(lines)).toEqual(QUIRKS.map((q) => q.fault));
    // The mock never sent an id, or sent arguments that are not one JSON object: nothing to recover.
    const breaks = ["tool-id-missing", "arguments-cumulative", "arguments-repeated-at-end", "arguments-placeholder-first", "no-arg-empty-string"];
    for (const [fault, verdict] of Object.entries(lines)) expect(verdict, fault).toBe(breaks.includes(fault) ? "breaks" : "survives");
  });
});
