/**
 * The Wilson score interval of a success rate (without continuity correction): the experiments page's error bars
 * and the configuration table's "62% (48-74%)". Chosen over the normal approximation because it stays inside 0..1
 * and is still honest at 0/n, n/n and small n, which is where a short experiment lives.
 * Not responsible for deciding what counts as a success (aggregate.ts counts solved over done cells).
 */
import type { RateInterval } from '../contract/experiments';

/** The normal quantile of a two-sided 95% interval. */
export const Z_95 = 1.959963984540054;

/**
 * The interval of `successes` out of `n` at the confidence `z` says (95% by default); null when n is 0 (no rate
 * to bound). Throws on counts that cannot be (negative, fractional, successes above n).
 */
export function wilsonInterval(successes: number, n: number, z = Z_95): RateInterval | null {
  if (!Number.isInteger(n) || !Number.isInteger(successes) || n < 0 || successes < 0 || successes > n) {
    throw new RangeError(`wilsonInterval: ${successes} successes out of ${n} is not a count`);
  }
  if (n === 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // at 0/n the low end is exactly 0 and at n/n the high end exactly 1; rounding would leave them a hair off
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
  };
}
