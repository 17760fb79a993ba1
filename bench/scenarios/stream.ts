// Scenarios stream-memory, stream-stdio, stream-websocket, and over the RFD's remote endpoint
// stream-http (HTTP+SSE) and stream-endpoint-ws (its WebSocket profile): one prompt, 50,000 agent_message_chunk
// updates, validation on at both ends, updates/s from prompt sent to result resolved.
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { runInFreshProcess } from "../lib/worker-pool.js";
import type { Channel, ImplName } from "../lib/impl.js";
import type { StreamMeasurement } from "../lib/measure.js";
import { alternateRounds, availableImpls } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

/** Over stdio the first round's raw pair (one write per message) runs too, for comparison. */
function implsFor(channel: Channel): readonly ImplName[] {
  if (channel === "http" || channel === "endpoint-ws") return ["acpkit", "official"]; // the raw pair has no HTTP endpoint
  if (channel === "fleet-memory" || channel === "fleet-redis") return ["acpkit"]; // only acpkit has a fleet
  return channel === "stdio" ? ["acpkit", "official", "raw", "raw-naive"] : ["acpkit", "official", "raw"];
}

export function streamScenario(channel: Channel): Scenario {
  const scenario = `stream-${channel}`;
  const IMPLS = implsFor(channel);
  return {
    names: [scenario],
    impls: IMPLS,
    async run(config: BenchConfig): Promise<BenchRecord[]> {
      const { runnable, skipped } = await availableImpls(IMPLS, channel);
      const samples = await alternateRounds(
        runnable,
        config.rounds,
        async (impl, round) => {
          const result = await runInFreshProcess<StreamMeasurement>({
            kind: "stream",
            impl,
            channel,
            warmup: config.streamWarmup,
            updates: config.streamUpdates,
          });
          config.log(`  ${scenario} round ${round + 1} ${impl}: ${Math.round(result.updatesPerSecond)} updates/s`);
          return result.updatesPerSecond;
        },
        skipped,
      );
      const base = { scenario, metric: "throughput", unit: "updates/s", n: config.streamUpdates, better: "higher" as const };
      return IMPLS.map((impl) =>
        skipped.has(impl) ? skippedRecord({ ...base, impl }, skipped.get(impl)!) : recordFromSamples({ ...base, impl }, samples.get(impl)!),
      );
    },
  };
}
