/**
 * Exact rational numbers for the Game of 24: classic puzzles such as "3 3 8 8" (8 / (3 - 8 / 3) = 24) go
 * through fractions, and floating point would call 23.999999999999996 a miss. Bigint keeps any expression a
 * person types exact, however large. Values are always reduced with a positive denominator, so structural
 * equality is value equality.
 * Not responsible for parsing expressions (expression.ts) or for the game's rules (verifier.ts).
 */

export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

function abs(n: bigint): bigint {
  return n < 0n ? -n : n;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = abs(a);
  let y = abs(b);
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

/** A reduced rational; throws on a zero denominator (use div for a division that may fail). */
export function rational(num: bigint | number, den: bigint | number = 1n): Rational {
  let n = typeof num === 'bigint' ? num : toBigInt(num);
  let d = typeof den === 'bigint' ? den : toBigInt(den);
  if (d === 0n) throw new RangeError('a rational cannot have a zero denominator');
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d);
  return g > 1n ? { num: n / g, den: d / g } : { num: n, den: d };
}

function toBigInt(n: number): bigint {
  if (!Number.isSafeInteger(n)) throw new RangeError(`not a whole number: ${n}`);
  return BigInt(n);
}

export const ZERO = rational(0n);
export const TWENTY_FOUR = rational(24n);

export function add(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function sub(a: Rational, b: Rational): Rational {
  return rational(a.num * b.den - b.num * a.den, a.den * b.den);
}

export function mul(a: Rational, b: Rational): Rational {
  return rational(a.num * b.num, a.den * b.den);
}

/** Null on division by zero: callers report it in their own words. */
export function div(a: Rational, b: Rational): Rational | null {
  return b.num === 0n ? null : rational(a.num * b.den, a.den * b.num);
}

export function equals(a: Rational, b: Rational): boolean {
  return a.num === b.num && a.den === b.den;
}

/** Negative, zero or positive, like a sort comparator. */
export function compare(a: Rational, b: Rational): number {
  const d = a.num * b.den - b.num * a.den;
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

export function isInteger(a: Rational): boolean {
  return a.den === 1n;
}

/** "24", "-1" or "8/3": the form used in move lines, which parseRational reads back. */
export function formatRational(a: Rational): string {
  return a.den === 1n ? a.num.toString() : `${a.num}/${a.den}`;
}

/**
 * Reads "24", "-1", "8/3", "(-1)" or an exact decimal such as "1.5" (= 3/2). A decimal is taken at its word:
 * "0.666" is 333/500, not 2/3, so a model's rounded value fails an exact check, as it should.
 * Null when the text is not a number.
 */
export function parseRational(text: string): Rational | null {
  const m = /^\(?\s*(-?)(\d+)(?:\.(\d+))?(?:\s*\/\s*(\d+))?\s*\)?$/.exec(text.trim());
  if (!m) return null;
  const [, sign = '', whole = '0', decimals, den] = m;
  if (decimals !== undefined && den !== undefined) return null;
  const scale = decimals ? 10n ** BigInt(decimals.length) : 1n;
  const num = BigInt(whole + (decimals ?? '')) * (sign ? -1n : 1n);
  const denominator = den === undefined ? scale : BigInt(den);
  return denominator === 0n ? null : rational(num, denominator);
}

/** A stable key for a multiset of rationals (sorted), for memoisation and comparisons. */
export function multisetKey(values: readonly Rational[]): string {
  return [...values].sort(compare).map(formatRational).join(' ');
}
