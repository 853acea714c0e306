/**
 * Finding records by id in the shared-structure list: every version, old ones included, answers as findIndex on its
 * own array would, through ids deleted and placed again elsewhere, branches made from old versions, and the index
 * being started again once it has grown.
 */
import { describe, expect, it } from "vitest";
import { IdList } from "../../src/core/id-list.js";

type R = { id: string; v: number };

function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

describe("IdList", () => {
  it("finds by id, and nothing for an id it does not hold or a value that is no id", () => {
    const l = IdList.from<R>([{ id: "a", v: 1 }, { id: "b", v: 2 }]);
    expect([l.position("a"), l.position("b"), l.position("c"), l.position(1), l.position(undefined)]).toEqual([0, 1, -1, -1, -1]);
    expect(l.get("b")).toEqual({ id: "b", v: 2 });
    expect(l.get("__proto__")).toBeUndefined();
  });

  it("an id truncated away is gone from the new version and still in the old one; placed again elsewhere, both answer", () => {
    const a = IdList.from<R>([{ id: "x", v: 0 }, { id: "y", v: 1 }, { id: "z", v: 2 }]);
    const b = a.truncate(1);
    expect([b.position("y"), b.position("z"), a.position("z")]).toEqual([-1, -1, 2]);
    const c = b.push({ id: "q", v: 3 }).push({ id: "z", v: 4 });
    expect([c.position("z"), a.position("z"), c.position("y")]).toEqual([2, 2, -1]);
    const d = b.push({ id: "z", v: 5 });
    expect([d.position("z"), c.position("z"), a.position("z")]).toEqual([1, 2, 2]);
  });

  it("a set that changes the id moves it", () => {
    const a = IdList.from<R>([{ id: "x", v: 0 }, { id: "y", v: 1 }]);
    const b = a.set(1, { id: "w", v: 2 });
    expect([b.position("y"), b.position("w"), a.position("y"), a.position("w")]).toEqual([-1, 1, 1, -1]);
  });

  it("duplicate ids (a list built by hand): the first place, as findIndex", () => {
    const l = IdList.from<R>([{ id: "x", v: 0 }, { id: "x", v: 1 }, { id: "y", v: 2 }, { id: "x", v: 3 }]);
    expect(l.position("x")).toBe(0);
    expect(l.set(0, { id: "w", v: 4 }).position("x")).toBe(1);
  });

  it.each([11, 12, 13, 14])("random histories with a few ids used again, seed %i: every version answers as findIndex", (seed) => {
    const rnd = random(seed);
    const versions: { l: IdList<R>; a: R[] }[] = [{ l: IdList.from([]), a: [] }];
    for (let step = 0; step < 2_000; step++) {
      const from = rnd(6) === 0 ? versions[rnd(versions.length)]! : versions[versions.length - 1]!;
      const op = rnd(10);
      // Ids from a small pool, so deleted ones come back, at other places.
      const id = `m${rnd(80)}`;
      let next: { l: IdList<R>; a: R[] };
      if (op < 5) {
        if (from.a.some((r) => r.id === id)) continue;
        const r = { id, v: step };
        next = { l: from.l.push(r), a: [...from.a, r] };
      } else if (op < 8 && from.a.length) {
        const i = rnd(from.a.length);
        const r = { id: from.a[i]!.id, v: step };
        const a = from.a.slice();
        a[i] = r;
        next = { l: from.l.set(i, r), a };
      } else {
        const n = rnd(from.a.length + 1);
        next = { l: from.l.truncate(n), a: from.a.slice(0, n) };
      }
      versions.push(next);
    }
    const ids = Array.from({ length: 80 }, (_, k) => `m${k}`);
    for (const { l, a } of versions) {
      expect(l.toArray()).toEqual(a);
      expect(ids.map((id) => l.position(id))).toEqual(ids.map((id) => a.findIndex((r) => r.id === id)));
    }
  });

  it("a long stream of fresh ids, each truncated away again, keeps the index near the list's size", () => {
    let l = IdList.from<R>([{ id: "keep", v: 0 }]);
    const early = l;
    for (let i = 0; i < 100_000; i++) l = l.push({ id: `t${i}`, v: i }).truncate(1);
    // The index was started again along the way: the old ids are gone from it, and the first version still answers.
    const index = (l as unknown as { index: { at: Map<string, unknown> } }).index.at;
    expect(index.size).toBeLessThan(200);
    expect([l.position("keep"), l.position("t5"), early.position("keep"), l.push({ id: "t5", v: 0 }).position("t5")]).toEqual([0, -1, 0, 1]);
  });
});
