/** Large chunks take the native check: it must agree with the byte loop on offsets and state. */
import { describe, expect, it } from "vitest";
import { Utf8Validator } from "../../src/core/transport/utf8.js";

const enc = new TextEncoder();
const big = (prefix: number[], fill = 400) => new Uint8Array([...prefix, ...enc.encode("a".repeat(fill))]);
const padded = (bad: number[]) => new Uint8Array([...enc.encode("é".repeat(150)), ...bad, ...enc.encode("b".repeat(100))]);

describe("Utf8Validator on large chunks", () => {
  it("accepts a large valid chunk and counts its bytes", () => {
    const v = new Utf8Validator();
    const chunk = enc.encode("é°中😀".repeat(60));
    expect(v.push(chunk)).toBe(-1);
    expect(v.push(chunk)).toBe(-1);
    expect(v.offset).toBe(2 * chunk.length);
    expect(v.truncated).toBe(false);
  });

  it.each([
    ["a lone 0xFF", [0xff], 0],
    ["an overlong slash", [0xc0, 0xaf], 0],
    ["a surrogate", [0xed, 0xa0, 0x80], 1],
    ["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80], 1],
    ["a lead byte followed by ASCII", [0xe4, 0x41], 1],
  ])("names the absolute offset of %s after earlier chunks", (_name, bad, at) => {
    const v = new Utf8Validator();
    expect(v.push(big([]))).toBe(-1);
    expect(v.push(padded(bad))).toBe(400 + 300 + at);
  });

  it("continues a character split before a large chunk, and flags one split at its end", () => {
    const v = new Utf8Validator();
    expect(v.push(new Uint8Array([0xe4, 0xb8]))).toBe(-1);
    expect(v.truncated).toBe(true);
    expect(v.push(big([0xad]))).toBe(-1);
    expect(v.truncated).toBe(false);
    expect(v.push(new Uint8Array([...enc.encode("c".repeat(300)), 0xf0, 0x9f]))).toBe(-1);
    expect(v.truncated).toBe(true);
    expect(v.push(big([0x41]))).toBe(2 + 401 + 302);
  });
});
