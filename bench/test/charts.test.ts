// The charts docs/performance.md shows are drawn from the records: bar lengths follow the
// medians within each metric, every measured implementation is labelled with its figure, and
// skipped records draw nothing.
import { describe, expect, it } from "vitest";
import { scenarioCharts } from "../lib/charts.js";
import { recordFromSamples, skippedRecord } from "../lib/report.js";

const base = { scenario: "stream-stdio", metric: "throughput", unit: "updates/s", n: 1000, better: "higher" as const };

describe("scenarioCharts", () => {
  it("draws one bar per implementation, scaled per metric, labelled with the median", () => {
    const records = [
      recordFromSamples({ ...base, impl: "acpkit" }, [900, 1000, 1100]),
      recordFromSamples({ ...base, impl: "official" }, [240, 250, 260]),
      recordFromSamples({ ...base, impl: "raw", metric: "p50", unit: "ms", better: "lower" }, [2, 2, 2]),
      skippedRecord({ ...base, scenario: "bundle", impl: "official" }, "not installed"),
    ];
    const charts = scenarioCharts(records);
    expect([...charts.keys()]).toEqual(["stream-stdio"]);
    const svg = charts.get("stream-stdio")!;
    expect(svg.startsWith("<svg")).toBe(true);
    const widths = [...svg.matchAll(/<rect x="\d+" y="\d+" width="([\d.]+)"/g)].map((match) => Number(match[1]));
    expect(widths).toHaveLength(3);
    // acpkit's median (1000) against the metric's largest value (1100), official's 250 likewise.
    expect(widths[0]! / widths[1]!).toBeCloseTo(1000 / 250, 1);
    // The p50 row has its own scale: its only bar spans the whole plot.
    expect(widths[2]).toBeCloseTo(360, 0);
    expect(svg).toContain("1000 updates/s");
    expect(svg).toContain("throughput (updates/s, higher is better)");
    expect(svg).toContain("p50 (ms, lower is better)");
  });

  it("escapes what it prints", () => {
    const svg = scenarioCharts([recordFromSamples({ ...base, impl: "acpkit", metric: "a<b&c" }, [1])]).get("stream-stdio")!;
    expect(svg).toContain("a&lt;b&amp;c");
    expect(svg).not.toContain("a<b");
  });
});
