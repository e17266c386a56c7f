// One cost formatter (issue 10, item 13): a model with no price reads "unpriced", never "$0.0000".
import { describe, expect, it } from 'vitest';
import { formatCost, formatSpend } from './cost';

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
