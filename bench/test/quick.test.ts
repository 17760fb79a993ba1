// Runs the whole suite at its quick sizes (`tsx run.ts --quick`, under a minute) so no scenario
// can rot: every scenario must report a positive, finite figure for every implementation it
// compares, except the pairs listed in EXPECTED_UNAVAILABLE, which must say why they were skipped.
import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { BenchRecord } from "../lib/report.js";
import { SCENARIOS } from "../scenarios/index.js";

const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));
// Its own file, so running the tests never overwrites the figures of a full `pnpm bench`.
const RESULTS = fileURLToPath(new URL("../results/quick-test.json", import.meta.url));

/** scenario/impl pairs allowed to be skipped, with why. Keep this list short and honest. */
const EXPECTED_UNAVAILABLE: Record<string, string> = {};

let records: BenchRecord[] = [];
let output = "";

beforeAll(async () => {
  const startedAt = Date.now();
  try {
    const run = await promisify(execFile)(process.execPath, ["--import", "tsx", "run.ts", "--quick", "--out=quick-test.json"], {
      cwd: BENCH_DIR,
      maxBuffer: 16 * 1024 * 1024,
      // About 70 s alone on a slow 2-core machine; under `pnpm test` it shares the cores with the
      // CLI's end-to-end tests and once took longer than 170 s there.
      timeout: 480_000,
    });
    output = run.stdout;
  } catch (error) {
    // A failed measurement makes run.ts exit 1 after writing its records; the per-record tests
    // below then name what failed. Anything else (a crash before writing) fails here.
    const failure = error as { stdout?: string; stderr?: string; code?: number };
    if (failure.code !== 1) throw error;
    output = failure.stdout ?? "";
    console.error(failure.stderr);
  }
  expect(statSync(RESULTS).mtimeMs).toBeGreaterThanOrEqual(startedAt - 1000);
  records = JSON.parse(readFileSync(RESULTS, "utf8")) as BenchRecord[];
}, 490_000);

describe("pnpm bench --quick", () => {
  it("writes one well-formed record per scenario, metric and implementation", () => {
    expect(Array.isArray(records)).toBe(true);
    for (const record of records) {
      expect(["acpkit", "official", "raw", "raw-naive"]).toContain(record.impl);
      expect(typeof record.scenario).toBe("string");
      expect(typeof record.unit).toBe("string");
      expect(record.n).toBeGreaterThan(0);
    }
    const keys = records.map((r) => `${r.scenario}/${r.metric}/${r.impl}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  for (const scenario of SCENARIOS) {
    for (const name of scenario.names) {
      for (const impl of scenario.impls) {
        const key = `${name}/${impl}`;
        it(`${key} reports positive finite figures${EXPECTED_UNAVAILABLE[key] ? " or its known skip" : ""}`, () => {
          const mine = records.filter((r) => r.scenario === name && r.impl === impl);
          expect(mine.length, `no record for ${key}`).toBeGreaterThan(0);
          for (const record of mine) {
            if (record.value === null) {
              expect(EXPECTED_UNAVAILABLE[key], `${key} (${record.metric}) was skipped: ${record.skipped}`).toBeDefined();
              expect(record.skipped).toBeTruthy();
              continue;
            }
            expect(Number.isFinite(record.value), `${key} ${record.metric} = ${record.value}`).toBe(true);
            expect(record.value).toBeGreaterThan(0);
            expect(record.rounds).toBeGreaterThanOrEqual(2);
            expect(record.min!).toBeLessThanOrEqual(record.value);
            expect(record.max!).toBeGreaterThanOrEqual(record.value);
          }
        });
      }
    }
  }

  it("prints the table and the target ratios", () => {
    expect(output).toMatch(/scenario\s+metric\s+impl\s+median/);
    expect(output).toMatch(/Targets \(ratios of medians from this run\):/);
    const skipped = records.filter((r) => r.value === null).map((r) => `${r.scenario}/${r.metric}/${r.impl}: ${r.skipped}`);
    if (skipped.length > 0) console.warn(`skipped in the quick run:\n  ${skipped.join("\n  ")}`);
  });
});
