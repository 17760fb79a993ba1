// bearerTokenCheck: the one bearer-token check of both ACP endpoints (this package's listen and
// @acpkit/transport-http's guard).
import { describe, expect, it } from "vitest";
import { bearerTokenCheck } from "../src/index.js";

describe("bearerTokenCheck", () => {
  const matches = bearerTokenCheck("s3cret");

  it("takes the token from Authorization: Bearer (any case of the scheme), else from access_token", () => {
    expect(matches("Bearer s3cret", undefined)).toBe(true);
    expect(matches("bearer s3cret", undefined)).toBe(true);
    expect(matches(undefined, new URLSearchParams("access_token=s3cret"))).toBe(true);
    // A header, when present, is the one that counts.
    expect(matches("Bearer wrong", new URLSearchParams("access_token=s3cret"))).toBe(false);
  });

  it("refuses a wrong, longer, shorter, empty or missing token, and other schemes", () => {
    for (const given of ["Bearer s3crex", "Bearer s3cret2", "Bearer s3cre", "Bearer ", "Basic s3cret"]) expect(matches(given, undefined), given).toBe(false);
    expect(matches(undefined, undefined)).toBe(false);
    expect(matches(undefined, new URLSearchParams())).toBe(false);
  });
});
