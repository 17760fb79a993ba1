// The JSON helpers: core's (every package from core up) and @acpkit/schema's two for its own
// modules must agree, since a value checked by one is read by the other.
import * as schema from "@acpkit/schema/lazy";
import { describe, expect, it } from "vitest";
import * as core from "../src/index.js";

const { setOwnField } = core;

describe.each([
  ["@acpkit/core", core],
  ["@acpkit/schema", schema],
])("%s's JSON helpers", (_name, { isJsonObject, ownEntry }) => {
  it("isJsonObject accepts objects only", () => {
    expect([{}, { a: 1 }, Object.create(null)].map(isJsonObject)).toEqual([true, true, true]);
    expect([null, [], "x", 1, undefined].map(isJsonObject)).toEqual([false, false, false, false, false]);
  });

  it("ownEntry never reaches Object.prototype", () => {
    const table: Record<string, string> = { image: "prompt.image" };
    expect(ownEntry(table, "image")).toBe("prompt.image");
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) expect(ownEntry(table, name)).toBeUndefined();
  });
});

describe("setOwnField", () => {
  it('keeps a peer\'s "__proto__" key a field: the prototype stays, JSON keeps it', () => {
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
