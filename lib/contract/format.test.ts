// The one formatter of a run's figures: a model with no price reads "unpriced", never "$0.0000"; tokens; spans of time.
import { describe, expect, it } from 'vitest';
import { formatCost, formatDuration, formatSpend, formatTokens } from './format';

describe('formatCost and formatSpend', () => {
  it('gives dollars with enough digits for tiny costs', () => {
    expect(formatCost(0)).toBe('$0');
    expect(formatCost(0.0000215)).toBe('$0.000022');
    expect(formatCost(0.0042)).toBe('$0.0042');
    expect(formatCost(1.5)).toBe('$1.50');
  });
  it('says "unpriced" when no call had a price, and what a priced sum leaves out', () => {
    expect(formatSpend({ cost: 0, unpricedCalls: 12 })).toBe('unpriced');
    expect(formatSpend({ cost: 0.0042, unpricedCalls: 1 })).toBe('$0.0042 + 1 unpriced call');
    expect(formatSpend({ cost: 0.0042, unpricedCalls: 0 })).toBe('$0.0042');
    expect(formatSpend({ cost: 0, unpricedCalls: 0 })).toBe('$0');
  });
});

describe('formatDuration', () => {
  it('reads at every scale, tenths of a second cut rather than rounded up', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1_040)).toBe('1.0 s');
    expect(formatDuration(4_260)).toBe('4.2 s');
    expect(formatDuration(59_990)).toBe('59.9 s');
    expect(formatDuration(187_600)).toBe('3 min 7 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(7_500_000)).toBe('2 h 5 min');
    expect(formatDuration(-5)).toBe('0 ms');
  });
});

describe('formatTokens', () => {
  it('groups thousands', () => {
    expect(formatTokens(46_867)).toBe('46,867');
    expect(formatTokens(0)).toBe('0');
  });
});
