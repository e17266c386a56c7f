import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  div,
  equals,
  formatRational,
  isInteger,
  mul,
  multisetKey,
  parseRational,
  rational,
  sub,
} from './rational';

describe('rational', () => {
  it('reduces and keeps the denominator positive', () => {
    expect(rational(6, -4)).toEqual({ num: -3n, den: 2n });
    expect(rational(0, 5)).toEqual({ num: 0n, den: 1n });
    expect(() => rational(1, 0)).toThrow(/zero denominator/);
  });

  it('adds, subtracts, multiplies and divides exactly', () => {
    const third = rational(1, 3);
    expect(formatRational(add(third, third))).toBe('2/3');
    expect(formatRational(add(add(third, third), third))).toBe('1');
    expect(formatRational(sub(rational(3), rational(8, 3)))).toBe('1/3');
    expect(formatRational(mul(rational(2, 3), rational(9)))).toBe('6');
    expect(formatRational(div(rational(8), rational(1, 3)) as never)).toBe('24');
    expect(formatRational(sub(rational(4), rational(5)))).toBe('-1');
  });

  it('returns null on division by zero', () => {
    expect(div(rational(5), rational(0))).toBeNull();
  });

  it('compares by value', () => {
    expect(equals(rational(2, 4), rational(1, 2))).toBe(true);
    expect(equals(rational(1, 3), rational(333, 1000))).toBe(false);
    expect(compare(rational(1, 3), rational(1, 2))).toBe(-1);
    expect(isInteger(rational(8, 4))).toBe(true);
    expect(multisetKey([rational(10), rational(5, 2), rational(4)])).toBe('5/2 4 10');
  });

  it('stays exact beyond floating point', () => {
    const big = rational(2n ** 80n);
    expect(formatRational(add(big, rational(1)))).toBe((2n ** 80n + 1n).toString());
  });

  it('parses integers, fractions, negatives and exact decimals', () => {
    expect(parseRational('24')).toEqual(rational(24));
    expect(parseRational('8/3')).toEqual(rational(8, 3));
    expect(parseRational('(-1)')).toEqual(rational(-1));
    expect(parseRational('1.5')).toEqual(rational(3, 2));
    expect(parseRational('0.666')).toEqual(rational(333, 500));
    for (const bad of ['', 'x', '1/0', '1.5/2', '--1', '3 4']) expect(parseRational(bad)).toBeNull();
  });
});
