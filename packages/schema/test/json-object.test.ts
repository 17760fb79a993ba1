import { describe, expect, it } from "vitest";
import { isJsonObject, ownEntry, setOwnField } from "../src/index.js";

describe("JSON helpers", () => {
  it("isJsonObject accepts objects only", () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isJsonObject)).toEqual([true, true, true]);
    expect([null, [], "x", 1, undefined].map(isJsonObject)).toEqual([false, false, false, false, false]);
  });

  it("ownEntry never reaches Object.prototype", () => {
    const table: Record<string, string> = { image: "prompt.image" };
    expect(ownEntry(table, "image")).toBe("prompt.image");
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) expect(ownEntry(table, name)).toBeUndefined();
  });

  it('setOwnField keeps a peer\'s "__proto__" key a field: the prototype stays, JSON keeps it', () => {
    const parsed = JSON.parse('{"__proto__":{"status":"completed"},"title":"t"}') as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(["__proto__", "title"]);
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(parsed)) setOwnField(copy, key, value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(copy.status).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"status":"completed"},"title":"t"}');
    // What plain assignment does, for contrast: the field is gone and its members show through.
    const assigned: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(parsed)) assigned[key] = value;
    expect(JSON.stringify(assigned)).toBe('{"title":"t"}');
    expect(assigned.status).toBe("completed");
  });
});
