import { describe, expect, it } from "vitest";
import {
  renderSse,
  SSE_FRAMINGS,
  SSE_FRAMING_LIST,
  splitJsonLines,
  createSseFramer,
} from "../../src/core/transport/sse-framing.js";
import { concat, sseData, utf8 } from "./mcp-chat/helpers.js";

const PAYLOADS = [
  '{"type": "tool_start", "id": "tc-1", "name": "get_weather", "args": {"city": "San Francisco"}}',
  '{"type": "text", "content": "is 65°F, sunny, 東京 😀"}',
  "[DONE]",
];

describe("core/sse-framing", () => {
  it("canonical: one `data: <p>\\n\\n` write per event", () => {
    const chunks = renderSse(PAYLOADS);
    expect(chunks.map(utf8)).toEqual(PAYLOADS.map((p) => `data: ${p}\n\n`));
  });

  it("lists every variant with a description", () => {
    expect(SSE_FRAMING_LIST.map((v) => v.name)).toEqual([
      "canonical", "split-1", "split-random", "split-utf8", "split-crlf", "coalesced", "crlf", "cr",
      "mixed-eol", "no-space", "comments", "multiline-data", "extra-fields", "bom", "no-final-blank",
    ]);
    for (const v of SSE_FRAMING_LIST) expect(v.description.length).toBeGreaterThan(5);
  });

  // Every valid variant must give a WHATWG parser exactly the canonical event data.
  for (const v of SSE_FRAMINGS.filter((x) => x.name !== "no-final-blank")) {
    it(`${v.name}: a WHATWG parser sees the canonical payloads`, () => {
      const data = sseData(renderSse(PAYLOADS, v.name, { seed: 7 }));
      // multiline-data only adds whitespace between JSON tokens: same value, not same text.
      const same = (d: string[]) => d.map((x) => (x.startsWith("{") ? JSON.parse(x) : x));
      expect(same(data)).toEqual(same(PAYLOADS));
    });
  }

  it("no-final-blank: the last event ends with one LF, so a WHATWG parser drops it", () => {
    const text = utf8(concat(renderSse(PAYLOADS, "no-final-blank")));
    expect(text.endsWith('65°F, sunny, 東京 😀"}\n\ndata: [DONE]\n')).toBe(true);
    expect(sseData(renderSse(PAYLOADS, "no-final-blank"))).toEqual(PAYLOADS.slice(0, 2));
  });

  it("split-1 writes single bytes; coalesced writes once", () => {
    const one = renderSse(PAYLOADS, "split-1");
    expect(one.every((c) => c.length === 1)).toBe(true);
    expect(utf8(concat(one))).toBe(utf8(concat(renderSse(PAYLOADS))));
    expect(renderSse(PAYLOADS, "coalesced")).toHaveLength(1);
  });

  it("split-random is reproducible per seed and crosses event boundaries", () => {
    const a = renderSse(PAYLOADS, "split-random", { seed: 3 }).map((c) => c.length);
    const b = renderSse(PAYLOADS, "split-random", { seed: 3 }).map((c) => c.length);
    const c = renderSse(PAYLOADS, "split-random", { seed: 4 }).map((c) => c.length);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const texts = renderSse(PAYLOADS, "split-random", { seed: 3 }).map((x) => new TextDecoder().decode(x, { stream: true }));
    expect(texts.some((t) => /\n\nd|\n\n.+/.test(t) && !t.startsWith("data"))).toBe(true);
  });

  it("split-utf8 cuts inside 2-, 3- and 4-byte characters", () => {
    const chunks = renderSse(PAYLOADS, "split-utf8");
    const fatal = new TextDecoder("utf-8", { fatal: true });
    const broken = chunks.filter((c) => {
      try {
        fatal.decode(c);
        return false;
      } catch {
        return true;
      }
    });
    expect(broken.length).toBeGreaterThan(0);
    // Each chunk that starts with a continuation byte shows where a character was cut.
    const leadsOfCut = chunks
      .map((c, i) => ({ c, prev: chunks[i - 1] }))
      .filter(({ c }) => ((c[0] as number) & 0xc0) === 0x80)
      .map(({ prev }) => prev as Uint8Array);
    expect(leadsOfCut.length).toBe(4); // °, 東, 京, 😀
    expect(utf8(concat(chunks))).toBe(utf8(concat(renderSse(PAYLOADS))));
  });

  it("split-crlf cuts between CR and LF", () => {
    const chunks = renderSse(["{}"], "split-crlf");
    expect(chunks.map(utf8)).toEqual(["data: {}\r", "\n\r", "\n"]);
  });

  it("crlf, cr and mixed-eol line ends", () => {
    expect(utf8(concat(renderSse(["a", "b"], "crlf")))).toBe("data: a\r\n\r\ndata: b\r\n\r\n");
    expect(utf8(concat(renderSse(["a", "b"], "cr")))).toBe("data: a\r\rdata: b\r\r");
    expect(utf8(concat(renderSse(["a", "b"], "mixed-eol")))).toBe("data: a\r\n\ndata: b\r\r\n");
  });

  it("no-space, comments, extra-fields, bom", () => {
    expect(utf8(concat(renderSse(["{}"], "no-space")))).toBe("data:{}\n\n");
    const comments = utf8(concat(renderSse(["{}", "[DONE]"], "comments")));
    expect(comments.startsWith(": ping\n: ")).toBe(true);
    expect(comments.split("\n")[1]).toHaveLength(2048);
    const extra = utf8(concat(renderSse(["{}"], "extra-fields")));
    expect(extra).toContain("event: message\n");
    expect(extra).toContain("id: 1\n");
    expect(extra).toContain("retry: 3000\n");
    expect(extra).toContain("\nData: ");
    const bom = concat(renderSse(["{}", "[DONE]"], "bom"));
    expect([...bom.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bom.indexOf(0xef, 3)).toBe(-1);
  });

  it("multiline-data splits JSON outside strings only, and joined lines parse the same", () => {
    const p = '{"type": "text", "content": "a, b", "n": [1, 2]}';
    const lines = splitJsonLines(p);
    expect(lines.length).toBe(4);
    expect(JSON.parse(lines.join("\n"))).toEqual(JSON.parse(p));
    expect(splitJsonLines("[ERROR] a, b")).toEqual(["[ERROR] a, b"]);
    const text = utf8(concat(renderSse([p], "multiline-data")));
    expect(text.split("\n").filter((l) => l.startsWith("data: "))).toHaveLength(4);
  });

  it("bytes payloads pass through untouched", () => {
    const framer = createSseFramer("canonical");
    const [chunk] = framer.push(new Uint8Array([0x7b, 0xff, 0x7d]), { last: true });
    expect([...(chunk as Uint8Array)]).toEqual([...new TextEncoder().encode("data: "), 0x7b, 0xff, 0x7d, 10, 10]);
  });

  it("format overrides compose with a variant", () => {
    expect(utf8(concat(renderSse(["{}"], { eol: "\r\n", dataPrefix: "data:" })))).toBe("data:{}\r\n\r\n");
  });

  it("unknown variant names throw", () => {
    expect(() => createSseFramer("nope")).toThrow(/unknown SSE framing "nope"/);
  });
});
