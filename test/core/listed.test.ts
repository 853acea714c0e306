/** listed(): a list in a failure message names its first items and counts the rest, and reads only what it names. */
import { describe, expect, it } from "vitest";
import { listed, LISTED_MAX } from "../../src/core/checks/check.js";

describe("listed", () => {
  it("names a short list whole", () => {
    expect(listed([], String)).toBe("");
    expect(listed(["a", "b", "c"], (x) => x)).toBe("a, b, c");
    expect(listed(Array.from({ length: LISTED_MAX }, (_, i) => i), String)).toBe("0, 1, 2, 3, 4, 5, 6, 7");
  });

  it("counts what follows the first few, and names nothing past them", () => {
    const items = Array.from({ length: 100_000 }, (_, i) => i);
    let named = 0;
    const text = listed(items, (i) => (named++, `u${i}`));
    expect(text).toBe("u0, u1, u2, u3, u4, u5, u6, u7 … 99992 more");
    expect(named).toBe(LISTED_MAX);
    expect(listed(items, String, 2)).toBe("0, 1 … 99998 more");
  });
});
