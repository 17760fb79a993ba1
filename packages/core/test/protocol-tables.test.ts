// Core's generated copy of the method tables and closed lists (src/generated/protocol-tables.ts)
// holds what @acpkit/schema's does: the registry answers from it before the validation code is
// loaded, and from the schema package after, so the two must agree on every method and value.
import * as schema from "@acpkit/schema/lazy";
import { describe, expect, it } from "vitest";
import { SESSION_UPDATE_TAGS, STOP_REASONS, isProtocolVersion, isProtocolVersionLoaded, schemaRegistry } from "../src/index.js";

describe.each([1, 2] as const)("protocol v%i", (version) => {
  it("has the schema package's closed lists", () => {
    expect(STOP_REASONS[version]).toEqual(schema.STOP_REASONS[version]);
    expect(SESSION_UPDATE_TAGS[version]).toEqual(schema.SESSION_UPDATE_TAGS[version]);
  });

  // Nothing in this file loads a version, so the registry answers from core's own tables.
  it("knows every method of the schema package's table, with its direction, kind and $defs, and no other", () => {
    expect(isProtocolVersionLoaded(version)).toBe(false);
    for (const entry of schema.methodTable(version)) {
      const info = schemaRegistry.getMethod(version, entry.method);
      expect(
        info && { method: info.method, direction: info.direction, kind: info.kind, paramsType: info.paramsType, resultType: info.resultType },
        entry.method,
      ).toEqual({
        resultType: undefined,
        ...entry,
      });
    }
    expect(schemaRegistry.getMethod(version, "session/no_such_method")).toBeUndefined();
  });
});

it("isProtocolVersion agrees with the schema package's", () => {
  for (const value of [0, 1, 2, 3, "1", null, 1.5]) expect(isProtocolVersion(value), String(value)).toBe(schema.isProtocolVersion(value));
});
