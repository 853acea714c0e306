import { describe, expect, it } from "vitest";
import { OPENAI_CHAT_FRAMINGS } from "../../../src/mocks/openai-chat/index.js";
import { complete, engine, forcedRead, sseData, textStream, type Json } from "./helpers.js";

/** A scripted answer full of 2-, 3- and 4-byte characters. */
const UNICODE = "Voilà: 東京は晴れ 😀, naïve résumé 🚀 北京 — ok! ".repeat(3);
const script = { turns: [{ match: "^unicode$", answer: { text: UNICODE } }] };

/** One stream per framing and body, shared by the tests that read it (split-1 takes seconds: a byte per ms). */
const streams = new Map<string, ReturnType<typeof complete>>();
const withFraming = (name: string, body: Json = textStream) => {
  const key = `${name} ${JSON.stringify(body)}`;
  if (!streams.has(key)) streams.set(key, complete(engine({ script }), { stream: true, ...body }, {}, `/chat/completions?framing=${name}`));
  return streams.get(key)!;
};

const SCENARIO_LONG = { stream: true, messages: [{ role: "user", content: "unicode" }] };

describe("openai-chat framings", () => {
  it("offers the core SSE variants and the doc's termination variants", () => {
    const names = OPENAI_CHAT_FRAMINGS.map((f) => f.name);
    for (const n of [
      "canonical", "split-1", "split-random", "split-utf8", "split-crlf", "coalesced", "crlf", "cr", "no-space",
      "comments", "multiline-data", "extra-fields", "open-after-done", "trailing-after-done", "eof-no-done", "eof-mid-stream",
    ]) {
      expect(names).toContain(n);
    }
  });

  it("every valid SSE variant carries the same event data as canonical", async () => {
    // Each stream on its own engine, all at once: they mostly wait between split writes.
    await Promise.all(
      [textStream, { ...forcedRead, stream: true }, SCENARIO_LONG].map(async (body) => {
        const canonical = sseData((await withFraming("canonical", body)).chunks);
        const names = ["split-1", "split-random", "split-utf8", "split-crlf", "coalesced", "crlf", "cr", "mixed-eol", "no-space", "comments", "multiline-data", "extra-fields", "bom"];
        // One byte per ms: keep it short.
        const streams = await Promise.all(names.filter((n) => n !== "split-1" || body === textStream).map(async (name) => ({ name, data: sseData((await withFraming(name, body)).chunks) })));
        for (const { name, data } of streams) {
          const norm = name === "multiline-data" ? data.map((d) => (d === "[DONE]" ? d : JSON.stringify(JSON.parse(d)))) : data;
          expect(norm, name).toEqual(canonical);
        }
      }),
    );
  });

  it("the split framings really cut: one byte per write, cuts inside UTF-8, CR|LF apart, one coalesced write", async () => {
    const [one, utf8Cut, crlf, coalesced] = await Promise.all([withFraming("split-1"), withFraming("split-utf8", SCENARIO_LONG), withFraming("split-crlf"), withFraming("coalesced")]);
    expect(one.chunks.every((c) => c.length === 1)).toBe(true);
    const dangling = utf8Cut.chunks.filter((c) => {
      const last = c[c.length - 1] as number;
      return last >= 0xc0 || (last >= 0x80 && last < 0xc0 && c.length < 4);
    });
    expect(dangling.length).toBeGreaterThan(10);
    expect(crlf.chunks.some((c) => c[c.length - 1] === 0x0d)).toBe(true);
    expect(coalesced.chunks).toHaveLength(1);
  });

  it("comments put `: ping` lines between events; crlf, no-space and extra-fields change the bytes as named", async () => {
    expect((await withFraming("comments")).text).toMatch(/^: ping\n: agentwire keep-alive padding; /);
    expect((await withFraming("crlf")).text).toMatch(/^data: \{.*\}\r\n\r\n/);
    expect((await withFraming("no-space")).text.startsWith("data:{")).toBe(true);
    expect((await withFraming("extra-fields")).text.startsWith("event: message\nid: 1\nretry: 3000\n")).toBe(true);
  });

  it("termination variants: trailing-after-done, eof-no-done, eof-mid-stream", async () => {
    const trailing = sseData((await withFraming("trailing-after-done")).chunks);
    expect(trailing.at(-2)).toBe("[DONE]");
    expect(JSON.parse(trailing.at(-1) as string)).toMatchObject({ choices: [{ delta: { content: " [after DONE: must be ignored]" } }] });
    const noDone = sseData((await withFraming("eof-no-done")).chunks);
    expect(noDone).not.toContain("[DONE]");
    expect(noDone.some((d) => d.includes('"finish_reason":"stop"'))).toBe(true);
    const mid = sseData((await withFraming("eof-mid-stream")).chunks);
    expect(mid.some((d) => d.includes('"finish_reason":"stop"') || d === "[DONE]" || d.includes('"usage":{'))).toBe(false);
    expect(mid.length).toBeGreaterThan(3);
  });

  it("open-after-done holds the body after [DONE] (X-Agentwire-Framing header)", async () => {
    const res = await engine().handle(
      new Request("http://localhost:8000/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json", "x-agentwire-framing": "open-after-done" },
        body: JSON.stringify({ model: "agentwire-mock", stream: true, messages: [{ role: "user", content: "hi" }] }),
      }),
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.includes("[DONE]")) text += new TextDecoder().decode((await reader.read()).value);
    const next = await Promise.race([reader.read().then(() => "closed"), new Promise((r) => setTimeout(() => r("open"), 300))]);
    expect(next).toBe("open");
    await reader.cancel();
  });

  it("pacing: the first chunk after ttftMs, chunks chunkDelayMs apart", async () => {
    const e = engine({ ttftMs: 150, chunkDelayMs: 30 });
    const started = performance.now();
    const res = await e.handle(
      new Request("http://localhost:8000/v1/chat/completions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "agentwire-mock", stream: true, messages: [{ role: "user", content: "hi" }] }),
      }),
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const times: number[] = [];
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      times.push(performance.now() - started);
    }
    expect(times[0]).toBeGreaterThanOrEqual(140);
    const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(25);
  });
});
