// How a span of time reads, in the runs list and the run header alike.
import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';

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
