/**
 * The p-th percentile of sorted samples (nearest rank), as every bench prints its figures. Not a statistic to
 * assert on: benches print, never assert.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** The median of unsorted samples (the upper one of an even count). */
export function median(samples: readonly number[]): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    50,
  );
}

/** Runs `work` `repeat` times and gives the median wall time in ms: a figure one slow run cannot move. */
export function medianMs(work: () => unknown, repeat: number): number {
  const runs: number[] = [];
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    work();
    runs.push(performance.now() - t);
  }
  return median(runs);
}
