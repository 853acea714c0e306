import { describe, expect, it } from "vitest";
import { MCP_CHAT_FRAMINGS } from "../../../src/mocks/mcp-chat/index.js";
import { chat, concat, connect, engine, sseData, utf8 } from "./helpers.js";

async function stream(framing: string, scenario = "weather-tool", via: "query" | "header" | "option" = "query") {
  const e = engine(via === "option" ? { framing } : {});
  await connect(e);
  const path = via === "query" ? `/chat/stream?scenario=${scenario}&framing=${framing}` : `/chat/stream?scenario=${scenario}`;
  const headers = { "content-type": "application/json", ...(via === "header" ? { "x-agentwire-framing": framing } : {}) };
  return chat(e, "hi", { headers }, path);
}

const CANONICAL_DATA = [
  '{"type": "tool_start", "id": "tc-1", "name": "get_weather", "args": {"city": "San Francisco"}}',
  '{"type": "tool_end", "id": "tc-1", "name": "get_weather"}',
  '{"type": "text", "content": "The current "}',
  '{"type": "text", "content": "weather in "}',
  '{"type": "text", "content": "San Francisco "}',
  '{"type": "text", "content": "is 65°F and sunny."}',
  "[DONE]",
];

describe("mcp-chat framings", () => {
  it("lists the core variants and the mcp-chat termination/payload variants", () => {
    const names = MCP_CHAT_FRAMINGS.map((f) => f.name);
    expect(names[0]).toBe("canonical");
    for (const n of ["split-1", "split-utf8", "bom", "no-final-blank", "open-after-done", "trailing-after-done",
      "eof-no-terminal", "unknown-type", "non-json-data"]) expect(names).toContain(n);
  });

  it("canonical: one chunk per event", async () => {
    const { chunks } = await stream("canonical");
    expect(chunks.map(utf8)).toEqual(CANONICAL_DATA.map((d) => `data: ${d}\n\n`));
  });

  for (const via of ["query", "header", "option"] as const) {
    it(`crlf via ${via}: every line ends with CRLF`, async () => {
      const { text } = await stream("crlf", "weather-tool", via);
      expect(text).toBe(CANONICAL_DATA.map((d) => `data: ${d}\r\n\r\n`).join(""));
    });
  }

  it("split-utf8: a chunk boundary falls inside ° (C2 | B0)", async () => {
    const { chunks } = await stream("split-utf8");
    const i = chunks.findIndex((c) => c.at(-1) === 0xc2);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(chunks[i + 1]?.[0]).toBe(0xb0);
    expect(sseData(chunks)).toEqual(CANONICAL_DATA);
  });

  it("split-utf8 on long-answer cuts inside 2-, 3- and 4-byte characters", async () => {
    const { chunks } = await stream("split-utf8", "long-answer");
    const cutLengths = new Set<number>();
    chunks.forEach((c, i) => {
      const next = chunks[i + 1];
      if (!next || ((next[0] as number) & 0xc0) !== 0x80) return;
      // Walk back to the lead byte of the character that was cut.
      let j = c.length - 1;
      while (((c[j] as number) & 0xc0) === 0x80) j--;
      const lead = c[j] as number;
      cutLengths.add(lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2);
    });
    expect([...cutLengths].sort()).toEqual([2, 3, 4]);
    expect(sseData(chunks).length).toBe(201);
  });

  it("split-1, coalesced and split-random deliver the same events", async () => {
    const one = await stream("split-1");
    expect(one.chunks.every((c) => c.length === 1)).toBe(true);
    const all = await stream("coalesced");
    expect(all.chunks).toHaveLength(1);
    const rnd = await stream("split-random");
    for (const s of [one, all, rnd]) expect(sseData(s.chunks)).toEqual(CANONICAL_DATA);
  });

  it("bom: EF BB BF at the very start only", async () => {
    const { chunks } = await stream("bom");
    const bytes = concat(chunks);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(sseData(chunks)).toEqual(CANONICAL_DATA);
  });

  it("no-final-blank: ends with `data: [DONE]\\n`", async () => {
    const { text } = await stream("no-final-blank");
    expect(text.endsWith('sunny."}\n\ndata: [DONE]\n')).toBe(true);
  });

  it("split-crlf, cr, mixed-eol, no-space, comments, multiline-data, extra-fields parse canonically", async () => {
    for (const f of ["split-crlf", "cr", "mixed-eol", "no-space", "comments", "multiline-data", "extra-fields"]) {
      const { chunks } = await stream(f);
      const data = sseData(chunks).map((d) => (d.startsWith("{") ? JSON.parse(d) : d));
      expect(data, f).toEqual(CANONICAL_DATA.map((d) => (d.startsWith("{") ? JSON.parse(d) : d)));
    }
  });

  it("trailing-after-done, eof-no-terminal, unknown-type, non-json-data change the event list", async () => {
    expect(sseData((await stream("trailing-after-done")).chunks).slice(6)).toEqual([
      "[DONE]",
      '{"type": "text", "content": " [after DONE: must be ignored]"}',
      "[DONE]",
    ]);
    expect(sseData((await stream("eof-no-terminal")).chunks)).toEqual(CANONICAL_DATA.slice(0, 6));
    expect(sseData((await stream("unknown-type")).chunks)).toEqual(['{"type": "status"}', ...CANONICAL_DATA]);
    expect(sseData((await stream("non-json-data")).chunks)).toEqual(["Thinking...", ...CANONICAL_DATA]);
  });

  it("open-after-done keeps the body open after [DONE] until the client leaves", async () => {
    const e = engine();
    await connect(e);
    const res = await e.handle(
      new Request("http://localhost:8000/chat/stream?framing=open-after-done", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"message":"x"}',
      }),
    );
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = "";
    while (!text.endsWith("data: [DONE]\n\n")) text += utf8((await reader.read()).value as Uint8Array);
    const next = reader.read();
    expect(await Promise.race([next.then(() => "ended"), new Promise((r) => setTimeout(() => r("open"), 200))])).toBe("open");
    await reader.cancel();
  });
});
