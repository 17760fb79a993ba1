// RT33: the agent's request ids, made unique across the agent processes of one connection.
import { describe, expect, it } from "vitest";
import { toAgentId, toClientId } from "../src/fleet/request-ids.js";

describe("RT33: request ids across adoptions", () => {
  it("the first process's ids are unchanged, both ways", () => {
    for (const id of [0, 7, -1, 2 ** 40, "7", "abc"]) {
      expect(toClientId(id, 0)).toBe(id);
      expect(toAgentId(id, 0)).toBe(id);
    }
  });

  it('later epochs fold the epoch in, and an answer converts back exactly (1 is not "1")', () => {
    const ids = [0, 1, 2 ** 32 - 1, 2 ** 32, -3, 1.5, "1", "", "a~b"];
    for (const epoch of [1, 2, 37]) {
      const seen = new Set<string>();
      for (const id of ids) {
        const client = toClientId(id, epoch);
        expect(toAgentId(client, epoch), `${JSON.stringify(id)} in epoch ${epoch}`).toStrictEqual(id);
        seen.add(JSON.stringify(client));
      }
      expect(seen.size).toBe(ids.length);
    }
    expect(toClientId(5, 3)).toBe(3 * 2 ** 32 + 5);
    expect(toClientId("x", 3)).toBe("3~x");
  });

  it("an answer to another epoch's request is dropped (undefined)", () => {
    expect(toAgentId(toClientId(5, 1), 2)).toBeUndefined();
    expect(toAgentId(5, 1)).toBeUndefined();
    expect(toAgentId("2~x", 1)).toBeUndefined();
    expect(toAgentId(null, 1)).toBeUndefined();
  });
});
