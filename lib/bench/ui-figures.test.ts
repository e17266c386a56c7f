import { describe, expect, it } from 'vitest';
import { frameStats, parseSizes, ratio, seekFractions } from './ui-figures';

describe('parseSizes', () => {
  it('reads the default list as 1k, 10k and 100k events in ascending order', () => {
    expect(parseSizes()).toEqual([
      { label: '1k', events: 1_000 },
      { label: '10k', events: 10_000 },
      { label: '100k', events: 100_000 },
    ]);
  });

  it('picks the sizes asked for, sorted, without duplicates', () => {
    expect(parseSizes(' 10k, 1k ,10000').map((s) => s.events)).toEqual([1_000, 10_000]);
    expect(parseSizes('2.5k,1m').map((s) => s.events)).toEqual([2_500, 1_000_000]);
  });

  it('refuses what is not a size, rather than measuring something else', () => {
    expect(() => parseSizes('1k,lots')).toThrow(/"lots" is not a size/);
    expect(() => parseSizes('50')).toThrow(/too small/);
    expect(() => parseSizes(',')).toThrow(/names no size/);
  });
});

describe('frameStats', () => {
  it('gives the median, p95, max and the count of frames over 50 ms', () => {
    const deltas = [...Array.from({ length: 18 }, () => 16), 60, 100];
    expect(frameStats(deltas)).toEqual({ frames: 20, median: 16, p95: 100, max: 100, long: 2 });
  });

  it('says NaN, not 0, when no frame was recorded', () => {
    expect(frameStats([]).median).toBeNaN();
  });
});

describe('seekFractions', () => {
  it('is the same list on every pass, inside the margins, each seek moving', () => {
    const a = seekFractions(20);
    expect(a).toEqual(seekFractions(20));
    expect(a).toHaveLength(20);
    for (const f of a) expect(f >= 0.02 && f <= 0.98).toBe(true);
    for (let i = 1; i < a.length; i++)
      expect(Math.abs((a[i] as number) - (a[i - 1] as number))).toBeGreaterThanOrEqual(0.05);
    expect(new Set(a.map((f) => f.toFixed(3))).size).toBe(20);
  });
});

describe('ratio', () => {
  it('divides by the smallest size and gives NaN when a figure is missing', () => {
    expect(ratio(24, 16)).toBe(1.5);
    expect(ratio(NaN, 16)).toBeNaN();
    expect(ratio(10, 0)).toBeNaN();
  });
});
