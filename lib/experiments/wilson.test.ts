import { describe, expect, it } from 'vitest';
import { wilsonInterval } from './wilson';

// reference values from the formula (python3, z = 1.959963984540054), matching published tables to 4 places
describe('wilsonInterval', () => {
  it.each([
    [0, 10, 0, 0.277533],
    [5, 10, 0.236593, 0.763407],
    [74, 100, 0.64629, 0.815953],
    [10, 10, 0.722467, 1],
    [1, 1, 0.206549, 1],
    [3, 7, 0.15822, 0.749542],
  ])('%i of %i gives [%f, %f]', (successes, n, low, high) => {
    const interval = wilsonInterval(successes, n)!;
    expect(interval.low).toBeCloseTo(low, 5);
    expect(interval.high).toBeCloseTo(high, 5);
  });

  it('keeps both ends inside 0..1 at 0/n and n/n', () => {
    expect(wilsonInterval(0, 3)!.low).toBe(0);
    expect(wilsonInterval(3, 3)!.high).toBe(1);
  });

  it('is null when nothing is done', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it('narrows with a smaller z', () => {
    const wide = wilsonInterval(5, 10)!;
    const narrow = wilsonInterval(5, 10, 1)!;
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
  });

  it('refuses counts that cannot be', () => {
    expect(() => wilsonInterval(11, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 10)).toThrow(RangeError);
  });
});
