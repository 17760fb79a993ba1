// Scenario memory: the client's heap growth and peak RSS during stream-stdio (no warm-up turn, a
// fresh client process per round, so the figures are the turn's own).
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { runInFreshProcess } from "../lib/worker-pool.js";
import type { ImplName } from "../lib/impl.js";
import type { StreamMeasurement } from "../lib/measure.js";
import { alternateRounds, availableImpls } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const IMPLS: readonly ImplName[] = ["acpkit", "official", "raw"];
const MB = 1024 * 1024;

export const memoryScenario: Scenario = {
  names: ["memory"],
  impls: IMPLS,
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const { runnable, skipped } = await availableImpls(IMPLS, "stdio");
    const samples = await alternateRounds(
      runnable,
      config.rounds,
      async (impl, round) => {
        const result = await runInFreshProcess<StreamMeasurement>({
          kind: "stream",
          impl,
          channel: "stdio",
          warmup: 0,
          updates: config.streamUpdates,
          sampleMemory: true,
        });
        config.log(
          `  memory round ${round + 1} ${impl}: heap growth ${(result.heapGrowthBytes / MB).toFixed(1)} MiB (outside the young generation ${(result.oldGrowthBytes / MB).toFixed(1)} MiB), retained ${(result.retainedBytes / MB).toFixed(1)} MiB, peak RSS ${(result.peakRssBytes / MB).toFixed(0)} MiB`,
        );
        return result;
      },
      skipped,
    );
    const metrics = [
      ["heap-growth", (s: StreamMeasurement) => s.heapGrowthBytes / MB],
      ["heap-growth-outside-young-gen", (s: StreamMeasurement) => s.oldGrowthBytes / MB],
      ["heap-retained", (s: StreamMeasurement) => s.retainedBytes / MB],
      ["peak-rss", (s: StreamMeasurement) => s.peakRssBytes / MB],
    ] as const;
    const records: BenchRecord[] = [];
    for (const [metric, pick] of metrics) {
      const base = { scenario: "memory", metric, unit: "MiB", n: config.streamUpdates, better: "lower" as const };
      for (const impl of IMPLS) {
        const implSamples = samples.get(impl);
        records.push(implSamples ? recordFromSamples({ ...base, impl }, implSamples.map(pick)) : skippedRecord({ ...base, impl }, skipped.get(impl)!));
      }
    }
    return records;
  },
};
