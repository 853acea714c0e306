/**
 * How the stagewise-chat checks read frames cheaply without reading them differently: Date paths found by a walk
 * without pair arrays, frames skipped only when they cannot name a createdAt, one Result per message for every check,
 * and batched calls made in order, all of them by the flush.
 */
import { describe, expect, it } from "vitest";
import { datePaths, dotted, inBatches, isObject, mayCarryDates, resultOf, type FrameEvent } from "../../../src/suites/stagewise-chat/checks/support.js";

/** The walk as first written: Object.entries at every level. */
function reference(value: unknown, keys: (string | number)[] = [], out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => reference(v, [...keys, i], out));
  else if (isObject(value))
    for (const [k, v] of Object.entries(value)) {
      if (k === "createdAt" && typeof v === "string") out.push(dotted([...keys, k]));
      else reference(v, [...keys, k], out);
    }
  return out;
}

const frame = (data: string): FrameEvent => ({ kind: "ws-frame", seq: 1, t: 1, probe: "p", connection: "w1", direction: "in", binary: false, data });

const TEXTS = [
  '{"json":{"type":"chat-list","chats":[{"id":"c1","createdAt":"2025-08-08T10:00:00.000Z","title":"a.b"}]}}',
  '{"json":{"chat":{"messages":[{"createdAt":"x","content":[{"createdAt":7}]},{"createdAt":"y"}],"a.b":{"createdAt":"z"}}}}',
  '{"json":{"created\\u0041t":"2025-08-08T10:00:00.000Z","__proto__":{"createdAt":"p"}}}',
  '{"json":{"type":"message-updated","update":{"content":{"type":"text","text":"createdAt"}}}}',
  '{"json":{"type":"message-updated","update":{"content":{"type":"text","text":"hello"}}}}',
  '[1,{"createdAt":"q"},[{"createdAt":null}]]',
];

describe("stagewise-chat frame reading", () => {
  it("finds the Date paths the entries walk finds, and skips only frames that cannot name a createdAt", () => {
    for (const text of TEXTS) {
      const value = JSON.parse(text) as unknown;
      expect(datePaths(value)).toEqual(reference(value));
      if (reference(value).length) expect(mayCarryDates(frame(text))).toBe(true);
    }
    expect(datePaths(JSON.parse(TEXTS[2]!))).toEqual(["json.createdAt", "json.__proto__.createdAt"]);
    expect(mayCarryDates(frame(TEXTS[4]!))).toBe(false);
  });

  it("reads a message once for every check: the same Result, as a first reading gives it", () => {
    const a = JSON.parse('{"id":1,"result":{"type":"data","id":"4","data":{"json":{"id":"4","data":{"type":"agent-state","isWorking":true}}}}}') as Record<string, unknown>;
    const b = JSON.parse(JSON.stringify(a)) as Record<string, unknown>;
    const first = resultOf(a);
    expect(resultOf(a)).toBe(first);
    expect(resultOf(b)).not.toBe(first);
    expect(resultOf(b)).toEqual(first);
    expect(resultOf(a)).toEqual(first);
  });

  it("makes batched calls in order, a batch at a time, and the rest at the flush", () => {
    const seen: number[] = [];
    const b = inBatches((n: number) => void seen.push(n), 3);
    for (let i = 1; i <= 7; i++) b.add(i);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    b.flush();
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7]);
    b.flush();
    expect(seen).toHaveLength(7);
  });
});
