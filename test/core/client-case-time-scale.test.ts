/**
 * The time scale of the robustness cases: a case's own deadline and the waits a scenario, framing
 * or fault imposes shrink together, the default deadline (a hang guard) and the user's own pacing
 * do not, and at scale 1 nothing changes.
 */
import { describe, expect, it } from "vitest";
import { caseTable } from "../../src/core/client-cases/case-table.js";
import { scaleMs, scaleTimes, timeScaleOf } from "../../src/core/client-cases/time-scale.js";
import { TranscriptBus, type TranscriptEvent } from "../../src/core/transcript/transcript.js";
import { createOpenaiChatEngine } from "../../src/mocks/openai-chat/index.js";
import type { McpChatMockOptions } from "../../src/mocks/mcp-chat/options.js";
import { CLIENT_CASES as MCP_CASES, toWireCase as toMcpWireCase } from "../../src/suites/mcp-chat/client/index.js";
import { wireCases } from "../../src/suites/openai-chat/client/index.js";
import { chat, connect, engine } from "../mocks/mcp-chat/helpers.js";

describe("time scale helpers", () => {
  it("scales delays to whole milliseconds, keeps 0, never drops a wait to 0", () => {
    expect(scaleMs(5000, 0.25)).toBe(1250);
    expect(scaleMs(1, 0.1)).toBe(1);
    expect(scaleMs(0, 0.1)).toBe(0);
    expect(scaleMs(30_000, 1)).toBe(30_000);
    expect(scaleTimes({ ttftMs: 5000, textFragment: 8 }, 0.5, ["ttftMs"])).toEqual({ ttftMs: 2500, textFragment: 8 });
    expect([timeScaleOf(undefined), timeScaleOf(0), timeScaleOf(-1), timeScaleOf("0.5"), timeScaleOf(0.5)]).toEqual([1, 1, 1, 1, 0.5]);
  });

  it("a case's own deadline follows the scale; the default deadline does not", () => {
    const t = caseTable([{ id: "held", description: "", scenario: "s", framing: "canonical", checks: ["x"], timeoutMs: 5000 }, { id: "plain", description: "", scenario: "s", framing: "canonical", checks: ["x"] }], "/e", "p/");
    expect(t.timeoutOf(t.findCase("held")!, 0.25)).toBe(1250);
    expect(t.timeoutOf(t.findCase("plain")!, 0.25)).toBe(10_000);
    expect(t.timeoutOf(t.findCase("held")!)).toBe(5000);
  });

  it("openai-chat lists the scaled deadlines of the slow and held cases", () => {
    const at = (scale?: number) => Object.fromEntries(wireCases(scale).map((c) => [c.id, c.timeoutMs]));
    expect(at()).toMatchObject({ slow: 15_000, "open-after-done": 5000, "quirk-hold-open-after-done": 5000, "canonical-text": 10_000 });
    expect(at(0.25)).toMatchObject({ slow: 3750, "open-after-done": 1250, "quirk-hold-open-after-done": 1250, "canonical-text": 10_000 });
  });
});

describe("openai-chat mock under a time scale", () => {
  const body = JSON.stringify({ model: "agentwire-mock", stream: true, messages: [{ role: "user", content: "hi" }] });

  /** ms to the first data: line, the number of pings before it, and the request's meta. */
  async function firstChunk(options: Record<string, unknown>, query: string) {
    const bus = new TranscriptBus();
    const events: TranscriptEvent[] = [];
    bus.subscribe((e) => events.push(e));
    const engine = createOpenaiChatEngine({ bus, ...options });
    const t0 = performance.now();
    const res = await engine.handle(new Request(`http://127.0.0.1/v1/chat/completions?${query}`, { method: "POST", headers: { "content-type": "application/json" }, body }));
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let text = "";
    while (!/^data: /m.test(text)) {
      const r = await reader.read();
      if (r.done) break;
      text += dec.decode(r.value, { stream: true });
    }
    const ms = performance.now() - t0;
    await reader.cancel();
    const meta = events.find((e) => e.kind === "http-request")?.meta ?? {};
    return { ms, pings: text.split(": ping").length - 1, meta };
  }

  it("the slow scenario's late first chunk and its pings shrink together", async () => {
    const { ms, pings } = await firstChunk({ timeScale: 0.05 }, "scenario=slow");
    // 5 s late with a ping every second, at 1/20: 250 ms late, a ping every 50 ms.
    expect(ms).toBeGreaterThanOrEqual(240);
    expect(ms).toBeLessThan(2500);
    expect(pings).toBeGreaterThanOrEqual(3);
  });

  it("held streams are held for the scaled time, and the request says by which scale", async () => {
    const framing = await firstChunk({ timeScale: 0.25, ttftMs: 0 }, "framing=open-after-done");
    expect(framing.meta).toMatchObject({ holdAfterDoneMs: 7500, timeScale: 0.25 });
    const fault = await firstChunk({ timeScale: 0.25, ttftMs: 0, faults: ["hold-open-after-done"] }, "");
    expect(fault.meta).toMatchObject({ holdAfterDoneMs: 7500, timeScale: 0.25 });
    const full = await firstChunk({ ttftMs: 0 }, "framing=open-after-done");
    expect(full.meta.holdAfterDoneMs).toBe(30_000);
    expect(full.meta).not.toHaveProperty("timeScale");
  });

  it("the start options and the request's own knobs are not scaled", async () => {
    const { ms } = await firstChunk({ timeScale: 0.01, ttftMs: 300 }, "");
    expect(ms).toBeGreaterThanOrEqual(290);
    const query = await firstChunk({ timeScale: 0.01 }, "scenario=slow&ttftMs=300&keepAliveMs=0");
    expect(query.ms).toBeGreaterThanOrEqual(290);
  });

  it("refuses a time scale that is not a number above 0", () => {
    expect(() => createOpenaiChatEngine({ timeScale: 0 })).toThrow(/timeScale must be a number > 0/);
    expect(() => createOpenaiChatEngine({ timeScale: Number.NaN })).toThrow(/timeScale must be a number > 0/);
  });
});

describe("mcp-chat mock under a time scale", () => {
  /** ms until the whole body of one chat stream has arrived. */
  async function streamMs(options: McpChatMockOptions, query: string) {
    const e = engine(options);
    await connect(e);
    const t0 = performance.now();
    const { text } = await chat(e, "hi", {}, `/chat/stream?${query}`);
    return { ms: performance.now() - t0, text };
  }

  it("the held stream of open-after-done and the slow tool's silence shrink; the case deadline with them", async () => {
    const held = await streamMs({ timeScale: 0.01 }, "framing=open-after-done");
    // Held 30 s after [DONE] at full length: 300 ms at 1/100.
    expect(held.text).toContain("[DONE]");
    expect(held.ms).toBeGreaterThanOrEqual(290);
    expect(held.ms).toBeLessThan(5000);
    const slow = await streamMs({ timeScale: 0.05 }, "scenario=slow-tool");
    // 5 s between tool_start and tool_end at full length: 250 ms at 1/20.
    expect(slow.ms).toBeGreaterThanOrEqual(240);
    expect(slow.ms).toBeLessThan(4000);
    const deadlines = (scale?: number) => Object.fromEntries(MCP_CASES.map((c) => [c.id, toMcpWireCase(c, scale).timeoutMs]));
    expect(deadlines()).toMatchObject({ "open-after-done": 5000, canonical: 10_000 });
    expect(deadlines(0.25)).toMatchObject({ "open-after-done": 1250, canonical: 10_000 });
  });

  it("the start options are not scaled, and a bad scale is refused", async () => {
    const { ms } = await streamMs({ timeScale: 0.01, firstEventDelay: 300 }, "");
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(() => engine({ timeScale: -1 })).toThrow(/timeScale must be a number > 0/);
  });
});
