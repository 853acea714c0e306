/**
 * excerpt() writes the start of a value's JSON text without writing the rest: the same excerpt as cutting the whole
 * JSON.stringify text, while reading only a bounded part of a huge value.
 */
import { describe, expect, it } from "vitest";
import { excerpt, excerptJson } from "../../src/core/checks/check.js";
import { MAX_JSON_DEPTH, nestedDeeperThan } from "../../src/core/json-depth.js";
import { jsonPrefix } from "../../src/core/json-prefix.js";

/** The excerpt as made from the whole JSON text: stringify everything, then cut. */
function whole(value: unknown, max = 160): string {
  let s: string | undefined;
  try {
    s = typeof value === "string" ? JSON.stringify(value).slice(1, -1) : JSON.stringify(value);
  } catch {
    s = undefined;
  }
  let text: string;
  if (s !== undefined) text = s;
  else if (typeof value === "object" && value !== null && nestedDeeperThan(value)) text = "[nested too deeply to show]";
  else {
    try {
      text = String(value);
    } catch {
      text = "[nested too deeply to show]";
    }
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const CHARS = ["a", "Z", " ", '"', "\\", "\n", "\t", "\u0001", "\u001f", "\u007f", "é", "\u2028", "😀", "\ud83d", "\ude00", "/", "<"];

function random(seed: number) {
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const pick = <T>(xs: readonly T[]): T => xs[next() % xs.length]!;
  const string = (long: boolean): string => {
    let s = "";
    const len = long ? 100 + (next() % 200) : next() % 8;
    while (s.length < len) s += pick(CHARS);
    return s;
  };
  const numbers = [0, -0, 1, -1.5, 1e21, 1e-7, 123456789.125, NaN, Infinity, -Infinity, Number.MAX_VALUE, 5e-324];
  const value = (depth: number): unknown => {
    const r = next() % (depth > 5 ? 8 : 14);
    switch (r) {
      case 0:
        return null;
      case 1:
        return next() % 2 === 0;
      case 2:
        return pick(numbers);
      case 3:
      case 4:
        return string(next() % 4 === 0);
      case 5:
        return undefined;
      case 6:
        return pick([() => 1, Symbol("s"), new Number(4), new String("w\"s"), new Boolean(false), new Date(Date.UTC(2024, 0, 2))]);
      case 7:
        return next() % 1000;
      case 8:
      case 9: {
        const o: Record<string, unknown> = next() % 5 === 0 ? Object.create(null) : {};
        const n = next() % 6;
        for (let i = 0; i < n; i++) {
          // defineProperty: a "__proto__" key stays a member, as JSON.parse makes it.
          const key = pick(["a", "b", "__proto__", "1", "0", "key with \"quotes\"", "😀", "\ud83d", ""]) + (next() % 3 === 0 ? string(false) : "");
          Object.defineProperty(o, key, { value: value(depth + 1), enumerable: true, configurable: true, writable: true });
        }
        return o;
      }
      case 10:
      case 11:
        return Array.from({ length: next() % 6 }, () => value(depth + 1));
      case 12: {
        // toJSON is called with the member's key, and what it returns is written in its place.
        const inner = value(depth + 1);
        const keyed = next() % 2 === 0;
        return { toJSON: (key: string) => (keyed ? [key, inner] : inner), ignored: 1 };
      }
      default:
        return JSON.parse(JSON.stringify({ t: string(true), v: [string(false), 1.25, { x: null }] }));
    }
  };
  return () => value(0);
}

describe("jsonPrefix and excerpt", () => {
  it("give the excerpt of the whole JSON text for random values, at every cut", () => {
    const make = random(11);
    let cut = 0;
    let objects = 0;
    for (let n = 0; n < 4000; n++) {
      const v = make();
      if (typeof v === "object" && v !== null) objects++;
      for (const max of [0, 1, 5, 20, 60, 159, 160, 161, 1000]) {
        const want = whole(v, max);
        if (want.endsWith("…") && max === 60) cut++;
        expect(excerpt(v, max), `${want} at ${max}`).toBe(want);
      }
    }
    // The values are varied enough to matter: many containers, many cut inside.
    expect(objects).toBeGreaterThan(1000);
    expect(cut).toBeGreaterThan(500);
  });

  it("write JSON.stringify's text whole where it fits", () => {
    const make = random(5);
    for (let n = 0; n < 2000; n++) {
      const v = make();
      const s = JSON.stringify(v);
      const p = jsonPrefix(v, 1e9);
      expect(p).toEqual(s === undefined ? { none: "nothing" } : { text: s });
    }
  });

  it("fall back as before where JSON cannot write the value", () => {
    expect(excerpt(10n)).toBe("10");
    expect(excerpt({ a: 1n })).toBe("[object Object]");
    expect(excerpt([1, 2n])).toBe("1,2");
    expect(excerpt({ toJSON: () => { throw new Error("no"); } })).toBe("[object Object]");
    expect(excerpt(undefined)).toBe("undefined");
    expect(excerpt(Symbol("s"))).toBe("Symbol(s)");
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    expect(excerpt(cycle)).toBe("[nested too deeply to show]");
    expect(excerpt([[1], { toJSON: () => undefined }, () => 1])).toBe("[[1],null,null]");
  });

  it("reads a bounded part of a huge value", () => {
    let reads = 0;
    // An array of ten million objects, each member read counted: stringifying it whole would read them all.
    const huge = new Proxy([] as unknown[], {
      get(target, p) {
        if (p === "length") return 10_000_000;
        if (typeof p === "string" && /^\d+$/.test(p)) {
          reads++;
          return { id: Number(p), text: "x".repeat(50), tags: ["a", "b"] };
        }
        return Reflect.get(target, p) as unknown;
      },
    });
    const start = JSON.stringify(Array.from({ length: 3 }, (_, i) => ({ id: i, text: "x".repeat(50), tags: ["a", "b"] })));
    expect(excerpt(huge)).toBe(`${start.slice(0, 160)}…`);
    expect(reads).toBeLessThan(4 * MAX_JSON_DEPTH);

    // An object of 100,000 members behind getters, and a long string in it: only the first few are read.
    let got = 0;
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) Object.defineProperty(wide, `k${i}`, { enumerable: true, get: () => (got++, { v: i }) });
    expect(excerpt({ a: "é".repeat(5_000_000), wide }, 20)).toBe(`{"a":"${"é".repeat(14)}…`);
    expect(got).toBeLessThan(4 * MAX_JSON_DEPTH);
  });

  it("still shows a value nested too deeply to write as such, when its depth starts near its beginning", () => {
    const deep = (levels: number): unknown => JSON.parse(`${'{"a":1,"b":'.repeat(levels)}1${"}".repeat(levels)}`);
    expect(excerpt(deep(10_000))).toBe("[nested too deeply to show]");
    expect(excerpt({ first: "x".repeat(500), then: deep(10_000) })).toBe("[nested too deeply to show]");
    expect(excerpt(deep(MAX_JSON_DEPTH), 20)).toBe(`${'{"a":1,"b":'.repeat(2).slice(0, 20)}…`);
  });

  it("excerptJson keeps a string's quotes, and cuts like excerpt", () => {
    expect(excerptJson("a\"b")).toBe('"a\\"b"');
    expect(excerptJson("x".repeat(100), 10)).toBe(`"${"x".repeat(9)}…`);
    expect(excerptJson({ a: [1, "😀"] })).toBe('{"a":[1,"😀"]}');
    expect(excerptJson(undefined)).toBe("undefined");
    expect(excerptJson(JSON.parse(`${"[".repeat(10_000)}${"]".repeat(10_000)}`))).toBe("[nested too deeply to show]");
  });
});
