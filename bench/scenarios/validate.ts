// Scenario validate: 10,000 mixed session/update params; validations/s, acpkit vs the official zod schemas.
import { recordFromSamples, skippedRecord, type BenchRecord } from "../lib/report.js";
import { runInFreshProcess } from "../lib/worker-pool.js";
import type { ImplName } from "../lib/impl.js";
import { alternateRounds } from "./alternate.js";
import type { BenchConfig, Scenario } from "./config.js";

const IMPLS: readonly ImplName[] = ["acpkit", "official"];

async function acpkitUnavailable(): Promise<string | undefined> {
  try {
    const schema = (await import("@acpkit/schema")) as Record<string, unknown>;
    return typeof schema.validateParams === "function" ? undefined : "@acpkit/schema does not export validateParams";
  } catch (error) {
    return `@acpkit/schema could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export const validateScenario: Scenario = {
  names: ["validate"],
  impls: IMPLS,
  async run(config: BenchConfig): Promise<BenchRecord[]> {
    const acpkitReason = await acpkitUnavailable();
    const runnable = IMPLS.filter((impl) => impl !== "acpkit" || acpkitReason === undefined);
    const failures = new Map<ImplName, string>();
    const samples = await alternateRounds(
      runnable,
      config.rounds,
      async (impl, round) => {
        const perSecond = await runInFreshProcess<number>({ kind: "validate", impl, count: config.validateCount });
        config.log(`  validate round ${round + 1} ${impl}: ${Math.round(perSecond)} validations/s`);
        return perSecond;
      },
      failures,
    );
    const base = { scenario: "validate", metric: "throughput", unit: "validations/s", n: config.validateCount, better: "higher" as const };
    return IMPLS.map((impl) =>
      samples.has(impl)
        ? recordFromSamples({ ...base, impl }, samples.get(impl)!)
        : skippedRecord({ ...base, impl }, failures.get(impl) ?? acpkitReason ?? "unavailable"),
    );
  },
};
