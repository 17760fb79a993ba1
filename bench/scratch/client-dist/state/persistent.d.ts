/** An append-only list: a backing array shared between versions plus this version's length. */
export interface AppendList<T> {
    readonly items: T[];
    readonly length: number;
}
export declare function emptyList<T>(): AppendList<T>;
/** Take ownership of `items` (the caller must not keep or mutate it). */
export declare function listOf<T>(items: T[]): AppendList<T>;
export declare function append<T>(list: AppendList<T>, item: T): AppendList<T>;
/** A fresh array with this version's items (callers may keep it). */
export declare function listToArray<T>(list: AppendList<T>): T[];
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
export declare function emptyVector<T>(): PVector<T>;
export declare function vectorGet<T>(vector: PVector<T>, index: number): T | undefined;
export declare function vectorSet<T>(vector: PVector<T>, index: number, value: T): PVector<T>;
export declare function vectorPush<T>(vector: PVector<T>, value: T): PVector<T>;
/** Visit every element in order. */
export declare function vectorForEach<T>(vector: PVector<T>, visit: (value: T, index: number) => void): void;
/** Records in first-appearance order, looked up by id. */
export interface Keyed<R> {
    readonly records: PVector<R>;
    /** id → index, shared along the newest line of versions. */
    readonly index: Map<string, number>;
    /** How many ids this version has put in `index`; differs from `index.size` on an older version. */
    readonly indexed: number;
}
export declare function emptyKeyed<R>(): Keyed<R>;
/** The position of `id` in this version, or `undefined`. `idOf` reads a record's id. */
export declare function keyedFind<R>(keyed: Keyed<R>, id: string, idOf: (record: R) => string): number | undefined;
/** Add a record under `id` at the end. */
export declare function keyedAdd<R>(keyed: Keyed<R>, id: string, record: R): Keyed<R>;
/** Point `id` at the record at `position` (used when a record takes a new id). */
export declare function keyedAlias<R>(keyed: Keyed<R>, id: string, position: number): Keyed<R>;
/** Replace the record at `position`. */
export declare function keyedSet<R>(keyed: Keyed<R>, position: number, record: R): Keyed<R>;
export {};
//# sourceMappingURL=persistent.d.ts.map