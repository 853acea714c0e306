/**
 * TextBuilder: the text comes back as appended, in order, however it was cut, and what the builder
 * holds grows with the number of blocks, not of pieces.
 */
import { describe, expect, it } from "vitest";
import { PIECES, TextBuilder } from "../../src/core/transport/text-builder.js";

/** Deterministic letters, so no two blocks of a long text are alike. */
function letters(n: number, seed = 7): string {
  let s = seed;
  let out = "";
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    out += String.fromCharCode(97 + (s % 26));
  }
  return out;
}

/** Cuts `text` into pieces of the given lengths, over and over. */
function cut(text: string, lengths: number[]): string[] {
  const out: string[] = [];
  for (let i = 0, k = 0; i < text.length; k++) {
    const n = lengths[k % lengths.length]!;
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

describe("TextBuilder", () => {
  it("is empty before anything is appended, and after the text is taken", () => {
    const b = new TextBuilder();
    expect(b.take()).toBe("");
    b.append("abc");
    expect(b.length).toBe(3);
    expect(b.take()).toBe("abc");
    expect(b.length).toBe(0);
    expect(b.take()).toBe("");
  });

  it.each([
    ["one piece", [100_000]],
    ["single characters", [1]],
    ["small pieces", [1, 3, 0, 12, 7]],
    ["small and large pieces mixed", [5, 5000, 1, 1, 9000, 2]],
    ["large pieces", [4096, 70_000]],
  ])("gives back the text as appended: %s", (_name, lengths) => {
    const text = letters(300_000);
    const b = new TextBuilder();
    for (const p of cut(text, lengths)) b.append(p);
    expect(b.length).toBe(text.length);
    expect(b.take() === text).toBe(true);
    // Used again after a take.
    b.append("x");
    b.append("y");
    expect(b.take()).toBe("xy");
  });

  it("clear forgets the text", () => {
    const b = new TextBuilder();
    for (const p of cut(letters(10_000), [1])) b.append(p);
    b.clear();
    expect(b.length).toBe(0);
    expect(b.held).toBe(0);
    b.append("z");
    expect(b.take()).toBe("z");
  });

  it("holds one string per block of small pieces, not one per piece", () => {
    const b = new TextBuilder();
    const n = 1_000_000;
    for (const p of cut(letters(n), [1])) b.append(p);
    expect(b.held).toBeLessThanOrEqual(Math.ceil(n / PIECES) + PIECES);
    expect(b.take()).toHaveLength(n);
  });
});
