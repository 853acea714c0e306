/**
 * An immutable list of records with string ids, found by id in constant time: a {@link PersistentVector} and an index
 * from id to position shared by the versions that descend from one another.
 *
 * The index is only ever added to, so it may name positions a version does not hold (a record set aside by
 * `truncate`, or placed by another version made from the same one); a position is believed only when the version holds
 * that id there. Every id a version holds was placed by it or by a version before it, so an id the index has never
 * seen is in none of them. A version whose index has grown well past its size starts an index of its own (its older
 * versions keep theirs), so the index stays proportional to what is held.
 *
 * No imports beyond the vector: the stagewise library (browser-safe) uses this too.
 */
import { PersistentVector } from "./persistent-vector.js";

/** What versions of one lineage share: every position each id was placed at, and how many placements there were. */
interface IdIndex {
  readonly at: Map<string, number | number[]>;
  placements: number;
}

/** Placements an index may hold beyond twice its version's size before the version rebuilds it. */
const SLACK = 64;

export class IdList<T extends { readonly id: string }> {
  private constructor(
    readonly items: PersistentVector<T>,
    private readonly index: IdIndex,
  ) {}

  /** A list of `records` (copied: the caller may change its array afterwards). */
  static from<T extends { readonly id: string }>(records: readonly T[]): IdList<T> {
    const items = PersistentVector.from(records);
    return new IdList(items, indexOf(items));
  }

  get size(): number {
    return this.items.size;
  }

  at(position: number): T | undefined {
    return this.items.get(position);
  }

  /** The first position holding `id`, or -1 (anything but a string is no id). */
  position(id: unknown): number {
    if (typeof id !== "string") return -1;
    const at = this.index.at.get(id);
    if (at === undefined) return -1;
    if (typeof at === "number") return this.holds(at, id) ? at : -1;
    let first = -1;
    for (const p of at) if (this.holds(p, id) && (first < 0 || p < first)) first = p;
    return first;
  }

  get(id: unknown): T | undefined {
    const p = this.position(id);
    return p < 0 ? undefined : this.items.get(p);
  }

  push(record: T): IdList<T> {
    const items = this.items.push(record);
    return this.placed(items, record.id, items.size - 1);
  }

  /** A version with `record` at `position` (0 ≤ position < size). */
  set(position: number, record: T): IdList<T> {
    const items = this.items.set(position, record);
    // Most replacements keep the id: nothing to note then.
    return this.items.get(position)?.id === record.id ? new IdList(items, this.index) : this.placed(items, record.id, position);
  }

  /** A version of the first `length` records. */
  truncate(length: number): IdList<T> {
    const items = this.items.truncate(length);
    return items === this.items ? this : new IdList(items, this.index);
  }

  toArray(): T[] {
    return this.items.toArray();
  }

  /** The records of this version that `prev` does not hold at the same position (see PersistentVector). */
  forEachChanged(prev: IdList<T>, fn: (record: T, position: number) => void): void {
    this.items.forEachChanged(prev.items, fn);
  }

  private holds(position: number, id: string): boolean {
    return this.items.get(position)?.id === id;
  }

  private placed(items: PersistentVector<T>, id: string, position: number): IdList<T> {
    const index = this.index;
    if (index.placements + 1 > 2 * items.size + SLACK) return new IdList(items, indexOf(items));
    const at = index.at.get(id);
    if (at === undefined) index.at.set(id, position);
    else if (typeof at === "number") {
      if (at !== position) index.at.set(id, [at, position]);
    } else if (!at.includes(position)) at.push(position);
    index.placements++;
    return new IdList(items, index);
  }
}

function indexOf<T extends { readonly id: string }>(items: PersistentVector<T>): IdIndex {
  const index: IdIndex = { at: new Map(), placements: 0 };
  const records = items.toArray();
  for (let p = 0; p < records.length; p++) {
    const id = records[p]!.id;
    const at = index.at.get(id);
    if (at === undefined) index.at.set(id, p);
    else if (typeof at === "number") index.at.set(id, [at, p]);
    else at.push(p);
    index.placements++;
  }
  return index;
}
