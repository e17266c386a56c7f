import { formatDollars, splitEvenly, sum } from './money';

/** What each person owes for `prices`, plus a tip (a fraction of the total), as printed on the table's bill. */
export function billLines(prices: readonly number[], tipRate: number, people: number): string[] {
  const total = sum([...prices, sum(prices) * tipRate]);
  return splitEvenly(total, people).map((share, i) => `Person ${i + 1}: ${formatDollars(share)}`);
}
