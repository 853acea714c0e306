import { describe, expect, it } from "vitest";
import { createMcpChatEngine, MCP_CHAT_FAULTS } from "../../../src/mocks/mcp-chat/index.js";
import { chat, connect, engine, req, sseData, status, utf8, ORIGIN, type Engine } from "./helpers.js";

/** The doc's fault table: name → check ids (short form) it must trip. */
const TABLE: Record<string, string[]> = {
  "servers-missing-path": ["servers/list-shape"],
  "servers-duplicate-id": ["servers/list-shape"],
  "servers-empty": ["servers/non-empty"],
  "connect-missing-server-name": ["connect/success-shape"],
  "connect-wrong-server-name": ["connect/matches-listing"],
  "tool-description-null": ["connect/tool-shape"],
  "connect-unknown-200": ["connect/unknown-id-4xx"],
  "connect-unknown-drops-state": ["connect/unknown-id-keeps-state"],
  "status-empty-tools": ["status/connected-shape"],
  "status-disconnected-keeps-id": ["status/disconnected-shape"],
  "multi-connection": ["state/single-connection"],
  "reconnect-409": ["state/reconnect-same-id"],
  "disconnect-no-success": ["disconnect/success-shape"],
  "disconnect-noop": ["disconnect/clears-state"],
  "disconnect-idle-404": ["disconnect/idempotent"],
  "cors-no-preflight": ["cors/preflight"],
  "cors-missing-on-stream": ["cors/allow-origin"],
  "cors-wildcard": ["cors/credentials"],
  "cors-reflect-any": ["cors/foreign-origin"],
  "sse-wrong-content-type": ["sse/content-type"],
  "sse-no-space": ["sse/data-lines-only"],
  "sse-multiline-json": ["sse/one-data-line-per-event"],
  "sse-no-final-blank": ["sse/one-data-line-per-event"],
  "sse-crlf": ["sse/lf-only"],
  "sse-non-json": ["sse/json-payload"],
  "sse-invalid-utf8": ["sse/utf8"],
  "split-events": ["sse/event-per-write"],
  "unknown-event-type": ["events/known-type"],
  "tool-args-string": ["events/schema"],
  "duplicate-tool-id": ["tools/unique-ids"],
  "tool-end-wrong-name": ["tools/end-matches-start"],
  "tool-never-ended": ["tools/all-ended-before-done"],
  "error-with-open-tool": ["tools/all-ended-before-error"],
  "tool-not-listed": ["tools/name-in-tool-list"],
  "empty-args": ["tools/call-profile"],
  "intermediate-text": ["text/final-answer-only"],
  "no-answer-text": ["text/answer-present"],
  "missing-terminal": ["terminal/required"],
  "events-after-done": ["terminal/last-event"],
  "error-then-done": ["terminal/last-event"],
  "done-variant": ["terminal/sentinel-format"],
  "error-multiline": ["terminal/sentinel-format"],
  "hold-open-after-done": ["terminal/connection-closes"],
  "buffered-stream": ["timing/streams-incrementally"],
  "chat-accepts-bad-input": ["chat/bad-input-4xx"],
  "chat-disconnected-answers": ["chat/disconnected-rejected"],
  "detail-not-string": ["errors/detail-shape"],
  "chat-sync-wrong-shape": ["chat-sync/shape"],
};

const faulty = (fault: string, extra = {}) => engine({ faults: [fault], ...extra });

async function connectedStream(e: Engine, path = "/chat/stream") {
  await connect(e);
  return chat(e, "hi", {}, path);
}

describe("mcp-chat faults", () => {
  it("every fault of the doc, with exactly its check ids (full form)", () => {
    expect(Object.fromEntries(MCP_CHAT_FAULTS.map((f) => [f.name, f.violates]))).toEqual(
      Object.fromEntries(Object.entries(TABLE).map(([n, ids]) => [n, ids.map((id) => `mcp-chat/${id}`)])),
    );
    for (const f of MCP_CHAT_FAULTS) expect(Object.keys(f).sort()).toEqual(["description", "name", "violates"]);
  });

  it("an unknown fault name throws a clear error", () => {
    expect(() => createMcpChatEngine({ faults: ["servers-empty", "nope"] })).toThrow(
      /Unknown fault "nope"\. Valid faults: servers-missing-path, /,
    );
  });

  it("sse-no-space: `data:{` and `data:[DONE]`, nothing else changes", async () => {
    const { text } = await connectedStream(faulty("sse-no-space"));
    const canonical = (await connectedStream(engine())).text;
    expect(text).toBe(canonical.replaceAll("data: ", "data:"));
  });

  it("duplicate-tool-id: two-tools with both ids tc-1", async () => {
    const { chunks } = await connectedStream(faulty("duplicate-tool-id"));
    const tools = sseData(chunks)
      .filter((d) => d.startsWith("{"))
      .map((d) => JSON.parse(d))
      .filter((e) => e.type !== "text");
    expect(tools.map((e) => `${e.type} ${e.id} ${e.name}`)).toEqual([
      "tool_start tc-1 get_weather",
      "tool_end tc-1 get_weather",
      "tool_start tc-1 get_forecast",
      "tool_end tc-1 get_forecast",
    ]);
  });

  it("cors-wildcard: ACAO * with credentials on actual responses; preflights stay correct", async () => {
    const e = faulty("cors-wildcard");
    const res = await e.handle(req("/servers", { headers: { origin: ORIGIN } }));
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-credentials")).toBe("true");
    const pre = await e.handle(
      req("/servers", { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "GET" } }),
    );
    expect(pre.headers.get("access-control-allow-origin")).toBe(ORIGIN);
  });

  it("cors-reflect-any, cors-missing-on-stream, cors-no-preflight", async () => {
    const evil = { origin: "http://evil.example" };
    const reflect = await faulty("cors-reflect-any").handle(req("/servers", { headers: evil }));
    expect(reflect.headers.get("access-control-allow-origin")).toBe("http://evil.example");
    const e = faulty("cors-missing-on-stream");
    await connect(e);
    const s = await chat(e, "hi", { headers: { origin: ORIGIN, "content-type": "application/json" } });
    expect(s.res.headers.get("access-control-allow-origin")).toBeNull();
    expect((await e.handle(req("/status", { headers: { origin: ORIGIN } }))).headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const pre = await faulty("cors-no-preflight").handle(
      req("/servers", { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "GET" } }),
    );
    expect(pre.status).toBe(405);
  });

  it("connect-unknown-200 answers 200 and leaves the state alone", async () => {
    const e = faulty("connect-unknown-200");
    await connect(e, "weather");
    const r = await connect(e, "zz");
    expect(r.res.status).toBe(200);
    expect(r.body.server_id).toBe("zz");
    expect((await status(e)).server_id).toBe("weather");
  });

  it("connection-state faults", async () => {
    let e = faulty("connect-unknown-drops-state");
    await connect(e);
    expect((await connect(e, "zz")).res.status).toBe(404);
    expect((await status(e)).connected).toBe(false);

    e = faulty("status-disconnected-keeps-id");
    await connect(e);
    await e.handle(req("/disconnect", { method: "POST" }));
    expect(await status(e)).toEqual({ connected: false, server_id: "weather", tools: [] });

    e = faulty("multi-connection");
    await connect(e, "server-id-1");
    await connect(e, "weather");
    const s = await status(e);
    expect(s.server_id).toBe("weather");
    expect((s.tools as { name: string }[]).map((t) => t.name)).toEqual(["get_weather", "get_forecast", "echo"]);

    e = faulty("reconnect-409");
    await connect(e);
    expect((await connect(e)).res.status).toBe(409);

    e = faulty("disconnect-noop");
    await connect(e);
    expect((await e.handle(req("/disconnect", { method: "POST" }))).status).toBe(200);
    expect((await status(e)).connected).toBe(true);

    e = faulty("disconnect-idle-404");
    expect((await e.handle(req("/disconnect", { method: "POST" }))).status).toBe(404);

    e = faulty("disconnect-no-success");
    expect(await (await e.handle(req("/disconnect", { method: "POST" }))).json()).toEqual({});
  });

  it("listing and connect-body faults", async () => {
    const list = async (f: string) => (await (await faulty(f).handle(req("/servers"))).json()) as Record<string, unknown>[];
    expect((await list("servers-missing-path")).every((s) => !("path" in s))).toBe(true);
    expect((await list("servers-duplicate-id")).map((s) => s.id)).toEqual(["weather", "server-id-1", "weather"]);
    expect(await list("servers-empty")).toEqual([]);
    expect("server_name" in (await connect(faulty("connect-missing-server-name"))).body).toBe(false);
    expect((await connect(faulty("connect-wrong-server-name"))).body.server_name).not.toBe("Weather Service");
    const e = faulty("tool-description-null");
    expect(((await connect(e)).body.tools as unknown[])[0]).toEqual({ name: "get_weather", description: null });
    expect(((await status(e)).tools as unknown[])[0]).toEqual({ name: "get_weather", description: null });
    const empty = faulty("status-empty-tools");
    await connect(empty);
    expect((await status(empty)).tools).toEqual([]);
  });

  it("framing faults: crlf, wrong content type, multiline JSON, no final blank, invalid UTF-8", async () => {
    expect((await connectedStream(faulty("sse-crlf"))).text).toMatch(/^data: \{.*\}\r\n\r\n/);
    expect((await connectedStream(faulty("sse-wrong-content-type"))).res.headers.get("content-type")).toMatch(/^text\/plain/);
    const ml = (await connectedStream(faulty("sse-multiline-json"))).text;
    expect(ml.startsWith('data: {\ndata:   "type": "tool_start",\n')).toBe(true);
    expect((await connectedStream(faulty("sse-no-final-blank"))).text.endsWith("}\n\ndata: [DONE]\n")).toBe(true);
    const bad = (await connectedStream(faulty("sse-invalid-utf8"))).chunks;
    const text = bad.find((c) => c.includes(0xff)) as Uint8Array;
    expect(utf8(text)).toBe('data: {"type": "text", "content": "The current \ufffd"}\n\n');
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(text)).toThrow();
  });

  it("event faults rewrite the answer", async () => {
    const data = async (f: string) => sseData((await connectedStream(faulty(f))).chunks);
    expect((await data("sse-non-json"))[0]).toBe("Thinking...");
    expect((await data("unknown-event-type"))[0]).toBe('{"type": "status"}');
    expect(JSON.parse((await data("tool-args-string"))[0] as string).args).toBe('{"city":"San Francisco"}');
    expect(JSON.parse((await data("tool-end-wrong-name"))[1] as string).name).toBe("get_forecast");
    expect((await data("tool-never-ended")).some((d) => d.includes("tool_end"))).toBe(false);
    expect(await data("error-with-open-tool")).toEqual([
      '{"type": "tool_start", "id": "tc-1", "name": "get_weather", "args": {"city": "San Francisco"}}',
      "[ERROR] Tool get_weather raised an exception",
    ]);
    expect((await data("tool-not-listed")).slice(0, 2).map((d) => JSON.parse(d).name)).toEqual([
      "delete_everything",
      "delete_everything",
    ]);
    expect(JSON.parse((await data("empty-args"))[0] as string).args).toEqual({});
    expect(JSON.parse((await data("intermediate-text"))[0] as string).type).toBe("text");
    expect(await data("no-answer-text")).toHaveLength(3);
    expect((await data("missing-terminal")).at(-1)).toContain("sunny");
    expect((await data("events-after-done")).slice(-2)).toEqual(["[DONE]", '{"type": "text", "content": " Anything else?"}']);
    expect((await data("error-then-done")).slice(-2)).toEqual(["[ERROR] Something went wrong", "[DONE]"]);
    expect((await data("done-variant")).at(-1)).toBe("[done]");
    expect((await connectedStream(faulty("error-multiline"))).text.endsWith(
      "data: [ERROR] get_weather failed\nTraceback (most recent call last)\n\n",
    )).toBe(true);
  });

  it("semantic faults leave the not-connected refusal alone; framing faults do not", async () => {
    const refusal = async (f: string) => (await chat(faulty(f), "hi")).text;
    const canonical = await refusal("missing-terminal");
    expect(canonical).toBe("data: [ERROR] Not connected to any MCP server. Please connect to a server first.\n\n");
    expect(await refusal("error-then-done")).toBe(canonical);
    expect(await refusal("sse-crlf")).toContain("\r\n");
  });

  it("split-events writes each event in two parts 50 ms apart; buffered-stream writes once", async () => {
    const split = faulty("split-events", { scenario: "text-only" });
    await connect(split);
    const t0 = performance.now();
    const { chunks } = await chat(split, "hi");
    expect(chunks).toHaveLength(6);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    const buffered = faulty("buffered-stream", { toolDuration: 50 });
    expect((await connectedStream(buffered)).chunks).toHaveLength(1);
  });

  it("hold-open-after-done: the body stays open after [DONE]", async () => {
    const e = faulty("hold-open-after-done");
    await connect(e);
    const res = await e.handle(req("/chat/stream", { method: "POST", json: { message: "x" } }));
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.endsWith("[DONE]\n\n")) text += utf8((await reader.read()).value as Uint8Array);
    const next = reader.read().then(() => "ended");
    expect(await Promise.race([next, new Promise((r) => setTimeout(() => r("open"), 150))])).toBe("open");
    await reader.cancel();
  });

  it("chat faults: bad input streams, disconnected answers, detail array, /chat shape", async () => {
    const bad = faulty("chat-accepts-bad-input");
    await connect(bad);
    const r = await bad.handle(req("/chat/stream", { method: "POST", json: { message: 42 } }));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/event-stream/);
    await r.body?.cancel();
    const dis = await chat(faulty("chat-disconnected-answers"), "hi");
    expect(dis.text.endsWith("data: [DONE]\n\n")).toBe(true);
    const detail = await faulty("detail-not-string").handle(req("/nope"));
    expect(((await detail.json()) as { detail: unknown }).detail).toEqual([
      { loc: ["body"], msg: "Not Found", type: "value_error" },
    ]);
    const e = faulty("chat-sync-wrong-shape");
    await connect(e);
    const sync = await e.handle(req("/chat", { method: "POST", json: { message: "x" } }));
    expect(await sync.json()).toEqual({ text: "The current weather in San Francisco is 65°F and sunny." });
  });

  it("faults can be added per request with X-Agentwire-Fault", async () => {
    const e = engine();
    const res = await e.handle(req("/servers", { headers: { "x-agentwire-fault": "servers-empty" } }));
    expect(await res.json()).toEqual([]);
    expect(((await (await e.handle(req("/servers"))).json()) as unknown[]).length).toBe(2);
  });
});
