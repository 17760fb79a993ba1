// The persistent vector (state/persistent.ts): appending fills free slots of shared nodes in
// place, so every version must still read exactly its own items however versions branch, across
// leaf and level boundaries (32, 1024, 32768 items).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type PVector, emptyVector, vectorForEach, vectorGet, vectorPush, vectorSet } from "../src/state/persistent.js";

function itemsOf<T>(vector: PVector<T>): T[] {
  const items: T[] = [];
  vectorForEach(vector, (value) => items.push(value));
  return items;
}

/** Checks every version against the plain array it should equal, by index and by iteration. */
function expectVersions(versions: ReadonlyArray<{ vector: PVector<string>; expected: string[] }>): void {
  for (const { vector, expected } of versions) {
    expect(vector.size).toBe(expected.length);
    expect(itemsOf(vector)).toEqual(expected);
    for (let i = 0; i < expected.length; i++) if (vectorGet(vector, i) !== expected[i]) expect(vectorGet(vector, i)).toBe(expected[i]);
    expect(vectorGet(vector, expected.length)).toBeUndefined();
  }
}

describe("PVector", () => {
  it("keeps every version intact when older versions are appended to again (branches) across level boundaries", () => {
    let vector = emptyVector<string>();
    const versions: Array<{ vector: PVector<string>; expected: string[] }> = [{ vector, expected: [] }];
    for (let i = 0; i < 1100; i++) {
      vector = vectorPush(vector, `a${i}`);
      versions.push({ vector, expected: versions.at(-1)!.expected.concat(`a${i}`) });
    }
    // Branch off versions in the middle of a leaf, at a full leaf and at a full level.
    for (const size of [0, 5, 31, 32, 33, 500, 1023, 1024]) {
      let branch = versions[size]!.vector;
      let expected = versions[size]!.expected;
      for (let k = 0; k < 40; k++) {
        branch = vectorPush(branch, `b${size}.${k}`);
        expected = expected.concat(`b${size}.${k}`);
        versions.push({ vector: branch, expected });
      }
    }
    expectVersions(versions);
  });

  it("matches a plain array model under any mix of pushes, sets and branches", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("push" as const), from: fc.nat(), value: fc.string({ maxLength: 3 }) }),
      fc.record({ kind: fc.constant("pushMany" as const), from: fc.nat(), count: fc.integer({ min: 1, max: 70 }) }),
      fc.record({ kind: fc.constant("set" as const), from: fc.nat(), at: fc.nat(), value: fc.string({ maxLength: 3 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        const versions: Array<{ vector: PVector<string>; expected: string[] }> = [{ vector: emptyVector(), expected: [] }];
        for (const o of ops) {
          const base = versions[o.from % versions.length]!;
          if (o.kind === "push") {
            versions.push({ vector: vectorPush(base.vector, o.value), expected: [...base.expected, o.value] });
          } else if (o.kind === "pushMany") {
            let { vector } = base;
            const expected = [...base.expected];
            for (let i = 0; i < o.count; i++) {
              vector = vectorPush(vector, `n${versions.length}.${i}`);
              expected.push(`n${versions.length}.${i}`);
            }
            versions.push({ vector, expected });
          } else if (base.expected.length > 0) {
            const at = o.at % base.expected.length;
            const expected = [...base.expected];
            expected[at] = o.value;
            versions.push({ vector: vectorSet(base.vector, at, o.value), expected });
          }
        }
        expectVersions(versions);
      }),
      { numRuns: 200 },
    );
  });
});
