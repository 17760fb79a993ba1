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
// - `Keyed` pairs a PVector with a Map from id to index that is shared along the newest line of
//   versions (ids are only ever added). A lookup trusts an index only if the record stored there,
//   in the caller's version, carries that id, so an older version cannot see ids added later.
export function emptyList() {
    return { items: [], length: 0 };
}
/** Take ownership of `items` (the caller must not keep or mutate it). */
export function listOf(items) {
    return { items, length: items.length };
}
export function append(list, item) {
    if (list.length === list.items.length) {
        // Newest version: nobody has appended past our length, so pushing is invisible to others.
        list.items.push(item);
        return { items: list.items, length: list.length + 1 };
    }
    const items = list.items.slice(0, list.length);
    items.push(item);
    return { items, length: items.length };
}
/** A fresh array with this version's items (callers may keep it). */
export function listToArray(list) {
    return list.items.slice(0, list.length);
}
// ── PVector ────────────────────────────────────────────────────────────────────────────────
const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;
export function emptyVector() {
    return { size: 0, shift: 0, root: [] };
}
export function vectorGet(vector, index) {
    if (index < 0 || index >= vector.size)
        return undefined;
    let node = vector.root;
    for (let level = vector.shift; level > 0; level -= BITS)
        node = node[(index >>> level) & MASK];
    return node[index & MASK];
}
export function vectorSet(vector, index, value) {
    if (index < 0 || index >= vector.size)
        throw new RangeError(`PVector index ${index} out of range 0..${vector.size - 1}`);
    return { size: vector.size, shift: vector.shift, root: setIn(vector.root, vector.shift, index, value) };
}
function setIn(node, level, index, value) {
    const copy = node.slice();
    if (level === 0)
        copy[index & MASK] = value;
    else {
        const slot = (index >>> level) & MASK;
        copy[slot] = setIn(copy[slot], level - BITS, index, value);
    }
    return copy;
}
export function vectorPush(vector, value) {
    const { size, shift, root } = vector;
    if (size === 1 << (shift + BITS)) {
        // The trie is full: grow a level, the old root becoming the first child.
        return { size: size + 1, shift: shift + BITS, root: [root, newPath(shift, value)] };
    }
    return { size: size + 1, shift, root: pushIn(root, shift, size, value) };
}
function pushIn(node, level, index, value) {
    const copy = node.slice();
    if (level === 0)
        copy[index & MASK] = value;
    else {
        const slot = (index >>> level) & MASK;
        const child = copy[slot];
        copy[slot] = child === undefined ? newPath(level - BITS, value) : pushIn(child, level - BITS, index, value);
    }
    return copy;
}
function newPath(level, value) {
    return level === 0 ? [value] : [newPath(level - BITS, value)];
}
/** Visit every element in order. */
export function vectorForEach(vector, visit) {
    let index = 0;
    const walk = (node, level) => {
        for (let i = 0; i < node.length && index < vector.size; i++) {
            if (level === 0)
                visit(node[i], index++);
            else
                walk(node[i], level - BITS);
        }
    };
    walk(vector.root, vector.shift);
}
export function emptyKeyed() {
    return { records: emptyVector(), index: new Map(), indexed: 0 };
}
/** The position of `id` in this version, or `undefined`. `idOf` reads a record's id. */
export function keyedFind(keyed, id, idOf) {
    const position = keyed.index.get(id);
    if (position === undefined)
        return undefined;
    const record = vectorGet(keyed.records, position);
    return record !== undefined && idOf(record) === id ? position : undefined;
}
/** Add a record under `id` at the end. */
export function keyedAdd(keyed, id, record) {
    return keyedAlias(keyedPushRecord(keyed, record), id, keyed.records.size);
}
/** Point `id` at the record at `position` (used when a record takes a new id). */
export function keyedAlias(keyed, id, position) {
    let index = keyed.index;
    if (index.size !== keyed.indexed || index.has(id)) {
        // An older version is branching off, or an existing key would be overwritten (which older
        // versions could see): give this version its own index holding only what it had.
        index = new Map();
        let taken = 0;
        for (const [key, value] of keyed.index) {
            if (taken === keyed.indexed)
                break;
            index.set(key, value);
            taken++;
        }
    }
    const had = index.has(id);
    index.set(id, position);
    return { records: keyed.records, index, indexed: had ? keyed.indexed : keyed.indexed + 1 };
}
function keyedPushRecord(keyed, record) {
    return { records: vectorPush(keyed.records, record), index: keyed.index, indexed: keyed.indexed };
}
/** Replace the record at `position`. */
export function keyedSet(keyed, position, record) {
    return { records: vectorSet(keyed.records, position, record), index: keyed.index, indexed: keyed.indexed };
}
//# sourceMappingURL=persistent.js.map