// Sizes and rounds for a full run and for `--quick`.
import type { ImplName } from "../lib/impl.js";
import type { BenchRecord } from "../lib/report.js";

export interface BenchConfig {
  quick: boolean;
  rounds: number;
  streamUpdates: number;
  streamWarmup: number;
  /** Latency: rounds (a latency round is cheap, so more of them than for the other scenarios). */
  latencyRounds: number;
  /** Latency: measured prompts per implementation per round. */
  latencyPrompts: number;
  /** Latency: unmeasured prompts each implementation's fresh process runs first (JIT steady state). */
  latencyWarmup: number;
  /** Latency: measured prompts per slice; slices of the implementations alternate within a round. */
  latencySlice: number;
  /** Latency: unmeasured prompts at the start of every slice (the process sat idle meanwhile). */
  latencySettle: number;
  validateCount: number;
  reducerSizes: readonly number[];
  log(line: string): void;
}

export interface Scenario {
  /** The names of the records this scenario produces (one scenario may report several). */
  readonly names: readonly string[];
  /** Which implementations it compares; the quick test expects a record for each. */
  readonly impls: readonly ImplName[];
  run(config: BenchConfig): Promise<BenchRecord[]>;
}

export function benchConfig(quick: boolean, log: (line: string) => void): BenchConfig {
  return quick
    ? {
        quick,
        rounds: 2,
        streamUpdates: 5_000,
        streamWarmup: 1_000,
        latencyRounds: 2,
        latencyPrompts: 200,
        latencyWarmup: 200,
        latencySlice: 100,
        latencySettle: 5,
        validateCount: 2_000,
        reducerSizes: [2_000, 10_000, 20_000],
        log,
      }
    : {
        quick,
        rounds: 5,
        streamUpdates: 50_000,
        streamWarmup: 5_000,
        latencyRounds: 9,
        latencyPrompts: 2_000,
        latencyWarmup: 5_000,
        latencySlice: 200,
        latencySettle: 5,
        validateCount: 10_000,
        reducerSizes: [10_000, 100_000, 200_000],
        log,
      };
}
