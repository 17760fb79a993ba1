// Persistent (immutable-to-the-observer) collections for the session reducer.
//
// Why: `applyUpdate` must be pure — the state it is given never changes observably — yet applying
// 200k chunks to one message must cost the same per chunk as applying 10k. Copying arrays per
// update would be O(n) each (O(n²) in total). So:
//
// - `AppendList` shares one backing array between versions and gives each version its own
//   length. Appending to the newest version pushes in place (O(1)): older versions keep their
//   shorter length and never see the new item. Appending to an older version (a branch) copies
//   its prefix first, so versions never disturb each other.
// - `PVector` is a 32-way trie with path copying: replacing one record costs O(log32 n) node
//   copies (one or two small arrays for any realistic session), not a copy of every record.
//   Appending to the newest version fills free slots in place (see pushIn), like AppendList.
// - `Keyed` pairs a PVector with a Map from id to index that is shared along the newest line of
//   versions (ids are only ever added). A lookup trusts an index only if the record stored there,
//   in the caller's version, carries that id, so an older version cannot see ids added later.

/** An append-only list: a backing array shared between versions plus this version's length. */
export interface AppendList<T> {
  readonly items: T[];
  readonly length: number;
}

export function emptyList<T>(): AppendList<T> {
  return { items: [], length: 0 };
}

/** Take ownership of `items` (the caller must not keep or mutate it). */
export function listOf<T>(items: T[]): AppendList<T> {
  return { items, length: items.length };
}

export function append<T>(list: AppendList<T>, item: T): AppendList<T> {
  if (list.length === list.items.length) {
    // Newest version: nobody has appended past our length, so pushing is invisible to others.
    list.items.push(item);
    return { items: list.items, length: list.length + 1 };
  }
  const items = list.items.slice(0, list.length);
  items.push(item);
  return { items, length: items.length };
}

/**
 * The array to push onto when appending several items to `list` at once: its backing array when
 * `list` is the newest version (older versions keep their shorter length), else a copy of its
 * items. Push the new items, then take the result with `listOf`.
 */
export function appendTarget<T>(list: AppendList<T>): T[] {
  return list.length === list.items.length ? list.items : list.items.slice(0, list.length);
}

/** A fresh array with this version's items (callers may keep it). */
export function listToArray<T>(list: AppendList<T>): T[] {
  return list.items.slice(0, list.length);
}

// ── PVector ────────────────────────────────────────────────────────────────────────────────

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

type Node = unknown[];

/** A persistent vector: get/set/push without copying the whole thing. */
export interface PVector<T> {
  readonly size: number;
  /** Depth × BITS of the root (0 when the root is a leaf). */
  readonly shift: number;
  readonly root: Node;
  /** Phantom marker for the element type. */
  readonly _type?: T;
}

export function emptyVector<T>(): PVector<T> {
  return { size: 0, shift: 0, root: [] };
}

export function vectorGet<T>(vector: PVector<T>, index: number): T | undefined {
  if (index < 0 || index >= vector.size) return undefined;
  let node = vector.root;
  for (let level = vector.shift; level > 0; level -= BITS) node = node[(index >>> level) & MASK] as Node;
  return node[index & MASK] as T;
}

export function vectorSet<T>(vector: PVector<T>, index: number, value: T): PVector<T> {
  if (index < 0 || index >= vector.size) throw new RangeError(`PVector index ${index} out of range 0..${vector.size - 1}`);
  return { size: vector.size, shift: vector.shift, root: setIn(vector.root, vector.shift, index, value) };
}

function setIn(node: Node, level: number, index: number, value: unknown): Node {
  const copy = node.slice();
  if (level === 0) copy[index & MASK] = value;
  else {
    const slot = (index >>> level) & MASK;
    copy[slot] = setIn(copy[slot] as Node, level - BITS, index, value);
  }
  return copy;
}

export function vectorPush<T>(vector: PVector<T>, value: T): PVector<T> {
  const { size, shift, root } = vector;
  if (size === 1 << (shift + BITS)) {
    // The trie is full: grow a level, the old root becoming the first child.
    return { size: size + 1, shift: shift + BITS, root: [root, newPath(shift, value)] };
  }
  return { size: size + 1, shift, root: pushIn(root, shift, size, value) };
}

// Appending fills the next free slot of the nodes along the right edge in place, as AppendList
// does, instead of copying a 32-slot array per level. The rule that keeps versions apart: a slot
// is written once and never overwritten, and a node grows only at its end. A version never reads
// past its own size, so it cannot see slots appended after it was made. When the slot this
// version needs is already taken (another version appended there first, or the child below had
// to be copied), the node is copied up to that slot instead.
function pushIn(node: Node, level: number, index: number, value: unknown): Node {
  const slot = (index >>> level) & MASK;
  if (level === 0) {
    if (node.length === slot) {
      node.push(value);
      return node;
    }
    const copy = node.slice(0, slot);
    copy.push(value);
    return copy;
  }
  if (node.length === slot) {
    node.push(newPath(level - BITS, value));
    return node;
  }
  const child = node[slot] as Node;
  const pushed = pushIn(child, level - BITS, index, value);
  if (pushed === child) return node;
  const copy = node.slice(0, slot);
  copy.push(pushed);
  return copy;
}

function newPath(level: number, value: unknown): Node {
  return level === 0 ? [value] : [newPath(level - BITS, value)];
}

/** Visit every element in order. */
export function vectorForEach<T>(vector: PVector<T>, visit: (value: T, index: number) => void): void {
  let index = 0;
  const walk = (node: Node, level: number): void => {
    for (let i = 0; i < node.length && index < vector.size; i++) {
      if (level === 0) visit(node[i] as T, index++);
      else walk(node[i] as Node, level - BITS);
    }
  };
  walk(vector.root, vector.shift);
}

// ── Keyed ──────────────────────────────────────────────────────────────────────────────────

/** Records in first-appearance order, looked up by id. */
export interface Keyed<R> {
  readonly records: PVector<R>;
  /** id → index, shared along the newest line of versions. */
  readonly index: Map<string, number>;
  /** How many ids this version has put in `index`; differs from `index.size` on an older version. */
  readonly indexed: number;
}

export function emptyKeyed<R>(): Keyed<R> {
  return { records: emptyVector(), index: new Map(), indexed: 0 };
}

/** The position of `id` in this version, or `undefined`. `idOf` reads a record's id. */
export function keyedFind<R>(keyed: Keyed<R>, id: string, idOf: (record: R) => string): number | undefined {
  const position = keyed.index.get(id);
  if (position === undefined) return undefined;
  const record = vectorGet(keyed.records, position);
  return record !== undefined && idOf(record) === id ? position : undefined;
}

/** Add a record under `id` at the end. */
export function keyedAdd<R>(keyed: Keyed<R>, id: string, record: R): Keyed<R> {
  return keyedAlias(keyedPushRecord(keyed, record), id, keyed.records.size);
}

/** Point `id` at the record at `position` (used when a record takes a new id). */
export function keyedAlias<R>(keyed: Keyed<R>, id: string, position: number): Keyed<R> {
  let index = keyed.index;
  let had = false;
  if (index.size !== keyed.indexed || index.has(id)) {
    // An older version is branching off, or an existing key would be overwritten (which older
    // versions could see): give this version its own index holding only what it had.
    index = new Map();
    let taken = 0;
    for (const [key, value] of keyed.index) {
      if (taken === keyed.indexed) break;
      index.set(key, value);
      taken++;
    }
    had = index.has(id);
  }
  index.set(id, position);
  return { records: keyed.records, index, indexed: had ? keyed.indexed : keyed.indexed + 1 };
}

function keyedPushRecord<R>(keyed: Keyed<R>, record: R): Keyed<R> {
  return { records: vectorPush(keyed.records, record), index: keyed.index, indexed: keyed.indexed };
}

/** Replace the record at `position`. */
export function keyedSet<R>(keyed: Keyed<R>, position: number, record: R): Keyed<R> {
  return { records: vectorSet(keyed.records, position, record), index: keyed.index, indexed: keyed.indexed };
}
