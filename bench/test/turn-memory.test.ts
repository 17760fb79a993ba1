// turn-memory.mjs (docs/performance.md, "Memory") must run a real turn longer than what a Turn keeps
// (MAX_KEPT_TURN_UPDATES) over stdio, iterated and awaited, and report it as one JSON line.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { MAX_KEPT_TURN_UPDATES } from "@acpkit/client";
import { describe, expect, it } from "vitest";
import { failureOf, jsonLineOf } from "./helpers/script-output.js";

const SCRIPT = fileURLToPath(new URL("../turn-memory.mjs", import.meta.url));

const turnMemory = (...args: string[]) => jsonLineOf(SCRIPT, args);

describe("turn-memory.mjs", () => {
  it("iterates every update of a turn longer than the cap, and awaits one without iterating", async () => {
    expect(existsSync(SCRIPT)).toBe(true);
    const updates = MAX_KEPT_TURN_UPDATES + 5_000;
    const iterated = await turnMemory(String(updates), "iterate");
    expect(iterated).toMatchObject({ mode: "iterate", updates, iterated: updates });
    expect(iterated.peakHeapMiB).toBeGreaterThan(0);
    expect(iterated.maxRssMiB).toBeGreaterThan(0);
    const awaited = await turnMemory(String(updates), "await");
    expect(awaited).toMatchObject({ mode: "await", updates, iterated: 0 });
  }, 60_000);

  it("refuses a bad argument with a usage line", async () => {
    const failure = await failureOf(SCRIPT, ["lots"]);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("usage: node bench/turn-memory.mjs");
  });
});
