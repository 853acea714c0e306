/** Comparing neighbouring snapshots: deep equality as the canonical texts see it, and fresh entries per pair. */
import { describe, expect, it } from "vitest";
import type { Exchange } from "../../../src/core/views/exchange.js";
import { freshEntries } from "../../../src/suites/continue-remote/checks/messages.js";
import { canon, readState, sameJson } from "../../../src/suites/continue-remote/checks/support.js";

const PAIRS: [unknown, unknown][] = [
  [{ a: 1, b: [1, { c: "x" }] }, { b: [1, { c: "x" }], a: 1 }],
  [{ a: 1, b: undefined }, { a: 1 }],
  [{ a: 1 }, { a: 1, b: null }],
  [[1, 2], [2, 1]],
  [[1, undefined], [1, null]],
  [{ a: [] }, { a: {} }],
  [{ a: "1" }, { a: 1 }],
  [null, {}],
  [NaN, null],
  ["é", "é"],
  [{ role: "assistant", content: "hi", isStreaming: true }, { role: "assistant", content: "hi", isStreaming: false }],
];

describe("continue-remote snapshot comparison", () => {
  it.each(PAIRS.map((p, i) => [i, ...p]))("pair %i: sameJson agrees with the canonical texts", (_i, a, b) => {
    expect(sameJson(a, b)).toBe(canon(a) === canon(b));
    expect(sameJson(b, a)).toBe(canon(a) === canon(b));
  });

  const x = { request: { t: 0 } } as unknown as Exchange;
  const state = (history: unknown[], n: number) => readState({ json: { chatHistory: history, isProcessing: false }, x }, n, false);
  const u = (content: string) => ({ role: "user", content });

  it("fresh entries are per pair of snapshots, also when checks compare one snapshot with different ones", () => {
    const a = state([u("1")], 0);
    const b = state([u("1"), u("2")], 1);
    const c = state([u("1"), u("2"), u("3")], 2);
    expect(freshEntries(c, b).map((e) => e.content)).toEqual(["3"]);
    // A check that skipped b compares c with a: the answer for (c, b) must not be reused.
    expect(freshEntries(c, a).map((e) => e.content)).toEqual(["2", "3"]);
    expect(freshEntries(c, b).map((e) => e.content)).toEqual(["3"]);
    expect(freshEntries(c, undefined).map((e) => e.content)).toEqual(["1", "2", "3"]);
  });
});
