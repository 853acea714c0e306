/**
 * excerpt() escapes a long string only as far as the excerpt reaches: the same text as escaping it whole, whatever
 * sits at the cut (escapes that grow, a surrogate pair split by it, a lone surrogate).
 */
import { describe, expect, it } from "vitest";
import { excerpt } from "../../src/core/checks/check.js";

/** The excerpt as written from the whole string's escape. */
function whole(value: string, max = 160): string {
  const text = JSON.stringify(value).slice(1, -1);
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const PIECES = ["a", '"', "\\", "\n", "\u0001", "é", "😀", "\ud83d", "\ude00", "{\"id\":1}", " "];

describe("excerpt", () => {
  it("gives a long string's excerpt as escaping it whole would, at every cut", () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 3000; n++) {
      let s = "";
      const len = 150 + (next() % 30);
      while (s.length < len) s += PIECES[next() % PIECES.length];
      for (const max of [160, 158, 159, 161, 5, 0]) expect(excerpt(s, max)).toBe(whole(s, max));
    }
  });

  it("cuts a surrogate pair at the limit as the whole escape does", () => {
    const pairAt = (i: number) => `${"x".repeat(i)}😀${"y".repeat(200)}`;
    for (let i = 155; i <= 165; i++) expect(excerpt(pairAt(i))).toBe(whole(pairAt(i)));
    expect(excerpt(`${"x".repeat(160)}\ud83d`)).toBe(whole(`${"x".repeat(160)}\ud83d`));
  });
});
