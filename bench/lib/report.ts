// Benchmark records, the printed table, and bench/results/latest.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { max, median, min } from "./stats.js";
import type { ImplName } from "./impl.js";

/**
 * One line of bench/results/latest.json. `value` is the median over rounds; `min`/`max` are the
 * extremes of the same samples. A record whose implementation could not run has `value: null`
 * and says why in `skipped`.
 */
export interface BenchRecord {
  scenario: string;
  impl: ImplName;
  /** What was measured when a scenario reports more than one figure (e.g. "p50", "message@200k"). */
  metric: string;
  value: number | null;
  unit: string;
  /** Work items per round (updates, prompts, validations…). */
  n: number;
  rounds: number;
  min?: number;
  max?: number;
  samples?: number[];
  /** Whether a higher value is better (throughput) or lower (latency, memory, ns/update). */
  better: "higher" | "lower";
  /** Why there is no value: the implementation is unavailable, or "failed: <error>" (the run then exits 1). */
  skipped?: string;
}

export function recordFromSamples(base: Omit<BenchRecord, "value" | "min" | "max" | "samples" | "rounds">, samples: number[]): BenchRecord {
  return { ...base, value: median(samples), min: min(samples), max: max(samples), samples, rounds: samples.length };
}

export function skippedRecord(base: Omit<BenchRecord, "value" | "rounds">, reason: string): BenchRecord {
  return { ...base, value: null, rounds: 0, skipped: reason };
}

export const RESULTS_DIR = fileURLToPath(new URL("../results/", import.meta.url));

export function writeResults(file: string, data: unknown): string {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const path = RESULTS_DIR + file;
  writeFileSync(path, JSON.stringify(data, null, 2) + "\n");
  return path;
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (abs >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

/** Prints records as an aligned table: one line per scenario × metric × implementation. */
export function printTable(records: readonly BenchRecord[], write: (line: string) => void = console.log): void {
  const header = ["scenario", "metric", "impl", "median", "min", "max", "unit", "n", "rounds"];
  const rows = records.map((r) =>
    r.value === null
      ? [r.scenario, r.metric, r.impl, "skipped", "", "", r.unit, String(r.n), "0", `(${r.skipped})`]
      : [
          r.scenario,
          r.metric,
          r.impl,
          formatNumber(r.value),
          formatNumber(r.min ?? r.value),
          formatNumber(r.max ?? r.value),
          r.unit,
          String(r.n),
          String(r.rounds),
        ],
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i < widths.length ? (i >= 3 && i <= 5 ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)) : cell))
      .join("  ")
      .trimEnd();
  write(line(header));
  write(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) write(line(row));
}
