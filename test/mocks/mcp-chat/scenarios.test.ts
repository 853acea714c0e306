import { describe, expect, it } from "vitest";
import { MCP_CHAT_SCENARIOS } from "../../../src/mocks/mcp-chat/index.js";
import { eventJson } from "../../../src/mocks/mcp-chat/event-json.js";
import { payloadOf } from "../../../src/mocks/mcp-chat/stream.js";
import { findScenario } from "../../../src/mocks/mcp-chat/scenarios.js";
import { canonicalPayloads, chat, connect, engine, parsed, req } from "./helpers.js";

async function events(scenario: string, how: "query" | "header" | "message" | "option" = "query") {
  const e = engine(how === "option" ? { scenario } : {});
  await connect(e);
  const path = how === "query" ? `/chat/stream?scenario=${scenario}` : "/chat/stream";
  const headers: Record<string, string> = how === "header" ? { "x-agentwire-scenario": scenario } : {};
  const message = how === "message" ? `!scenario ${scenario}` : "hi";
  const { text } = await chat(e, message, { headers: { "content-type": "application/json", ...headers } }, path);
  return parsed(canonicalPayloads(text));
}

describe("mcp-chat scenarios", () => {
  it("lists every scenario of the doc", () => {
    expect(MCP_CHAT_SCENARIOS.map((s) => s.name)).toEqual([
      "weather-tool", "text-only", "two-tools", "parallel-tools", "stream-error", "not-connected", "long-answer", "slow-tool",
    ]);
  });

  it("weather-tool (default)", async () => {
    expect(await events("weather-tool")).toEqual([
      { type: "tool_start", id: "tc-1", name: "get_weather", args: { city: "San Francisco" } },
      { type: "tool_end", id: "tc-1", name: "get_weather" },
      { type: "text", content: "The current " },
      { type: "text", content: "weather in " },
      { type: "text", content: "San Francisco " },
      { type: "text", content: "is 65°F and sunny." },
      "[DONE]",
    ]);
  });

  it("is chosen by option, query, header or a `!scenario <name>` message", async () => {
    const expected = [{ type: "text", content: "Hello! " }, { type: "text", content: "How can I help?" }, "[DONE]"];
    for (const how of ["option", "query", "header", "message"] as const) {
      expect(await events("text-only", how)).toEqual(expected);
    }
  });

  it("two-tools", async () => {
    const ev = await events("two-tools");
    expect(ev.slice(0, 4)).toEqual([
      { type: "tool_start", id: "tc-1", name: "get_weather", args: { city: "San Francisco" } },
      { type: "tool_end", id: "tc-1", name: "get_weather" },
      { type: "tool_start", id: "tc-2", name: "get_forecast", args: { city: "San Francisco", days: 5 } },
      { type: "tool_end", id: "tc-2", name: "get_forecast" },
    ]);
    expect(ev.at(-1)).toBe("[DONE]");
    expect(ev.slice(4, -1).every((x: { type: string }) => x.type === "text")).toBe(true);
  });

  it("parallel-tools overlaps and ends out of order", async () => {
    const ev = await events("parallel-tools");
    expect(ev.slice(0, 4)).toEqual([
      { type: "tool_start", id: "tc-1", name: "get_weather", args: { city: "Paris" } },
      { type: "tool_start", id: "tc-2", name: "get_weather", args: { city: "Rome" } },
      { type: "tool_end", id: "tc-2", name: "get_weather" },
      { type: "tool_end", id: "tc-1", name: "get_weather" },
    ]);
    expect(ev.slice(4)).toEqual([{ type: "text", content: expect.any(String) }, "[DONE]"]);
  });

  it("stream-error", async () => {
    expect(await events("stream-error")).toEqual([
      { type: "tool_start", id: "tc-1", name: "get_weather", args: { city: "San Francisco" } },
      { type: "tool_end", id: "tc-1", name: "get_weather" },
      { type: "text", content: "Partial " },
      "[ERROR] Tool execution failed: upstream timeout",
    ]);
  });

  it("not-connected is automatic while disconnected, whatever was asked", async () => {
    const e = engine();
    const { text } = await chat(e, "!scenario text-only");
    expect(canonicalPayloads(text)).toEqual(["[ERROR] Not connected to any MCP server. Please connect to a server first."]);
  });

  it("long-answer: 200 deterministic chunks of 5-10 code points mixing ASCII, é, CJK and emoji", async () => {
    const a = await events("long-answer");
    const b = await events("long-answer");
    expect(a).toEqual(b);
    expect(a).toHaveLength(201);
    expect(a.at(-1)).toBe("[DONE]");
    const chunks = a.slice(0, -1).map((x: { content: string }) => x.content);
    for (const c of chunks) {
      expect(Array.from(c).length).toBeGreaterThanOrEqual(5);
      expect(Array.from(c).length).toBeLessThanOrEqual(10);
    }
    const all = chunks.join("");
    expect(all).toMatch(/é/);
    expect(all).toMatch(/[東京北]/);
    expect(all).toMatch(/\p{Extended_Pictographic}/u);
    expect([...new TextEncoder().encode(all)].some((b) => b >= 0xf0)).toBe(true);
  });

  it("long-answer: each stream writes its JSON in the style asked for, though the text of each style is written once", async () => {
    const e = engine();
    await connect(e);
    const lines = async (query: string) => (await chat(e, "!scenario long-answer", {}, `/chat/stream${query}`)).text.split("\n").filter((l) => l.startsWith("data: {"));
    const styles = ["", "?compactJson=1", "?asciiJson=1", "?compactJson=1&asciiJson=1", ""];
    const seen = [];
    for (const q of styles) seen.push(await lines(q));
    const contents = (await events("long-answer")).slice(0, -1) as { type: string; content: string }[];
    const expected = (compact: boolean, ascii: boolean) =>
      contents.map((c) => `data: ${eventJson(c, { compact, ascii })}`);
    expect(seen).toEqual([expected(false, false), expected(true, false), expected(false, true), expected(true, true), expected(false, false)]);
    expect(seen[0]![0]).toMatch(/^data: \{"type": "text", "content": "/);
    expect(seen[2]!.join("")).toMatch(/\\u00e9/);
  });

  it("long-answer: each stream gets steps of its own, and a text's JSON is taken as written only for exactly {type, content}", () => {
    const long = findScenario("long-answer")!;
    const [a, b] = [[...long.steps()], [...long.steps()]];
    expect(a).toHaveLength(201);
    expect(a[0]).not.toBe(b[0]);
    expect(a[0]!.data).not.toBe(b[0]!.data);
    const content = (a[0]!.data as unknown as { content: string }).content;
    const style = { compact: false, ascii: false };
    const once = payloadOf({ type: "text", content }, style);
    expect(once).toBe(eventJson({ type: "text", content }, style));
    expect(payloadOf({ type: "text", content }, { compact: true })).toBe(eventJson({ type: "text", content }, { compact: true }));
    // Whatever a rewrite made of an event, its own JSON: another key order, another key, another text.
    for (const other of [{ content, type: "text" }, { type: "text", content, extra: 1 }, { type: "text", content: `${content}!` }, { type: "status", content }]) {
      expect(payloadOf(other, style)).toBe(eventJson(other, style));
    }
  });

  it("slow-tool waits 5 s between start and end (aborting the request stops it at once)", async () => {
    const e = engine();
    await connect(e);
    const abort = new AbortController();
    const res = await e.handle(
      req("/chat/stream?scenario=slow-tool", { method: "POST", json: { message: "x" }, signal: abort.signal }),
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain("tool_start");
    const t0 = performance.now();
    const second = reader.read();
    const raced = await Promise.race([second.then(() => "data"), new Promise((r) => setTimeout(() => r("silent"), 300))]);
    expect(raced).toBe("silent");
    abort.abort();
    // What was written before the pause may still be in flight on a loaded machine; the tool's end never is.
    let rest = "";
    for (let r = await second; !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).not.toContain("tool_end");
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("POST /chat folds the scenario; stream-error is a 502 {detail}, disconnected a 409", async () => {
    const e = engine();
    expect((await e.handle(req("/chat", { method: "POST", json: { message: "x" } }))).status).toBe(409);
    await connect(e);
    const two = await e.handle(req("/chat?scenario=two-tools", { method: "POST", json: { message: "x" } }));
    const body = (await two.json()) as { response: string; tool_calls: { name: string }[] };
    expect(body.tool_calls.map((c) => c.name)).toEqual(["get_weather", "get_forecast"]);
    expect(body.response).toContain("sunny");
    const err = await e.handle(req("/chat?scenario=stream-error", { method: "POST", json: { message: "x" } }));
    expect(err.status).toBe(502);
    expect(await err.json()).toEqual({ detail: "Tool execution failed: upstream timeout" });
  });
});
