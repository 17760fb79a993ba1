// Scenarios latency-memory, latency-stdio: 2,000 sequential prompts the agent answers at once with
// end_turn; p50 and p99 of the per-prompt round trip in µs.
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { runInFreshProcess } from "../lib/worker-pool.js";
import type { Channel, ImplName } from "../lib/impl.js";
import type { LatencyMeasurement } from "../lib/measure.js";
import { alternateRounds, availableImpls } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const IMPLS: readonly ImplName[] = ["acpkit", "official", "raw"];

export function latencyScenario(channel: Channel): Scenario {
  const scenario = `latency-${channel}`;
  return {
    names: [scenario],
    impls: IMPLS,
    async run(config: BenchConfig): Promise<BenchRecord[]> {
      const { runnable, skipped } = await availableImpls(IMPLS, channel);
      const samples = await alternateRounds(runnable, config.rounds, async (impl, round) => {
        const result = await runInFreshProcess<LatencyMeasurement>({
          kind: "latency",
          impl,
          channel,
          warmup: config.latencyWarmup,
          count: config.latencyPrompts,
        });
        config.log(`  ${scenario} round ${round + 1} ${impl}: p50 ${result.p50Micros.toFixed(1)} µs, p99 ${result.p99Micros.toFixed(1)} µs`);
        return result;
      }, skipped);
      const records: BenchRecord[] = [];
      for (const metric of ["p50", "p99"] as const) {
        const base = { scenario, metric, unit: "µs", n: config.latencyPrompts, better: "lower" as const };
        for (const impl of IMPLS) {
          const implSamples = samples.get(impl);
          records.push(
            implSamples
              ? recordFromSamples({ ...base, impl }, implSamples.map((s) => (metric === "p50" ? s.p50Micros : s.p99Micros)))
              : skippedRecord({ ...base, impl }, skipped.get(impl)!),
          );
        }
      }
      return records;
    },
  };
}
