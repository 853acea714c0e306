/**
 * The shared-structure list against plain arrays: random pushes, sets and truncations from random earlier versions
 * (so versions branch and share their tail arrays), every version kept checked against its own array to the end, and
 * the changed-index walk against a plain comparison.
 */
import { describe, expect, it } from "vitest";
import { PersistentVector } from "../../src/core/persistent-vector.js";

/** A small deterministic generator, so a failure names a seed that replays it. */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const naiveChanged = <T>(prev: readonly T[], next: readonly T[]): number[] => next.flatMap((x, i) => (x !== prev[i] ? [i] : []));

function changed<T>(prev: PersistentVector<T>, next: PersistentVector<T>): number[] {
  const out: number[] = [];
  next.forEachChanged(prev, (item, i) => {
    expect(item).toBe(next.get(i));
    out.push(i);
  });
  return out;
}

describe("PersistentVector", () => {
  it("from, get and toArray agree with the array at every size around the block and level edges", () => {
    for (const n of [0, 1, 31, 32, 33, 63, 64, 65, 1023, 1024, 1025, 1056, 1057, 32 * 32 * 32 + 1]) {
      const items = Array.from({ length: n }, (_, i) => ({ i }));
      const v = PersistentVector.from(items);
      expect(v.size).toBe(n);
      expect(v.toArray()).toEqual(items);
      for (const i of [0, 1, 31, 32, n - 33, n - 32, n - 1]) if (i >= 0 && i < n) expect(v.get(i)).toBe(items[i]);
      expect(v.get(n)).toBeUndefined();
      expect(v.get(-1)).toBeUndefined();
    }
  });

  it("pushes one by one build the same list as from(), through several levels", () => {
    let v = PersistentVector.empty<number>();
    const kept: PersistentVector<number>[] = [];
    for (let i = 0; i < 40_000; i++) {
      v = v.push(i);
      if (i % 997 === 0) kept.push(v);
    }
    expect(v.toArray()).toEqual(Array.from({ length: 40_000 }, (_, i) => i));
    // Every version kept still holds its own prefix: pushes in place never show through.
    for (const k of kept) expect(k.toArray()).toEqual(Array.from({ length: k.size }, (_, i) => i));
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])("random branching histories, seed %i: every version equals its array to the end", (seed) => {
    const rnd = random(seed);
    const versions: { v: PersistentVector<string>; a: string[] }[] = [{ v: PersistentVector.empty(), a: [] }];
    for (let step = 0; step < 3_000; step++) {
      // Mostly the newest version, sometimes an older one: branches share tails and subtrees.
      const from = rnd(5) === 0 ? versions[rnd(versions.length)]! : versions[versions.length - 1]!;
      const op = rnd(20);
      let next: { v: PersistentVector<string>; a: string[] };
      if (op < 11 || from.a.length === 0) {
        const x = `p${step}`;
        next = { v: from.v.push(x), a: [...from.a, x] };
      } else if (op < 18) {
        const i = rnd(3) === 0 ? from.a.length - 1 : rnd(from.a.length);
        const x = `s${step}`;
        const a = from.a.slice();
        a[i] = x;
        next = { v: from.v.set(i, x), a };
      } else {
        const n = rnd(3) === 0 ? from.a.length - 1 : rnd(from.a.length + 1);
        next = { v: from.v.truncate(n), a: from.a.slice(0, n) };
      }
      expect(next.v.size).toBe(next.a.length);
      expect(changed(from.v, next.v)).toEqual(naiveChanged(from.a, next.a));
      versions.push(next);
    }
    for (const { v, a } of versions) {
      expect(v.toArray()).toEqual(a);
      for (let i = 0; i < a.length; i += 7) expect(v.get(i)).toBe(a[i]);
    }
    // The walk between unrelated versions too (different heights, shared or not).
    for (let k = 0; k < 200; k++) {
      const p = versions[rnd(versions.length)]!;
      const n = versions[rnd(versions.length)]!;
      expect(changed(p.v, n.v)).toEqual(naiveChanged(p.a, n.a));
    }
  });

  it("a truncation across levels lowers the trie and keeps working from there", () => {
    const items = Array.from({ length: 70_000 }, (_, i) => i);
    const v = PersistentVector.from(items);
    for (const n of [69_999, 40_000, 32_769, 32_768, 1_057, 1_024, 33, 32, 1, 0]) {
      const t = v.truncate(n).push(-1);
      expect(t.toArray()).toEqual([...items.slice(0, n), -1]);
      expect(changed(v, t)).toEqual(naiveChanged(items, [...items.slice(0, n), -1]));
    }
    expect(v.toArray()).toEqual(items);
  });

  it("the walk skips what two versions share, also when the newer one grew a level", () => {
    // 1,056 items fill a one-level trie (1,024) and a tail: the next push moves the tail in and adds a level.
    const prev = PersistentVector.from(Array.from({ length: 1_056 }, (_, i) => i));
    const next = prev.push(-1).set(3, -2);
    let reads = 0;
    const get = prev.get.bind(prev);
    prev.get = (i: number) => {
      reads++;
      return get(i);
    };
    expect(changed(prev, next)).toEqual([3, 1_056]);
    // The leaf that was prev's tail is read item by item (32); the old trie, under the new root, only along the set.
    expect(reads).toBeLessThan(40);
  });

  it("refuses a place outside the list", () => {
    const v = PersistentVector.from([1, 2, 3]);
    expect(() => v.set(3, 0)).toThrow(RangeError);
    expect(() => v.truncate(4)).toThrow(RangeError);
  });

  it("a set on a long list copies a few small arrays, not the list", () => {
    // Counted through the arrays the structure allocates: slice() is how it copies a node or a tail.
    const v = PersistentVector.from(Array.from({ length: 1 << 20 }, (_, i) => i));
    const slice = Array.prototype.slice;
    let copied = 0;
    Array.prototype.slice = function (this: unknown[], ...args: [number?, number?]) {
      const r = slice.apply(this, args);
      copied += r.length;
      return r;
    };
    try {
      v.set(12_345, -1);
      v.set(v.size - 1, -1);
      v.push(-1);
      v.truncate(500_000);
    } finally {
      Array.prototype.slice = slice;
    }
    // Four levels of 32 for the set in the trie, a tail of 32 for the other, a path cut for the truncation.
    expect(copied).toBeLessThan(32 * 16);
  });
});
