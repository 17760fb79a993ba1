// The regression rule of `pnpm bench:instructions --check`: each of acpkit's figures against the
// committed baseline of the same sizes and Node major version.

/** Allowed growth of a figure over its baseline before the check fails. */
export const REGRESSION = 0.05;

export interface BaselineComparison {
  name: string;
  now: number;
  baseline: number;
  /** now / baseline − 1. */
  change: number;
  regressed: boolean;
}

/** Every figure the baseline names and this run measured, with whether it grew by more than REGRESSION. */
export function compareToBaseline(figures: Readonly<Record<string, number | undefined>>, baseline: Readonly<Record<string, number>>): BaselineComparison[] {
  return Object.entries(baseline).flatMap(([name, base]) => {
    const now = figures[name];
    if (now === undefined) return [];
    const change = now / base - 1;
    // Growth in instructions against the allowed growth, not a quotient: exactly +5% is no regression.
    return [{ name, now, baseline: base, change, regressed: now - base > base * REGRESSION }];
  });
}
