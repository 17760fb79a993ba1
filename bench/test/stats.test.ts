// The statistics and target arithmetic the report rests on.
import { describe, expect, it } from "vitest";
import { median, percentile } from "../lib/stats.js";
import { checkTargets, medianTargets } from "../lib/targets.js";
import type { BenchRecord } from "../lib/report.js";

describe("percentile", () => {
  it("uses the nearest rank on unsorted samples", () => {
    const samples = [5, 1, 4, 2, 3];
    expect(median(samples)).toBe(3);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile(samples, 100)).toBe(5);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => 100 - i),
        99,
      ),
    ).toBe(99);
  });

  it("refuses an empty sample set", () => {
    expect(() => median([])).toThrow(/empty/);
  });
});

function record(scenario: string, impl: BenchRecord["impl"], value: number | null, metric = "throughput", n = 1): BenchRecord {
  return { scenario, impl, metric, value, unit: "x", n, rounds: 3, better: "higher", ...(value === null ? { skipped: "not built" } : {}) };
}

describe("checkTargets", () => {
  it("compares medians of the same run and reports skipped sides", () => {
    const checks = checkTargets([
      record("stream-stdio", "acpkit", 300),
      record("stream-stdio", "official", 100),
      record("stream-stdio", "raw", 700),
      record("stream-memory", "acpkit", null),
      record("stream-memory", "official", 50),
    ]);
    const byName = new Map(checks.map((c) => [c.target, c]));
    expect(byName.get("stream-stdio acpkit / official")).toMatchObject({ ratio: 3, pass: true });
    expect(byName.get("stream-stdio acpkit / raw (coalescing)")).toMatchObject({ pass: false, bound: 0.8 });
    expect(byName.get("stream-memory acpkit / official")).toMatchObject({ ratio: null, pass: null, note: "not built" });
  });

  it("checks the reducer's largest size against its smallest", () => {
    const checks = checkTargets([
      record("reducer", "acpkit", 100, "message@10k", 10_000),
      record("reducer", "acpkit", 140, "message@200k", 200_000),
      record("reducer", "acpkit", 120, "message@100k", 100_000),
    ]);
    const reducer = checks.find((c) => c.target.startsWith("reducer message"))!;
    expect(reducer.ratio).toBeCloseTo(1.4);
    expect(reducer.pass).toBe(true);
  });

  it("gives the heap growth outside the young generation as information, judged against nothing", () => {
    const checks = checkTargets([
      record("memory", "acpkit", 3, "heap-growth-outside-young-gen"),
      record("memory", "official", 10, "heap-growth-outside-young-gen"),
    ]);
    const outside = checks.find((c) => c.target.startsWith("memory heap growth outside the young generation"))!;
    expect(outside).toMatchObject({ pass: null, info: true });
    expect(outside.ratio).toBeCloseTo(0.3);
    // A ratio above the old 0.25 bound is still not a failure.
    expect(checks.some((c) => c.pass === false && c.target.includes("outside the young generation"))).toBe(false);
  });

  it("prints the bare Node start as information, and judges the cold start on the whole processes", () => {
    const checks = checkTargets([
      record("cold-start", "acpkit", 280, "spawn-to-exit"),
      record("cold-start", "raw", 220, "spawn-to-exit"),
      record("cold-start", "raw", 90, "bare-node"),
    ]);
    expect(checks.find((c) => c.target.startsWith("cold-start bare Node start"))).toMatchObject({ ratio: 90, info: true, pass: null });
    expect(checks.find((c) => c.target === "cold-start acpkit / raw (spawn to exit)")).toMatchObject({ pass: false });
    expect(checks.find((c) => c.target === "cold-start acpkit / raw (spawn to exit)")?.ratio).toBeCloseTo(280 / 220);
  });

  it("judges the import against its floor measured in the same run (≤ 2.1×), with the floor and what the code adds beside it", () => {
    const target = "cold-start import of client + stdio / its floor";
    const over = new Map(
      checkTargets([record("cold-start", "acpkit", 17, "import"), record("cold-start", "acpkit", 8, "import-floor")]).map((c) => [c.target, c]),
    );
    expect(over.get(target)).toMatchObject({ pass: false, bound: 2.1 });
    expect(over.get(target)?.ratio).toBeCloseTo(17 / 8);
    const under = new Map(
      checkTargets([record("cold-start", "acpkit", 16, "import"), record("cold-start", "acpkit", 8, "import-floor")]).map((c) => [c.target, c]),
    );
    expect(under.get(target)).toMatchObject({ pass: true });
    expect(over.get("cold-start import floor: the same module graph, emptied, ms (info)")).toMatchObject({ ratio: 8, info: true, pass: null });
    expect(over.get("cold-start import minus the floor, ms (info)")?.ratio).toBeCloseTo(9);
    // Without the floor there is nothing to judge the import against.
    expect(checkTargets([record("cold-start", "acpkit", 15.5, "import")]).find((c) => c.target === target)).toMatchObject({ pass: null });
  });

  it("judges the shutdown rows: the README agent's exit and close() after a turn, each at most 300 ms", () => {
    const checks = new Map(
      checkTargets([
        record("shutdown", "acpkit", 90, "exit-after-stdin"),
        record("shutdown", "acpkit", 2011, "close-after-turn"),
        record("shutdown", "official", 120, "exit-after-stdin"),
      ]).map((c) => [c.target, c]),
    );
    expect(checks.get("shutdown: README agent's exit after stdin ends, ms (absolute)")).toMatchObject({ pass: true, ratio: 90 });
    expect(checks.get("shutdown: connectAgent().close() after a turn, ms (absolute)")).toMatchObject({ pass: false, ratio: 2011 });
    expect(checks.get("shutdown: official agent's exit after stdin ends, ms (info)")).toMatchObject({ info: true, ratio: 120 });
  });

  it("shows the latency floor next to the latency target: raw / official, the room under the bound, acpkit's cost", () => {
    const checks = checkTargets([
      record("latency-stdio", "acpkit", 21, "p50"),
      record("latency-stdio", "official", 36, "p50"),
      record("latency-stdio", "raw", 17, "p50"),
    ]);
    const byName = new Map(checks.map((c) => [c.target, c]));
    // (21 − 17) / (36 − 17) = 0.21 ≤ 0.35: what acpkit adds over raw, against what the official SDK adds.
    expect(byName.get("latency-stdio p50 (acpkit − raw) / (official − raw)")).toMatchObject({ pass: true });
    expect(byName.get("latency-stdio p50 (acpkit − raw) / (official − raw)")?.ratio).toBeCloseTo(4 / 19);
    expect(byName.get("latency-stdio p50 floor: raw / official (info)")).toMatchObject({ info: true, pass: null });
    expect(byName.get("latency-stdio p50 floor: raw / official (info)")?.ratio).toBeCloseTo(17 / 36);
    expect(byName.get("latency-stdio p50 room: 0.35 × (official − raw), µs (info)")?.ratio).toBeCloseTo(0.35 * 19);
    expect(byName.get("latency-stdio p50 acpkit − raw, µs (info)")?.ratio).toBeCloseTo(4);
    // A run where the other library adds nothing over raw cannot judge the ratio: n/a, not a pass.
    const flat = checkTargets([
      record("latency-stdio", "acpkit", 21, "p50"),
      record("latency-stdio", "official", 17, "p50"),
      record("latency-stdio", "raw", 17, "p50"),
    ]);
    expect(flat.find((c) => c.target === "latency-stdio p50 (acpkit − raw) / (official − raw)")).toMatchObject({ pass: null });
    // Without the raw pair there is no floor to show.
    expect(checkTargets([record("latency-stdio", "official", 36, "p50")]).some((c) => c.target.startsWith("latency-stdio p50 floor"))).toBe(false);
  });

  it("judges several runs on each target's median ratio, and keeps every run's ratio in the note", () => {
    const run = (acpkit: number) => checkTargets([record("cold-start", "acpkit", acpkit, "spawn-to-exit"), record("cold-start", "raw", 100, "spawn-to-exit")]);
    const target = "cold-start acpkit / raw (spawn to exit)";
    // One bad run of three does not decide it; two do.
    const once = medianTargets([run(120), run(140), run(118)]).find((c) => c.target === target)!;
    expect(once).toMatchObject({ pass: true, note: "[1.20, 1.40, 1.18]" });
    expect(once.ratio).toBeCloseTo(1.2);
    expect(medianTargets([run(120), run(140), run(131)]).find((c) => c.target === target)).toMatchObject({ pass: false });
    // A target no run could judge stays n/a.
    expect(medianTargets([run(120), run(140)]).find((c) => c.target.startsWith("stream-stdio"))).toMatchObject({ pass: null, ratio: null });
  });
});
