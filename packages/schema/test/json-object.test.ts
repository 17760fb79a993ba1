import { describe, expect, it } from "vitest";
import { isJsonObject, ownEntry } from "../src/index.js";

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
});
