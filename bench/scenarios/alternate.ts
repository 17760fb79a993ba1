// Runs each implementation once per round, rotating which one goes first, so slow drift of the
// machine (thermal, other load) spreads over every implementation instead of favouring one.
import { loadImpl } from "../lib/impls.js";
import type { Channel, ImplName } from "../lib/impl.js";

/** Prefix of the `skipped` reason of a record whose measurement threw (run.ts then exits 1). */
export const FAILED_PREFIX = "failed: ";

export function failureReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (
    FAILED_PREFIX +
    message
      .split("\n")
      .find((line) => line.trim() !== "")!
      .trim()
  );
}

/**
 * Runs `measure` for every implementation in every round. A measurement that throws drops that
 * implementation from the remaining rounds and records why in `failures` (the other
 * implementations go on, so one broken package does not lose the whole run).
 */
export async function alternateRounds<T>(
  impls: readonly ImplName[],
  rounds: number,
  measure: (impl: ImplName, round: number) => Promise<T>,
  failures: Map<ImplName, string>,
): Promise<Map<ImplName, T[]>> {
  const samples = new Map<ImplName, T[]>(impls.map((impl) => [impl, []]));
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < impls.length; k++) {
      const impl = impls[(round + k) % impls.length]!;
      if (failures.has(impl)) continue;
      try {
        samples.get(impl)!.push(await measure(impl, round));
      } catch (error) {
        console.error(`  ${impl} failed in round ${round + 1}:`, error instanceof Error ? error.message : error);
        failures.set(impl, failureReason(error));
        samples.delete(impl);
      }
    }
  }
  return samples;
}

/** Splits implementations into the runnable ones and the reasons the others cannot run on `channel`. */
export async function availableImpls(impls: readonly ImplName[], channel: Channel): Promise<{ runnable: ImplName[]; skipped: Map<ImplName, string> }> {
  const runnable: ImplName[] = [];
  const skipped = new Map<ImplName, string>();
  for (const name of impls) {
    let reason: string | undefined;
    try {
      reason = await (await loadImpl(name)).unavailable(channel);
    } catch (error) {
      reason = `could not load: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (reason === undefined) runnable.push(name);
    else skipped.set(name, reason);
  }
  return { runnable, skipped };
}
