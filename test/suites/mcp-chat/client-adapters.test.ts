/**
 * The client-parse adapters: unit behaviour on hand-made byte streams, then each adapter run over
 * every robustness case against the real mock (in-process, over HTTP), judged by the client
 * checks. Each defect adapter must fail exactly the checks its defect is about.
 */
import { describe, expect, it } from "vitest";
import { startClientSession } from "../../../src/core/run/runner.js";
import { quickMock } from "../../helpers/quick-pacing.js";
import { mcpChat } from "../../../src/suites/mcp-chat/index.js";
import { mcpChatAdapters, runMcpChatCases, type AdapterResult, type McpChatAdapter } from "../../../src/adapters.js";

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

const ev = (o: object) => `data: ${JSON.stringify(o)}\n\n`;
const WEATHER = [
  ev({ type: "tool_start", id: "tc-1", name: "get_weather", args: { city: "Paris" } }),
  ev({ type: "tool_end", id: "tc-1", name: "get_weather" }),
  ev({ type: "text", content: "It is 18°C " }),
  ev({ type: "text", content: "😀 ok" }),
].join("");
const WEATHER_RESULT: AdapterResult = {
  text: "It is 18°C 😀 ok",
  tools: [{ id: "tc-1", name: "get_weather", args: { city: "Paris" }, ended: true }],
  outcome: "done",
};

function bytewise(s: string): Uint8Array[] {
  return Array.from(enc.encode(s), (b) => new Uint8Array([b]));
}

describe("spec adapter", () => {
  const spec = mcpChatAdapters.spec!;

  it("assembles the canonical stream", async () => {
    expect(await spec(streamOf([WEATHER, "data: [DONE]\n\n"]))).toEqual(WEATHER_RESULT);
  });

  it("gives the same result byte by byte (split UTF-8 included)", async () => {
    expect(await spec(streamOf(bytewise(WEATHER + "data: [DONE]\n\n")))).toEqual(WEATHER_RESULT);
  });

  it("takes a CR at the very end of the body as a line end", async () => {
    const cr = (WEATHER + "data: [DONE]\n\n").replace(/\n/g, "\r");
    expect(await spec(streamOf([cr]))).toEqual(WEATHER_RESULT);
  });

  it("discards a last event without its blank line: truncated", async () => {
    expect(await spec(streamOf([WEATHER, "data: [DONE]\n"]))).toEqual({ ...WEATHER_RESULT, outcome: "truncated" });
  });

  it("stops at [DONE] and cancels a body that stays open", async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode(WEATHER + "data: [DONE]\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await spec(new Response(body))).toEqual(WEATHER_RESULT);
    expect(cancelled).toBe(true);
  });

  it("reports [ERROR] trimmed, and a non-2xx answer with its detail", async () => {
    expect(await spec(streamOf(["data: [ERROR]  boom \n\n"]))).toEqual({ text: "", tools: [], outcome: "error", error: "boom" });
    const r409 = new Response(JSON.stringify({ detail: "Not connected" }), { status: 409, statusText: "Conflict" });
    expect(await spec(r409)).toEqual({ text: "", tools: [], outcome: "error", error: "Not connected" });
  });

  it("ignores unknown types and non-JSON payloads", async () => {
    const result = await spec(streamOf(['data: {"type": "status"}\n\n', "data: Thinking...\n\n", WEATHER, "data: [DONE]\n\n"]));
    expect(result).toEqual(WEATHER_RESULT);
  });
});

describe("naive-line-splitter adapter", () => {
  const naive = mcpChatAdapters["naive-line-splitter"]!;

  it("handles the canonical stream in one read per event", async () => {
    const events = WEATHER.split(/(?<=\n\n)/);
    expect(await naive(streamOf([...events, "data: [DONE]\n\n"]))).toEqual(WEATHER_RESULT);
  });

  it("breaks on reads that cut lines and characters", async () => {
    const result = await naive(streamOf(bytewise(WEATHER + "data: [DONE]\n\n")));
    expect(result).not.toEqual(WEATHER_RESULT);
  });

  it("counts EOF as success, shows statusText, keeps [ERROR]'s space, renders non-JSON", async () => {
    expect((await naive(streamOf([WEATHER]))).outcome).toBe("done");
    const r409 = new Response(JSON.stringify({ detail: "Not connected" }), { status: 409, statusText: "Conflict" });
    expect(await naive(r409)).toEqual({ text: "", tools: [], outcome: "error", error: "Conflict" });
    expect((await naive(streamOf(["data: [ERROR] boom\n\n"]))).error).toBe(" boom");
    expect((await naive(streamOf(["data: Thinking...\n\n", "data: [DONE]\n\n"]))).text).toBe("Thinking...");
  });
});

describe("defect adapters differ from spec in one place", () => {
  const parallel = [
    ev({ type: "tool_start", id: "tc-1", name: "get_weather", args: { city: "Paris" } }),
    ev({ type: "tool_start", id: "tc-2", name: "get_weather", args: { city: "Rome" } }),
    ev({ type: "tool_end", id: "tc-2", name: "get_weather" }),
    "data: [DONE]\n\n",
  ];

  it("match-by-name ends the wrong card", async () => {
    const spec = await mcpChatAdapters.spec!(streamOf(parallel));
    const byName = await mcpChatAdapters["match-by-name"]!(streamOf(parallel));
    expect(spec.tools.map((t) => t.ended)).toEqual([false, true]);
    expect(byName.tools.map((t) => t.ended)).toEqual([true, false]);
  });

  it("wait-for-eof counts what follows [DONE]", async () => {
    const result = await mcpChatAdapters["wait-for-eof"]!(streamOf([WEATHER, "data: [DONE]\n\n", ev({ type: "text", content: "!" })]));
    expect(result).toEqual({ ...WEATHER_RESULT, text: WEATHER_RESULT.text + "!" });
  });

  it("error-as-text shows [ERROR] as text", async () => {
    const result = await mcpChatAdapters["error-as-text"]!(streamOf(["data: [ERROR] boom\n\n"]));
    expect(result.text).toBe("[ERROR] boom");
    expect(result.outcome).not.toBe("error");
  });
});

// ---------------------------------------------------------------------------------------------
// Every adapter over every case, against the mock.

/**
 * Quick timing; a gap between split writes so each arrives as its own read over TCP; the held
 * stream of open-after-done (and its case deadline) scaled down. No cap over the case deadlines:
 * the split cases need their full deadline on a loaded machine.
 */
const MOCK = quickMock("mcp-chat", { firstEventDelay: 0, toolDuration: 0, eventDelay: 2, chunkGap: 1 });

const NAIVE_FAILS = ["split-chunks", "utf8-split", "sse-variants", "truncation-detected", "http-error-detail", "unexpected-payloads"];
const EXPECTED_FAILS: Record<string, string[]> = {
  spec: [],
  "naive-line-splitter": NAIVE_FAILS,
  "match-by-name": ["tool-matching"],
  "wait-for-eof": ["done-terminates"],
  "error-as-text": ["error-surfaced"],
};

describe.concurrent("adapters against the mock", () => {
  for (const [name, fails] of Object.entries(EXPECTED_FAILS)) {
    it(`${name} fails exactly ${fails.length ? fails.join(", ") : "nothing"}`, async () => {
      const session = await startClientSession(mcpChat, { mock: MOCK });
      let runError: unknown;
      try {
        await runMcpChatCases(session.url, mcpChatAdapters[name]!);
      } catch (e) {
        runError = e;
      }
      const run = await session.finish();
      expect(runError).toBeUndefined();
      const byId = Object.fromEntries(run.checks.map((c) => [c.id, c]));
      const failed = run.checks.filter((c) => c.outcome !== "pass").map((c) => c.id);
      expect(failed.sort(), JSON.stringify(run.checks.filter((c) => c.outcome !== "pass").map((c) => [c.id, c.message]), null, 1)).toEqual(
        fails.map((f) => `mcp-chat/client-parse/${f}`).sort(),
      );
      for (const f of fails) expect(byId[`mcp-chat/client-parse/${f}`]!.outcome).toBe("fail");
    });
  }
});

describe("client-parse/done-terminates judges when the client finished", () => {
  /**
   * A harness of its own, with no deadline: it runs the two done-terminates cases, reading
   * open-after-done through `openAdapter` until that adapter returns, and reports both results.
   * The held stream is short here (time scale 0.02: 600 ms), so a wait for its end stays quick.
   */
  const harness = async (openAdapter: McpChatAdapter) => {
    const session = await startClientSession(mcpChat, { mock: quickMock("mcp-chat", { firstEventDelay: 0, toolDuration: 0, eventDelay: 2, timeScale: 0.02 }) });
    const base = session.url;
    const json = { "content-type": "application/json" };
    await (await fetch(`${base}/connect/weather`, { method: "POST" })).arrayBuffer();
    const { cases } = (await (await fetch(`${base}/__agentwire/cases`)).json()) as { cases: { id: string; path: string; body: unknown }[] };
    for (const id of ["open-after-done", "trailing-after-done"]) {
      const c = cases.find((x) => x.id === id)!;
      const response = await fetch(`${base}${c.path}`, { method: "POST", headers: json, body: JSON.stringify(c.body) });
      const result = await (id === "open-after-done" ? openAdapter : mcpChatAdapters.spec!)(response);
      await (await fetch(`${base}/__agentwire/results`, { method: "POST", headers: json, body: JSON.stringify({ case: id, result }) })).arrayBuffer();
    }
    return (await session.finish()).checks.find((x) => x.id === "mcp-chat/client-parse/done-terminates")!;
  };

  it("a client that reads on until the mock ends the held body fails, though it reports the right result", async () => {
    const r = await harness(mcpChatAdapters["wait-for-eof"]!);
    expect([r.outcome, r.message]).toEqual(["fail", expect.stringContaining("the client was still reading when the mock ended the body")]);
    expect(r.message).toContain("Case open-after-done");
  });

  it("a client that stops at [DONE] passes", async () => {
    const r = await harness(mcpChatAdapters.spec!);
    expect([r.outcome, r.message]).toEqual(["pass", expect.any(String)]);
  });
});

describe("a result without the optional args", () => {
  it("a client that keeps no args on its cards passes every check; wrong args still fail", async () => {
    const dropArgs = (result: AdapterResult): AdapterResult => ({ ...result, tools: result.tools.map(({ args: _args, ...card }) => card) });
    const noArgs = async (response: Response) => dropArgs(await mcpChatAdapters.spec!(response));
    const wrongArgs = async (response: Response) => {
      const r = await mcpChatAdapters.spec!(response);
      return { ...r, tools: r.tools.map((t) => ({ ...t, args: { city: "Nowhere" } })) };
    };
    const run = async (adapter: (response: Response) => Promise<AdapterResult>) => {
      const session = await startClientSession(mcpChat, { mock: MOCK });
      await runMcpChatCases(session.url, adapter, { only: ["canonical", "split-1", "split-random", "coalesced", "ascii-json"] });
      return (await session.finish()).checks.find((c) => c.id === "mcp-chat/client-parse/split-chunks")!;
    };
    const omitted = await run(noArgs);
    expect([omitted.outcome, omitted.message]).toEqual(["pass", expect.any(String)]);
    const wrong = await run(wrongArgs);
    expect([wrong.outcome, wrong.message]).toEqual(["fail", expect.stringContaining('tools[0] (tc-1).args: expected {"city":"San Francisco"}, got {"city":"Nowhere"}')]);
  });
});

describe("the mock serves each case as the case intends", () => {
  const ask = async (id: string) => {
    const session = await startClientSession(mcpChat, { mock: MOCK });
    try {
      const base = session.url;
      await (await fetch(`${base}/connect/weather`, { method: "POST" })).arrayBuffer();
      const { cases } = (await (await fetch(`${base}/__agentwire/cases`)).json()) as { cases: { id: string; path: string; body: unknown }[] };
      const c = cases.find((x) => x.id === id)!;
      const response = await fetch(`${base}${c.path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(c.body) });
      return { status: response.status, text: await response.text() };
    } finally {
      await session.finish();
    }
  };

  it("http-409: a 409 {detail} while connected (per-request notConnected=http-409)", async () => {
    const { status, text } = await ask("http-409");
    expect(status).toBe(409);
    expect(JSON.parse(text)).toEqual({ detail: expect.any(String) });
  });

  it("ascii-json: non-ASCII escaped as \\u (per-request asciiJson=1)", async () => {
    const { status, text } = await ask("ascii-json");
    expect(status).toBe(200);
    expect(text).toContain("\\u00b0F");
    expect(text).not.toContain("°");
  });

  it("bad-input: 422 {detail}", async () => {
    expect((await ask("bad-input")).status).toBe(422);
  });
});
