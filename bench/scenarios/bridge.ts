// Scenario bridge: stream-stdio with the agent on v2 and the client on v1 through acpkit's bridge,
// against plain v1 (both ends on v1, no bridge), alternating, as a throughput ratio.
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { runInFreshProcess } from "../lib/worker-pool.js";
import type { BenchConfig, Scenario } from "./config.js";

type Mode = "bridge" | "plain-v1";

export const bridgeScenario: Scenario = {
  names: ["bridge"],
  impls: ["acpkit"],
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const reason = await (await import("../impls/acpkit.js")).bridgeUnavailable();
    const base = { scenario: "bridge", impl: "acpkit" as const, n: config.streamUpdates };
    const metrics = [
      { ...base, metric: "bridged-v2-to-v1", unit: "updates/s", better: "higher" as const },
      { ...base, metric: "plain-v1", unit: "updates/s", better: "higher" as const },
      { ...base, metric: "ratio", unit: "×", better: "higher" as const },
    ];
    if (reason) return metrics.map((m) => skippedRecord(m, reason));
    const samples: Record<Mode, number[]> = { bridge: [], "plain-v1": [] };
    for (let round = 0; round < config.rounds; round++) {
      const order: Mode[] = round % 2 === 0 ? ["bridge", "plain-v1"] : ["plain-v1", "bridge"];
      for (const mode of order) {
        const perSecond = await runInFreshProcess<number>({ kind: "bridge", mode, warmup: config.streamWarmup, updates: config.streamUpdates });
        config.log(`  bridge round ${round + 1} ${mode}: ${Math.round(perSecond)} updates/s`);
        samples[mode].push(perSecond);
      }
    }
    // Per-round ratios (each pair ran back to back) are steadier than a ratio of medians.
    const ratios = samples.bridge.map((value, i) => value / samples["plain-v1"][i]!);
    return [recordFromSamples(metrics[0]!, samples.bridge), recordFromSamples(metrics[1]!, samples["plain-v1"]), recordFromSamples(metrics[2]!, ratios)];
  },
};
