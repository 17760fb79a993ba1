// Scenarios latency-memory, latency-stdio, latency-http, latency-endpoint-ws: sequential prompts the agent answers at once with
// end_turn; p50 and p99 of the per-prompt round trip in µs.
//
// One round, identical for every implementation:
// 1. each implementation gets a fresh worker process (and, on stdio, a fresh agent child), all on
//    the same CPU (lib/cpu-pin.ts), and runs its warm-up prompts alone, one implementation after
//    the other, so the measured code has reached the JIT's steady state;
// 2. the measured prompts are then taken in slices that alternate between the implementations
//    (rotating which goes first), so a change in the machine's state during the round (other
//    jobs, a noisy neighbour) falls on every implementation alike;
// 3. each implementation's p50 and p99 come from all its measured prompts of the round.
// The table reports the median over rounds.
import { cpuForRound } from "../lib/cpu-pin.js";
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { percentile } from "../lib/stats.js";
import { LongLivedWorker } from "../lib/worker-pool.js";
import type { Channel, ImplName } from "../lib/impl.js";
import type { SliceCommand } from "../worker.js";
import { availableImpls, failureReason } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

/** The raw pair has no HTTP endpoint: over the remote endpoint only the two libraries are compared. */
function implsFor(channel: Channel): readonly ImplName[] {
  return channel === "http" || channel === "endpoint-ws" ? ["acpkit", "official"] : ["acpkit", "official", "raw"];
}

interface RoundFigures {
  p50Micros: number;
  p99Micros: number;
}

export function latencyScenario(channel: Channel): Scenario {
  const scenario = `latency-${channel}`;
  const IMPLS = implsFor(channel);
  return {
    names: [scenario],
    impls: IMPLS,
    async run(config: BenchConfig): Promise<BenchRecord[]> {
      const { runnable, skipped } = await availableImpls(IMPLS, channel);
      const samples = new Map<ImplName, RoundFigures[]>(runnable.map((impl) => [impl, []]));
      for (let round = 0; round < config.latencyRounds; round++) {
        const active = runnable.filter((impl) => !skipped.has(impl));
        const order = active.map((_, k) => active[(round + k) % active.length]!);
        const cpu = cpuForRound(round);
        const figures = await latencyRound(channel, order, config, cpu, skipped);
        const line: string[] = [];
        for (const [impl, result] of figures) {
          samples.get(impl)!.push(result);
          line.push(`${impl} p50 ${result.p50Micros.toFixed(1)} / p99 ${result.p99Micros.toFixed(0)}`);
        }
        config.log(`  ${scenario} round ${round + 1}${cpu === undefined ? "" : ` (cpu ${cpu})`}: ${line.join(", ")} µs`);
      }
      for (const impl of skipped.keys()) samples.delete(impl);
      const records: BenchRecord[] = [];
      for (const metric of ["p50", "p99"] as const) {
        const base = { scenario, metric, unit: "µs", n: config.latencyPrompts, better: "lower" as const };
        for (const impl of IMPLS) {
          const implSamples = samples.get(impl);
          records.push(
            implSamples && implSamples.length > 0
              ? recordFromSamples(
                  { ...base, impl },
                  implSamples.map((s) => (metric === "p50" ? s.p50Micros : s.p99Micros)),
                )
              : skippedRecord({ ...base, impl }, skipped.get(impl) ?? "no rounds"),
          );
        }
      }
      return records;
    },
  };
}

/**
 * One round: warm-ups one after the other, then interleaved measured slices. An implementation
 * that fails is recorded in `failures` and left out of this and later rounds.
 */
async function latencyRound(
  channel: Channel,
  order: readonly ImplName[],
  config: BenchConfig,
  cpu: number | undefined,
  failures: Map<ImplName, string>,
): Promise<Map<ImplName, RoundFigures>> {
  const workers = new Map<ImplName, LongLivedWorker>();
  const measured = new Map<ImplName, number[]>();
  const fail = (impl: ImplName, error: unknown) => {
    console.error(`  ${impl} failed in latency-${channel}:`, error instanceof Error ? error.message : error);
    failures.set(impl, failureReason(error));
    workers.delete(impl);
  };
  try {
    for (const impl of order) {
      const worker = new LongLivedWorker({ kind: "latency-slices", impl, channel, warmup: config.latencyWarmup }, { cpu });
      workers.set(impl, worker);
      measured.set(impl, []);
      await worker.start().catch((error: unknown) => fail(impl, error));
    }
    const slices = Math.max(1, Math.round(config.latencyPrompts / config.latencySlice));
    for (let slice = 0; slice < slices; slice++) {
      const count = slice === slices - 1 ? config.latencyPrompts - config.latencySlice * (slices - 1) : config.latencySlice;
      for (let k = 0; k < order.length; k++) {
        const impl = order[(slice + k) % order.length]!;
        const worker = workers.get(impl);
        if (!worker) continue;
        const command: SliceCommand = { kind: "slice", settle: config.latencySettle, count };
        try {
          measured.get(impl)!.push(...(await worker.request<number[]>(command)));
        } catch (error) {
          fail(impl, error);
        }
      }
    }
  } finally {
    await Promise.all([...workers.values()].map((worker) => worker.stop({ kind: "close" } satisfies SliceCommand)));
  }
  const figures = new Map<ImplName, RoundFigures>();
  for (const impl of order) {
    const micros = measured.get(impl);
    if (failures.has(impl) || !micros || micros.length === 0) continue;
    figures.set(impl, { p50Micros: percentile(micros, 50), p99Micros: percentile(micros, 99) });
  }
  return figures;
}
