/**
 * An immutable list whose versions share their structure, for reducers whose callers keep earlier states: a version
 * made by `push`, `set` or `truncate` costs a few small arrays, not a copy of the list, so reducing a long stream stays
 * linear however many of its states a caller holds on to.
 *
 * A 32-way trie holds the items before the last (partly filled) block of 32; that block, the tail, is an array of its
 * own. `set` copies the path to one item (one array per level: at most four below a million items, none in the tail
 * but the tail), `push` writes into the tail and moves a full tail into the trie once every 32 items, `truncate` cuts
 * the path to the new end. A version knows how many items of its tail array are its own: a push from the newest
 * version writes the next slot of that array in place, which no older version reads, so appending copies nothing.
 *
 * No imports: the stagewise library (browser-safe) uses this too.
 */

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

/** A trie node: its children (levels above 0) or its 32 items (level 0, a leaf). */
type Node = readonly unknown[];

const EMPTY_NODE: Node = Object.freeze([]);

export class PersistentVector<T> {
  private static readonly EMPTY = new PersistentVector<never>(0, BITS, EMPTY_NODE, Object.freeze([]) as never[]);

  /**
   * `shift`: the level of the root (BITS: its children are leaves). `tail`: may be longer than this version's part of it
   * (a later version appended in place); only the first `size - tailStart` slots are this version's.
   */
  private constructor(
    readonly size: number,
    private readonly shift: number,
    private readonly root: Node,
    private readonly tail: T[],
  ) {}

  static empty<T>(): PersistentVector<T> {
    return PersistentVector.EMPTY as PersistentVector<T>;
  }

  /** A version holding `items` (copied: the caller may change its array afterwards). */
  static from<T>(items: readonly T[]): PersistentVector<T> {
    const size = items.length;
    if (size === 0) return PersistentVector.empty();
    const start = tailStart(size);
    let nodes: Node[] = [];
    for (let i = 0; i < start; i += WIDTH) nodes.push(items.slice(i, i + WIDTH));
    let shift = BITS;
    while (nodes.length > WIDTH) {
      const parents: Node[] = [];
      for (let i = 0; i < nodes.length; i += WIDTH) parents.push(nodes.slice(i, i + WIDTH));
      nodes = parents;
      shift += BITS;
    }
    return new PersistentVector(size, shift, nodes, items.slice(start));
  }

  /** The item at `index`, or undefined outside the list. */
  get(index: number): T | undefined {
    if (!(index >= 0 && index < this.size)) return undefined;
    const start = tailStart(this.size);
    if (index >= start) return this.tail[index - start];
    return this.leafAt(index)[index & MASK] as T;
  }

  /** A version with `value` at `index` (0 ≤ index < size). */
  set(index: number, value: T): PersistentVector<T> {
    if (!(index >= 0 && index < this.size)) throw new RangeError(`index ${index} outside a list of ${this.size}`);
    const start = tailStart(this.size);
    if (index >= start) {
      const tail = this.tail.slice(0, this.size - start);
      tail[index - start] = value;
      return new PersistentVector(this.size, this.shift, this.root, tail);
    }
    return new PersistentVector(this.size, this.shift, setIn(this.root, this.shift, index, value), this.tail);
  }

  /** A version with `value` appended. */
  push(value: T): PersistentVector<T> {
    const size = this.size;
    const start = tailStart(size);
    const own = size - start;
    if (size === 0) return new PersistentVector(1, BITS, EMPTY_NODE, [value]);
    if (own < WIDTH) {
      // The next slot of the tail array is nobody's yet when the array ends where this version's part does.
      const tail = this.tail.length === own ? this.tail : this.tail.slice(0, own);
      tail.push(value);
      return new PersistentVector(size + 1, this.shift, this.root, tail);
    }
    // A full tail becomes a leaf (never written again: nothing appends to an array of 32).
    const leaf: Node = this.tail;
    let root: Node;
    let shift = this.shift;
    if (start >>> BITS === 1 << shift) {
      root = [this.root, pathTo(shift, leaf)];
      shift += BITS;
    } else root = pushLeaf(this.root, shift, start, leaf);
    return new PersistentVector(size + 1, shift, root, [value]);
  }

  /** A version of the first `length` items. */
  truncate(length: number): PersistentVector<T> {
    if (!(length >= 0 && length <= this.size)) throw new RangeError(`length ${length} outside a list of ${this.size}`);
    if (length === this.size) return this;
    if (length === 0) return PersistentVector.empty();
    const start = tailStart(length);
    if (start === tailStart(this.size)) return new PersistentVector(length, this.shift, this.root, this.tail.slice(0, length - start));
    // The new tail is the leaf that held the new end; the trie keeps the leaves before it.
    const tail = this.leafAt(start).slice(0, length - start) as T[];
    if (start === 0) return new PersistentVector(length, BITS, EMPTY_NODE, tail);
    let root = cut(this.root, this.shift, start);
    let shift = this.shift;
    while (shift > BITS && root.length === 1) {
      root = root[0] as Node;
      shift -= BITS;
    }
    return new PersistentVector(length, shift, root, tail);
  }

  /** The items as a new array. */
  toArray(): T[] {
    const out: T[] = [];
    if (tailStart(this.size) > 0) collect(this.root, this.shift, out);
    for (let i = 0, own = this.size - tailStart(this.size); i < own; i++) out.push(this.tail[i]!);
    return out;
  }

  /**
   * Calls `fn` for each index of this version whose item is not the one `prev` holds there (any index past `prev`'s
   * end included), in order. Subtrees the two versions share are skipped, so two versions a few updates apart are
   * compared in a few steps; versions that share nothing are compared item by item.
   */
  forEachChanged(prev: PersistentVector<T>, fn: (item: T, index: number) => void): void {
    const start = tailStart(this.size);
    if (start > 0) {
      // The node of prev's trie at the level of this root, covering the same indices (none when prev's is lower).
      let p: Node | undefined = prev.shift >= this.shift && tailStart(prev.size) > 0 ? prev.root : undefined;
      for (let s = prev.shift; p !== undefined && s > this.shift; s -= BITS) p = p[0] as Node | undefined;
      this.changedIn(this.root, p, this.shift, 0, prev, fn);
    }
    for (let i = start; i < this.size; i++) {
      const item = this.tail[i - start]!;
      if (item !== prev.get(i)) fn(item, i);
    }
  }

  private changedIn(node: Node, p: Node | undefined, level: number, offset: number, prev: PersistentVector<T>, fn: (item: T, index: number) => void): void {
    if (node === p) return;
    // prev's root sits lower than this one: it is the leftmost node at its own level.
    if (p === undefined && offset === 0 && level === prev.shift && tailStart(prev.size) > 0) p = prev.root;
    if (node === p) return;
    if (level === 0) {
      for (let j = 0; j < node.length; j++) {
        const item = node[j] as T;
        if (item !== (p !== undefined ? p[j] : prev.get(offset + j))) fn(item, offset + j);
      }
      return;
    }
    for (let k = 0; k < node.length; k++) {
      this.changedIn(node[k] as Node, p?.[k] as Node | undefined, level - BITS, offset + (k << level), prev, fn);
    }
  }

  private leafAt(index: number): Node {
    let node = this.root;
    for (let level = this.shift; level > 0; level -= BITS) node = node[(index >>> level) & MASK] as Node;
    return node;
  }
}

/** Where the tail starts in a list of `size` items: the last block of 32 (a full one when size is a multiple). */
function tailStart(size: number): number {
  return size === 0 ? 0 : ((size - 1) >>> BITS) << BITS;
}

function setIn(node: Node, level: number, index: number, value: unknown): Node {
  const copy = node.slice();
  const k = (index >>> level) & MASK;
  copy[k] = level === 0 ? value : setIn(node[k] as Node, level - BITS, index, value);
  return copy;
}

/** A chain of single-child nodes from `level` down to `leaf`. */
function pathTo(level: number, leaf: Node): Node {
  return level === 0 ? leaf : [pathTo(level - BITS, leaf)];
}

/** `node` (at `level`) with `leaf` as the leaf holding item `index`, the first past its last leaf. */
function pushLeaf(node: Node, level: number, index: number, leaf: Node): Node {
  const copy = node.slice();
  const k = (index >>> level) & MASK;
  copy[k] = level === BITS ? leaf : k < node.length ? pushLeaf(node[k] as Node, level - BITS, index, leaf) : pathTo(level - BITS, leaf);
  return copy;
}

/** `node` (at `level`) keeping only its first `count` items (a positive multiple of 32). */
function cut(node: Node, level: number, count: number): Node {
  if (level === 0) return node;
  const last = (count - 1) >>> level;
  const copy = node.slice(0, last + 1);
  copy[last] = cut(node[last] as Node, level - BITS, count - (last << level));
  return copy;
}

function collect(node: Node, level: number, out: unknown[]): void {
  if (level === 0) {
    for (let i = 0; i < node.length; i++) out.push(node[i]);
    return;
  }
  for (let i = 0; i < node.length; i++) collect(node[i] as Node, level - BITS, out);
}
