// Scenario reducer: apply 10k, 100k and 200k chunks to one message and to one tool call with
// acpkit's applyUpdate; ns per update at each size. Flat figures mean no quadratic concatenation.
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { runInFreshProcess } from "../lib/worker-pool.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const TARGETS = ["message", "toolcall"] as const;

export function reducerMetric(target: string, size: number): string {
  return `${target}@${size >= 1000 ? `${size / 1000}k` : size}`;
}

export const reducerScenario: Scenario = {
  names: ["reducer"],
  impls: ["acpkit"],
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    let reason: string | undefined;
    try {
      reason = await (await import("../impls/acpkit.js")).reducerUnavailable();
    } catch (error) {
      reason = `acpkit could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
    }
    const records: BenchRecord[] = [];
    for (const target of TARGETS) {
      for (const size of config.reducerSizes) {
        const base = {
          scenario: "reducer",
          impl: "acpkit" as const,
          metric: reducerMetric(target, size),
          unit: "ns/update",
          n: size,
          better: "lower" as const,
        };
        if (reason) {
          records.push(skippedRecord(base, reason));
          continue;
        }
        const samples: number[] = [];
        try {
          for (let round = 0; round < config.rounds; round++) {
            samples.push(await runInFreshProcess<number>({ kind: "reducer", target, size }));
          }
        } catch (error) {
          records.push(skippedRecord(base, failureReason(error)));
          continue;
        }
        config.log(`  reducer ${base.metric}: ${samples.map((s) => s.toFixed(0)).join(", ")} ns/update`);
        records.push(recordFromSamples(base, samples));
      }
    }
    return records;
  },
};
