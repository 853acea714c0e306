/**
 * A target's JSON may nest deeper than the call stack goes (10,000 levels fit in 60 KB): the walkers that compare,
 * show and search it keep their own stack, or stop at a bound and say so, and never throw.
 */
import { describe, expect, it } from "vitest";
import { excerpt } from "../../src/core/checks/check.js";
import { canonicalText, copyJson, jsonEqual, MAX_JSON_DEPTH, nestedDeeperThan, stringifyOrUndefined } from "../../src/core/json-depth.js";
import { firstJsonDifference } from "../../src/stagewise/json-diff.js";
import { jsonDiff, jsonEqual as piWebJsonEqual } from "../../src/suites/pi-web/checks/support.js";
import { canon, sameJson } from "../../src/suites/continue-remote/checks/support.js";
import { datePaths } from "../../src/suites/stagewise-chat/checks/support.js";

const LEVELS = 10_000;
/** `{"a":{"a":…leaf…}}`, parsed as a server's answer would be. */
const deepObject = (leaf: unknown = 1, levels = LEVELS): unknown => JSON.parse(`${'{"a":'.repeat(levels)}${JSON.stringify(leaf)}${"}".repeat(levels)}`);
const deepArray = (leaf: unknown = 1, levels = LEVELS): unknown => JSON.parse(`${"[".repeat(levels)}${JSON.stringify(leaf)}${"]".repeat(levels)}`);

describe("deeply nested JSON", () => {
  it("is too deep for the recursive built-ins (the case these walkers exist for)", () => {
    expect(() => JSON.stringify(deepObject())).toThrow(RangeError);
    expect(stringifyOrUndefined(deepObject())).toBeUndefined();
  });

  it("excerpt never throws: a value too deep to write shows as such", () => {
    for (const v of [deepObject(), deepArray(), { wrapped: deepArray() }]) expect(excerpt(v)).toBe("[nested too deeply to show]");
    expect(excerpt(10n)).toBe("10");
    expect(excerpt(deepObject(1, 50), 20)).toBe(`${'{"a":'.repeat(4)}…`);
  });

  it("nestedDeeperThan counts levels without recursion", () => {
    expect(nestedDeeperThan(deepObject())).toBe(true);
    expect(nestedDeeperThan(deepArray(1, MAX_JSON_DEPTH))).toBe(false);
    expect(nestedDeeperThan(deepArray(1, MAX_JSON_DEPTH + 1))).toBe(true);
    expect(nestedDeeperThan(1)).toBe(false);
  });

  it("jsonEqual and canonicalText compare at any depth", () => {
    expect(jsonEqual(deepObject(), deepObject())).toBe(true);
    expect(jsonEqual(deepObject(1), deepObject(2))).toBe(false);
    expect(jsonEqual(deepArray(), deepObject())).toBe(false);
    expect(canonicalText(deepArray())).toBe(`${"[".repeat(LEVELS)}1${"]".repeat(LEVELS)}`);
    expect(canonicalText(deepObject())).toBe(canonicalText(deepObject()));
    expect(canonicalText(deepObject(1))).not.toBe(canonicalText(deepObject(2)));
    // As before: keys sorted, undefined members left out, an undefined element written as such.
    expect(canonicalText({ b: [1, undefined, { d: null, c: "x" }], a: undefined, "": {} })).toBe('{"":{},"b":[1,undefined,{"c":"x","d":null}]}');
    expect(canonicalText(undefined)).toBe("undefined");
    expect(canonicalText([])).toBe("[]");
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual([1, 2], [1, 2, 3])).toBe(false);
  });

  it("continue-remote compares deep entries (sameJson, canon)", () => {
    expect(sameJson(deepObject(), deepObject())).toBe(true);
    expect(sameJson(deepObject(1), deepObject(2))).toBe(false);
    expect(canon(deepObject())).toBe(canon(deepObject()));
  });

  it("stagewise firstJsonDifference finds a difference at any depth, at its pointer", () => {
    expect(firstJsonDifference(deepObject(), deepObject())).toBeUndefined();
    const d = firstJsonDifference(deepObject(1), deepObject(2), "/content");
    expect(d?.path).toBe(`/content${"/a".repeat(LEVELS)}`);
    expect([d?.actual, d?.expected]).toEqual([1, 2]);
    // The order of the recursive walk: elements before an array's length, expected's keys first.
    expect(firstJsonDifference([1, [2, 3], 4], [1, [2], 5])).toEqual({ path: "/1/1", actual: 3, expected: undefined });
    expect(firstJsonDifference({ x: 1, y: 2 }, { y: 3, x: 4 })).toEqual({ path: "/y", actual: 2, expected: 3 });
    expect(firstJsonDifference({ x: 1, z: 2 }, { x: 1 })).toEqual({ path: "/z", actual: 2, expected: undefined });
    expect(firstJsonDifference([NaN], [NaN])).toBeUndefined();
  });

  it("stagewise datePaths reads only the contract's places: a deep value holds no Date of its own and costs no stack", () => {
    for (const kind of ["chat-event", "agent-message", "user-message"] as const) {
      expect(datePaths(deepObject({ createdAt: "2026-01-01T00:00:00.000Z" }), kind)).toEqual([]);
      expect(datePaths(deepArray(), kind)).toEqual([]);
    }
  });

  it("pi-web jsonDiff stops at its bound and says the values nest too deep", () => {
    expect(piWebJsonEqual(deepObject(), deepObject())).toBe(true);
    expect(jsonDiff(deepObject(), deepObject())).toBeUndefined();
    expect(jsonDiff(deepObject(1), deepObject(2))).toBe(`${"/a".repeat(MAX_JSON_DEPTH)}: nested deeper than ${MAX_JSON_DEPTH} levels to compare`);
    expect(jsonDiff(deepObject(1, 3), deepObject(2, 3))).toBe("/a/a/a: 1 vs 2");
  });

  it("copyJson copies at any depth, as structuredClone does a shallow value", () => {
    const v = deepObject({ createdAt: "x" });
    expect(() => structuredClone(v)).toThrow();
    const c = copyJson(v);
    expect(c === v).toBe(false);
    expect(jsonEqual(c, v)).toBe(true);
    const shallow = JSON.parse('{"a":[1,{"b":null}],"__proto__":{"x":1}}') as Record<string, unknown>;
    const date = new Date(0);
    const copied = copyJson({ ...shallow, d: date, list: [date] });
    expect(copied).toEqual(structuredClone({ ...shallow, d: date, list: [date] }));
    expect(Object.hasOwn(copied, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(copied.d).not.toBe(date);
    expect(copied.d).toEqual(date);
  });
});
