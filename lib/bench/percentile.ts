/**
 * The p-th percentile of sorted samples (nearest rank), as every bench prints its figures. Not a statistic to
 * assert on: benches print, never assert.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
