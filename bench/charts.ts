// `tsx bench/charts.ts [results.json] [out-dir]`: draws one SVG per scenario from a results file
// (default bench/results/latest.json) into out-dir (default docs/images/bench). `pnpm bench` does
// this itself after a full run; this redraws from a saved run.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { scenarioCharts } from "./lib/charts.js";
import { RESULTS_DIR, type BenchRecord } from "./lib/report.js";

/** Where the charts docs/performance.md shows live. */
export const CHARTS_DIR = fileURLToPath(new URL("../docs/images/bench/", import.meta.url));

export function writeCharts(records: readonly BenchRecord[], dir = CHARTS_DIR): string[] {
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const [scenario, svg] of scenarioCharts(records)) {
    const file = `${dir.replace(/\/?$/, "/")}${scenario}.svg`;
    writeFileSync(file, svg);
    written.push(file);
  }
  return written;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const input = process.argv[2] ?? `${RESULTS_DIR}latest.json`;
  const records = JSON.parse(readFileSync(input, "utf8")) as BenchRecord[];
  const written = writeCharts(records, process.argv[3]);
  console.log(`wrote ${written.length} charts:\n  ${written.join("\n  ")}`);
}
