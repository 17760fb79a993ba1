// Sizes and rounds for a full run and for `--quick`.
import type { ImplName } from "../lib/impl.js";
import type { BenchRecord } from "../lib/report.js";

export interface BenchConfig {
  quick: boolean;
  rounds: number;
  streamUpdates: number;
  streamWarmup: number;
  latencyPrompts: number;
  latencyWarmup: number;
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
    ? { quick, rounds: 2, streamUpdates: 5_000, streamWarmup: 1_000, latencyPrompts: 200, latencyWarmup: 50, validateCount: 2_000, reducerSizes: [2_000, 10_000, 20_000], log }
    : { quick, rounds: 5, streamUpdates: 50_000, streamWarmup: 5_000, latencyPrompts: 2_000, latencyWarmup: 200, validateCount: 10_000, reducerSizes: [10_000, 100_000, 200_000], log };
}
