/** ownString: the same string, holding none of the text it was cut from. */
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";
import { ownString } from "../../src/core/transport/own-string.js";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;

describe("ownString", () => {
  it.each(["", "a", "call_0000000000000001", 'quote " backslash \\ nul \0 line\u2028', "lone \ud800 and \udc00 halves", "😀 東京"])("equals %j", (s) => {
    expect(ownString(s)).toBe(s);
  });

  it("keeps about the slice, not the string it was cut from", () => {
    const n = 20_000;
    const kept: string[] = [];
    gc();
    const base = process.memoryUsage().heapUsed;
    for (let i = 0; i < n; i++) {
      // A flat 4,000-character string of its own each time, and a 20-character slice of it.
      const read = String(i).padStart(8, "0").repeat(500).split("").reverse().join("");
      kept.push(ownString(read.slice(100, 120)));
    }
    gc();
    const perSlice = (process.memoryUsage().heapUsed - base) / n;
    expect(kept).toHaveLength(n);
    expect(perSlice).toBeLessThan(200);
  });
});
