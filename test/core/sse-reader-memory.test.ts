/**
 * What the SSE reader holds while a line or an event is in progress: about its size, however the
 * server cuts it. Hostile shapes: one event of many one-character data lines, one long line sent a
 * byte per read, short data lines read a few bytes at a time. (A string grown piece by piece kept
 * a V8 cons string per piece: 8 to 30 times the body.)
 */
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { SseReader } from "../../src/core/transport/sse-reader.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

const enc = new TextEncoder();

/** Heap in use after a full collection. */
function heap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

/** Deterministic letters (no two stretches of a long text alike, as real text). */
function letters(n: number): string[] {
  let s = 11;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    out.push(String.fromCharCode(97 + (s % 26)));
  }
  return out;
}

/**
 * Reads `body` in reads of `cut` bytes, then `tail`, which ends the event. `held`: heap grown
 * while the event was still open (everything read, nothing dispatched); `atDispatch`: the heap
 * grown when the event reached the sink.
 */
function read(body: Uint8Array, cut: number, tail: string) {
  const events: string[] = [];
  let atDispatch = 0;
  let base = 0;
  const reader = new SseReader("p", "x1", "l", (e) => {
    if (e.kind !== "sse-event") return;
    atDispatch = heap() - base;
    events.push(e.data);
  }, { maxLine: 64 * 1024 * 1024 });
  base = heap();
  let k = 0;
  for (let i = 0; i < body.length; i += cut) reader.push(body.subarray(i, i + cut), k++);
  const held = heap() - base;
  reader.push(enc.encode(tail), k);
  reader.end();
  return { held, atDispatch, events };
}

const MB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;

describe("SseReader: memory of the line or event in progress", () => {
  it("one event of many one-character data lines holds less than the body", () => {
    const values = letters(512 * 1024);
    const body = enc.encode(values.map((c) => `data: ${c}\n`).join(""));
    const r = read(body, 64 * 1024, "\n");
    expect(r.events).toHaveLength(1);
    expect(r.events[0] === values.join("\n")).toBe(true);
    expect(r.held, `held ${MB(r.held)} for a ${MB(body.length)} body`).toBeLessThan(body.length);
    expect(r.atDispatch, `${MB(r.atDispatch)} at dispatch for a ${MB(body.length)} body`).toBeLessThan(body.length);
  });

  it("one line sent a byte per read holds about the line", () => {
    const text = letters(2 * 1024 * 1024).join("");
    const body = enc.encode(`data: ${text}`);
    const r = read(body, 1, "\n\n");
    expect(r.events).toHaveLength(1);
    expect(r.events[0] === text).toBe(true);
    expect(r.held, `held ${MB(r.held)} for a ${MB(body.length)} line`).toBeLessThan(2 * body.length);
    expect(r.atDispatch, `${MB(r.atDispatch)} at dispatch for a ${MB(body.length)} line`).toBeLessThan(2 * body.length);
  });

  it.each([
    ["the body ends", false],
    ["a line outgrows the cap", true],
  ])("an event never ended by its blank line is let go when %s", (_when, longLine) => {
    const all = letters(2 * 1024 * 1024);
    const values: string[] = [];
    for (let i = 0; i < all.length; i += 24) values.push(all.slice(i, i + 24).join(""));
    const text = values.map((v) => `data: ${v}\n`).join("") + (longLine ? `data: ${"z".repeat(5 * 1024 * 1024)}` : "");
    const body = enc.encode(text);
    const limits: string[] = [];
    const reader = new SseReader("p", "x1", "l", () => {}, { maxLine: 4 * 1024 * 1024, onLimit: (m) => limits.push(m) });
    const base = heap();
    for (let i = 0, k = 0; i < body.length; i += 64 * 1024, k++) reader.push(body.subarray(i, i + 64 * 1024), k);
    reader.end();
    const held = heap() - base;
    expect(reader.events).toBe(0);
    expect(limits).toEqual(longLine ? ["an SSE line is longer than 4194304 characters; reading stopped there"] : []);
    expect(held, `${MB(held)} held after a ${MB(body.length)} body`).toBeLessThan(256 * 1024);
  });

  it("short data lines read seven bytes at a time hold about the event", () => {
    const all = letters(4 * 1024 * 1024);
    const values: string[] = [];
    for (let i = 0; i < all.length; i += 24) values.push(all.slice(i, i + 24).join(""));
    const body = enc.encode(values.map((v) => `data: ${v}\n`).join(""));
    const r = read(body, 7, "\n");
    expect(r.events).toHaveLength(1);
    expect(r.events[0] === values.join("\n")).toBe(true);
    expect(r.held, `held ${MB(r.held)} for a ${MB(body.length)} body`).toBeLessThan(1.5 * body.length);
    expect(r.atDispatch, `${MB(r.atDispatch)} at dispatch for a ${MB(body.length)} body`).toBeLessThan(1.5 * body.length);
  });
});
