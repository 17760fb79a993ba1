// roundtrip-cost.mjs (docs/performance.md, "Latency") must run real prompt round trips between the
// chosen client and agent in one process and report them as one JSON line; allocations it
// counts as acpkit's come from acpkit's packages only.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { failureOf, jsonLineOf } from "./helpers/script-output.js";

const SCRIPT = fileURLToPath(new URL("../roundtrip-cost.mjs", import.meta.url));

const roundTripCost = (...args: string[]) => jsonLineOf(SCRIPT, args);

describe("roundtrip-cost.mjs", () => {
  it("times round trips between the acpkit client and the acpkit agent", async () => {
    expect(existsSync(SCRIPT)).toBe(true);
    const timed = await roundTripCost("acpkit", "acpkit", "time", "500");
    expect(timed).toMatchObject({ client: "acpkit", agent: "acpkit", mode: "time", prompts: 500 });
    expect(timed.blocks).toHaveLength(5);
    expect(timed.microsPerRoundTrip).toBeGreaterThan(0);
  }, 60_000);

  it("counts allocations in acpkit's packages for an acpkit side, and none for two raw sides", async () => {
    const withClient = await roundTripCost("acpkit", "raw", "alloc", "2000");
    expect(withClient.bytesPerRoundTrip).toBeGreaterThan(0);
    expect(withClient.acpkitBytesPerRoundTrip).toBeGreaterThan(0);
    expect(withClient.acpkitBytesPerRoundTrip as number).toBeLessThan(withClient.bytesPerRoundTrip as number);
    const rawOnly = await roundTripCost("raw", "raw", "alloc", "2000");
    expect(rawOnly.bytesPerRoundTrip).toBeGreaterThan(0);
    expect(rawOnly.acpkitBytesPerRoundTrip).toBe(0);
  }, 60_000);

  it("refuses a bad argument with a usage line", async () => {
    const failure = await failureOf(SCRIPT, ["acpkit", "official"]);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("usage: node bench/roundtrip-cost.mjs");
  });
});
