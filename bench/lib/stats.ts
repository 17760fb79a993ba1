// Small statistics helpers for benchmark samples.

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new Error("percentile of an empty sample set");
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export function min(samples: readonly number[]): number {
  return Math.min(...samples);
}

export function max(samples: readonly number[]): number {
  return Math.max(...samples);
}
