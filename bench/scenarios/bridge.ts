// Scenario bridge: stream-stdio with acpkit's agent on its v2-shaped model and the client on v1,
// so every update crosses the v1 bridge (agent side: model → v1; client side: v1 → model), as a
// ratio to plain v1 (an agent writing v1 directly on acpkit's core, no model and no agent-side
// bridge, to the same v1 client). Also reports acpkit on the pinned v2 end to end (no conversion),
// and the same turn on the later v2 draft (both sides' later-v2 codecs) as a ratio to the pinned v2,
// and a v1 client in front of `acpkit proxy` reaching that agent in the later draft, as a ratio to plain v1.
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { runInFreshProcess } from "../lib/worker-pool.js";
import { failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

type Mode = "bridge" | "plain-v1" | "v2-native" | "v2-later" | "v1-via-proxy";
const MODES: readonly Mode[] = ["bridge", "plain-v1", "v2-native", "v2-later", "v1-via-proxy"];

async function unavailable(): Promise<string | undefined> {
  try {
    return await (await import("../impls/acpkit.js")).bridgeUnavailable();
  } catch (error) {
    return `acpkit could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export const bridgeScenario: Scenario = {
  names: ["bridge"],
  impls: ["acpkit"],
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const reason = await unavailable();
    // Longer turns and more rounds than the stream scenarios: the figure is a ratio of two runs
    // that differ by ~0.2 µs per update, and 50,000-update turns (~0.15 s) put single rounds
    // anywhere between 0.42 and 1.40 on a shared two-core machine.
    const updates = config.quick ? config.streamUpdates : 4 * config.streamUpdates;
    const rounds = config.quick ? config.rounds : 9;
    const base = { scenario: "bridge", impl: "acpkit" as const, n: updates, better: "higher" as const };
    const metrics = {
      bridge: { ...base, metric: "v2-agent-to-v1-client", unit: "updates/s" },
      "plain-v1": { ...base, metric: "plain-v1", unit: "updates/s" },
      "v2-native": { ...base, metric: "v2-native", unit: "updates/s" },
      "v2-later": { ...base, metric: "v2-later", unit: "updates/s" },
      "v1-via-proxy": { ...base, metric: "later-agent-to-v1-client-via-proxy", unit: "updates/s" },
      ratio: { ...base, metric: "ratio-to-plain-v1", unit: "×" },
      laterRatio: { ...base, metric: "later-ratio-to-pinned-v2", unit: "×" },
      proxyRatio: { ...base, metric: "proxy-ratio-to-plain-v1", unit: "×" },
    };
    if (reason) return Object.values(metrics).map((m) => skippedRecord(m, reason));
    const samples: Record<Mode, number[]> = { bridge: [], "plain-v1": [], "v2-native": [], "v2-later": [], "v1-via-proxy": [] };
    try {
      for (let round = 0; round < rounds; round++) {
        for (let k = 0; k < MODES.length; k++) {
          const mode = MODES[(round + k) % MODES.length]!;
          const perSecond = await runInFreshProcess<number>({ kind: "bridge", mode, warmup: config.streamWarmup, updates });
          config.log(`  bridge round ${round + 1} ${mode}: ${Math.round(perSecond)} updates/s`);
          samples[mode].push(perSecond);
        }
      }
    } catch (error) {
      return Object.values(metrics).map((m) => skippedRecord(m, failureReason(error)));
    }
    // Per-round ratios (the two ran in the same round) are steadier than a ratio of medians.
    const ratios = samples.bridge.map((value, i) => value / samples["plain-v1"][i]!);
    const laterRatios = samples["v2-later"].map((value, i) => value / samples["v2-native"][i]!);
    const proxyRatios = samples["v1-via-proxy"].map((value, i) => value / samples["plain-v1"][i]!);
    return [
      recordFromSamples(metrics.bridge, samples.bridge),
      recordFromSamples(metrics["plain-v1"], samples["plain-v1"]),
      recordFromSamples(metrics["v2-native"], samples["v2-native"]),
      recordFromSamples(metrics["v2-later"], samples["v2-later"]),
      recordFromSamples(metrics.ratio, ratios),
      recordFromSamples(metrics["v1-via-proxy"], samples["v1-via-proxy"]),
      recordFromSamples(metrics.laterRatio, laterRatios),
      recordFromSamples(metrics.proxyRatio, proxyRatios),
    ];
  },
};
