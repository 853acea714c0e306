/** The adapter's copies of updates: what structuredClone gives, shared objects and all, without sharing with the original. */
import { describe, expect, it } from "vitest";
import { copyOf } from "../../src/stagewise/adapter/plain-copy.js";

describe("stagewise adapter: copies of values", () => {
  it("copies plain trees deeply, in key order, keeping undefined, -0 and NaN", () => {
    const value = { b: [1, { c: "x", d: undefined }, null], a: -0, n: Number.NaN, s: "🎨" };
    const copy = copyOf(value);
    expect(copy).toStrictEqual(structuredClone(value));
    expect(Object.keys(copy)).toEqual(["b", "a", "n", "s"]);
    expect(copy.b).not.toBe(value.b);
    expect(copy.b[1]).not.toBe(value.b[1]);
    expect(Object.is(copy.a, -0)).toBe(true);
  });

  it("leaves what is not a plain tree to structuredClone: shared objects stay shared, Dates stay Dates", () => {
    const shared = { x: 1 };
    const aliased = copyOf({ p: shared, q: shared });
    expect(aliased.p).toBe(aliased.q);
    expect(aliased.p).not.toBe(shared);
    const dated = copyOf({ at: new Date(5) });
    expect(dated.at).toBeInstanceOf(Date);
    expect(dated.at.getTime()).toBe(5);
    const holey = copyOf([1, , 3]); // eslint-disable-line no-sparse-arrays
    expect(1 in holey).toBe(false);
    expect(() => copyOf({ f: () => 1 })).toThrow();
  });

  it("past its own walk's depth, does what structuredClone does", () => {
    const outcome = (copy: (v: unknown) => unknown, v: unknown) => {
      try {
        return JSON.stringify(copy(v));
      } catch (error) {
        return (error as Error).name;
      }
    };
    for (const depth of [200, 300, 5_000]) {
      let deep: unknown = "end";
      for (let i = 0; i < depth; i++) deep = { deep };
      expect(outcome(copyOf, deep), `depth ${depth}`).toBe(outcome(structuredClone, deep));
    }
  });
});
