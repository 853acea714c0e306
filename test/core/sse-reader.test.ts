/**
 * The SSE reader: one tokenising pass gives both the raw lines (framing lint) and the events a
 * browser's EventSource dispatches. Events are compared with a whole-body reference parser written
 * straight from the WHATWG steps, over many chunkings of the same bytes.
 */
import { describe, expect, it } from "vitest";
import { SseReader, type SseReaderOptions } from "../../src/core/transport/sse-reader.js";
import type { NewEvent } from "../../src/core/transcript/transcript.js";

type Line = Extract<NewEvent, { kind: "sse-line" }>;
type Ev = Extract<NewEvent, { kind: "sse-event" }>;

const enc = new TextEncoder();
const bytes = (c: string | Uint8Array | number[]) => (typeof c === "string" ? enc.encode(c) : c instanceof Uint8Array ? c : Uint8Array.from(c));

function read(chunks: (string | Uint8Array | number[])[], opts: SseReaderOptions = {}) {
  const out: NewEvent[] = [];
  const limits: string[] = [];
  const reader = new SseReader("p", "x1", "l", (e) => out.push(e), { ...opts, onLimit: (m) => limits.push(m) });
  chunks.forEach((c, i) => reader.push(bytes(c), i));
  reader.end();
  const lines = out.filter((e): e is Line => e.kind === "sse-line");
  const events = out.filter((e): e is Ev => e.kind === "sse-event");
  return { out, lines, events, limits, data: events.map((e) => e.data) };
}

/** WHATWG event-stream parsing over the whole body at once: the reference the stream must match. */
function reference(body: Uint8Array): { data: string; event?: string; id?: string }[] {
  const text = new TextDecoder().decode(body); // drops one leading BOM, like the spec's decode
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // the last piece has no terminator: never processed
  const out: { data: string; event?: string; id?: string }[] = [];
  let data: string[] = [];
  let type = "";
  let lastId = "";
  for (const line of lines) {
    if (line === "") {
      if (data.length) out.push({ data: data.join("\n"), ...(type ? { event: type } : {}), ...(lastId ? { id: lastId } : {}) });
      data = [];
      type = "";
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") data.push(value);
    else if (field === "event") type = value;
    else if (field === "id" && !value.includes("\0")) lastId = value;
  }
  return out;
}

const strip = (events: Ev[]) => events.map(({ data, event, id }) => ({ data, ...(event !== undefined ? { event } : {}), ...(id !== undefined ? { id } : {}) }));

/** Every way to cut `body` into pieces at the given positions, plus single bytes. */
function chunkings(body: Uint8Array, seed: number): Uint8Array[][] {
  const out: Uint8Array[][] = [[body], [...body].map((b) => Uint8Array.of(b))];
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let k = 0; k < 20; k++) {
    const cuts = [0];
    while (cuts[cuts.length - 1]! < body.length) cuts.push(cuts[cuts.length - 1]! + 1 + Math.floor(rnd() * 7));
    out.push(cuts.slice(0, -1).map((c, i) => body.subarray(c, Math.min(body.length, cuts[i + 1]!))));
  }
  return out;
}

const BOM = [0xef, 0xbb, 0xbf];
const A = 'data: {"type":"text","content":"65°F 東京 😀"}';

describe("SseReader: the standard's parse", () => {
  it("strips one leading BOM: the first event is not lost", () => {
    const plain = read([`${A}\n\n`, "data: [DONE]\n\n"]);
    const bom = read([[...BOM, ...enc.encode(`${A}\n\n`)], "data: [DONE]\n\n"]);
    expect(plain.data).toEqual([A.slice(6), "[DONE]"]);
    expect(bom.data).toEqual(plain.data);
    // The raw first line is the data line itself; the chunk bytes still show the BOM.
    expect(bom.lines[0]!.line).toBe(A);
  });

  it("strips a BOM split over chunks, and only one", () => {
    expect(read([[0xef], [0xbb, 0xbf, ...enc.encode("data: a\n\n")]]).data).toEqual(["a"]);
    // A second BOM is part of the first field's name: that line is an unknown field.
    expect(read([[...BOM, ...BOM, ...enc.encode("data: a\n\ndata: b\n\n")]]).data).toEqual(["b"]);
    // A BOM later in the stream is text.
    expect(read(["data: a\n\n", [...BOM, ...enc.encode("data: b\n\n")]]).data).toEqual(["a"]);
  });

  it("ends lines at a lone CR: [DONE] after CR-only endings is dispatched", () => {
    const r = read([`${A}\r\r`, "data: [DONE]\r\r"]);
    expect(r.data).toEqual([A.slice(6), "[DONE]"]);
    expect(r.lines.map((l) => [l.line, l.eol, l.chunkStart, l.chunkEnd])).toEqual([
      [A, "\r", 0, 0],
      ["", "\r", 0, 0],
      ["data: [DONE]", "\r", 1, 1],
      ["", "\r", 1, 1],
    ]);
    expect(r.events.map((e) => e.chunk)).toEqual([0, 1]);
  });

  it("dispatches at a CR that ends a chunk, without waiting for the next chunk", () => {
    const seen: NewEvent[] = [];
    const reader = new SseReader("p", "x1", "l", (e) => seen.push(e));
    reader.push(enc.encode("data: a\r\r"), 0);
    expect(seen.filter((e) => e.kind === "sse-event").map((e) => (e as Ev).data)).toEqual(["a"]);
    // The blank line's terminator is reported once the next character shows it is not CRLF.
    expect(seen.filter((e) => e.kind === "sse-line")).toHaveLength(1);
    reader.push(enc.encode("data: b\r\r"), 1);
    reader.end();
    const lines = seen.filter((e): e is Line => e.kind === "sse-line");
    expect(lines.map((l) => [l.line, l.eol, l.chunkEnd])).toEqual([
      ["data: a", "\r", 0],
      ["", "\r", 0],
      ["data: b", "\r", 1],
      ["", "\r", 1],
    ]);
  });

  it("reads a CRLF cut between CR and LF as one terminator, not two lines", () => {
    const r = read(["data: a\r", "\n\r", "\ndata: b\r\n\r\n"]);
    expect(r.data).toEqual(["a", "b"]);
    expect(r.lines.map((l) => [l.line, l.eol, l.chunkStart, l.chunkEnd])).toEqual([
      ["data: a", "\r\n", 0, 1],
      ["", "\r\n", 1, 2],
      ["data: b", "\r\n", 2, 2],
      ["", "\r\n", 2, 2],
    ]);
  });

  it("reports each line's terminator and chunks as sent, mixed endings included", () => {
    const r = read(["data: a\n", "\r\ndata: b\r", "\rda", "ta: c\n\n: tail"]);
    expect(r.data).toEqual(["a", "b", "c"]);
    expect(r.lines.map((l) => [l.line, l.eol, l.chunkStart, l.chunkEnd])).toEqual([
      ["data: a", "\n", 0, 0],
      ["", "\r\n", 1, 1],
      ["data: b", "\r", 1, 1],
      ["", "\r", 2, 2],
      ["data: c", "\n", 2, 3],
      ["", "\n", 3, 3],
      [": tail", "", 3, 3],
    ]);
    expect(r.lines.map((l) => l.lineNo)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it("decodes a character split over chunks once", () => {
    const b = enc.encode(`${A}\n\n`);
    const at = b.indexOf(0xf0) + 2; // inside the 4-byte emoji
    expect(read([b.subarray(0, at), b.subarray(at)]).data).toEqual([A.slice(6)]);
  });

  it("decodes every chunking as one streaming decoder does: whole chunks, carried characters, BOMs and bad bytes", () => {
    // Chunks ending in ASCII are decoded whole, the others (and the next) by the streaming decoder:
    // the text must not depend on which, wherever the cuts fall.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    const pieces = [enc.encode("data: a\n\n"), enc.encode("é漢🙂"), BOM, [0xff], [0xe6, 0x9d], [0xf0, 0x9f], [0xed, 0xa0, 0x80], [0xc3], enc.encode("\r\n"), enc.encode(": x\n")];
    for (let k = 0; k < 300; k++) {
      const parts: number[] = [];
      for (let j = 0, m = 1 + rand(12); j < m; j++) parts.push(...pieces[rand(pieces.length)]!);
      const body = Uint8Array.from(parts);
      const cuts: number[] = [];
      for (let at = 0; at < body.length; at += 1 + rand(6)) cuts.push(at);
      const chunks = cuts.map((at, i) => body.subarray(at, cuts[i + 1] ?? body.length));
      const r = read(chunks);
      expect(r.lines.map((l) => l.line + l.eol).join("")).toBe(new TextDecoder().decode(body));
    }
  });

  it("survives invalid UTF-8: bad bytes become U+FFFD", () => {
    const r = read([[...enc.encode("data: a"), 0xff, 0xc3, ...enc.encode("\n\n")], [0xe6, 0x9d]]);
    expect(r.data).toEqual(["a\uFFFD\uFFFD"]);
    // The body ended inside a character: the unterminated last line carries the replacement.
    expect(r.lines.at(-1)).toMatchObject({ line: "\uFFFD", eol: "" });
  });

  it("applies the WHATWG field rules", () => {
    const r = read([
      ": comment\ndata:a\ndata:  two spaces\ndata\n\n", // joined with LF, one space stripped, bare "data"
      "event: tool\nid: 7\nretry: 3000\nfoo: bar\nData: x\ndata: b\n\n", // type, id, retry/unknown ignored
      "data: c\n\n", // id persists, type does not
      "id: a\0b\nevent: x\n\ndata: d\n\n", // NUL id ignored; a blank line without data resets the type
      "id\ndata: e\n\n", // an empty id clears it
      "data: never\n", // no blank line before EOF: discarded
    ]);
    expect(strip(r.events)).toEqual([
      { data: "a\n two spaces\n" },
      { data: "b", event: "tool", id: "7" },
      { data: "c", id: "7" },
      { data: "d", id: "7" },
      { data: "e" },
    ]);
    expect(r.events.map((e) => e.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it("does not dispatch an event whose blank line never came", () => {
    expect(read(["data: a\n\ndata: [DONE]\n"]).data).toEqual(["a"]);
    expect(read(["data: a\n\ndata: [DONE]"]).data).toEqual(["a"]);
    expect(read(["data: a\n\ndata: [DONE]\r"]).data).toEqual(["a"]);
  });

  it("matches the whole-body reference over every chunking", () => {
    const bodies = [
      `${A}\n\ndata: [DONE]\n\n`,
      `${A}\r\rdata: [DONE]\r\r`,
      `${A}\r\n\r\n: ping\r\ndata: [DONE]\r\n\r\n`,
      `\uFEFF${A}\n\ndata: x\r\ndata:y\r\rid: 3\nevent: e\ndata\n\n\n\ndata: z\n`,
      `data: a\r\n\rdata: b\n\r\ndata: c\r\r\n`,
    ].map((s) => enc.encode(s));
    bodies.push(Uint8Array.from([...BOM, ...enc.encode("data: é\n"), 0xff, ...enc.encode("data: \r\n\r\n")]));
    bodies.forEach((body, k) => {
      const want = reference(body);
      expect(want.length).toBeGreaterThan(0);
      for (const chunks of chunkings(body, k + 1)) {
        const r = read(chunks);
        expect(strip(r.events)).toEqual(want);
        // The raw lines rebuild the decoded body exactly (BOM aside).
        expect(r.lines.map((l) => l.line + l.eol).join("")).toBe(new TextDecoder().decode(body));
      }
    });
  });
});

describe("SseReader: cost", () => {
  it("tokenises a long chunk in linear time", () => {
    // 8 MB in one chunk, 200,000 lines and no CR: a rescan to the end of the chunk per line
    // would read about 10^12 characters.
    const body = enc.encode(`data: {"n":"${"x".repeat(64)}"}\n\n`.repeat(100_000));
    const t0 = performance.now();
    const r = read([body]);
    const ms = performance.now() - t0;
    expect(r.events).toHaveLength(100_000);
    expect(r.lines).toHaveLength(200_000);
    expect(ms).toBeLessThan(4000);
  });

  it("does not buffer a line past the cap: a 1 GiB line without a newline is cut and reported", () => {
    const mib = new Uint8Array(1024 * 1024).fill(0x61);
    const out: NewEvent[] = [];
    const limits: string[] = [];
    const reader = new SseReader("p", "x1", "l", (e) => out.push(e), { maxLine: 4 * 1024 * 1024, onLimit: (m) => limits.push(m) });
    reader.push(enc.encode("data: ok\n\ndata: "), 0);
    const heap0 = process.memoryUsage().heapUsed;
    for (let i = 1; i <= 1024; i++) reader.push(mib, i);
    reader.end();
    const grown = process.memoryUsage().heapUsed - heap0;
    expect(limits).toEqual(["an SSE line is longer than 4194304 characters; reading stopped there"]);
    expect(out.map((e) => e.kind)).toEqual(["sse-line", "sse-line", "sse-event"]);
    expect(grown).toBeLessThan(256 * 1024 * 1024);
  });

  it("does not buffer an event's data past the cap: endless data lines without a blank line", () => {
    const r = read(["data: ok\n\n", ...Array.from({ length: 100 }, () => `data: ${"y".repeat(1000)}\n`), "\ndata: late\n\n"], { maxLine: 10_000 });
    expect(r.data).toEqual(["ok"]);
    expect(r.limits).toEqual(["an SSE event's data is longer than 10000 characters; reading stopped there"]);
  });
});
