import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClock } from './clock';

describe('createClock (the runs list cells clock)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
  });
  afterEach(() => vi.useRealTimers());

  it('ticks every interval while someone listens, on one timer however many listen', () => {
    const clock = createClock(1_000);
    const a = vi.fn();
    const b = vi.fn();
    const stopA = clock.subscribe(a);
    const stopB = clock.subscribe(b);
    expect(vi.getTimerCount()).toBe(1);
    const before = clock.getSnapshot();
    expect(clock.getSnapshot()).toBe(before);
    vi.advanceTimersByTime(1_000);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    expect(clock.getSnapshot()).toBe(before + 1_000);
    stopA();
    stopB();
  });

  it('stops with the last listener, and reads the time afresh when asked again', () => {
    const clock = createClock(1_000);
    const listener = vi.fn();
    clock.subscribe(listener)();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(listener).not.toHaveBeenCalled();
    // a cell mounting after a minute shows the time now, not when the clock stopped
    expect(clock.getSnapshot()).toBe(1_060_000);
    expect(clock.getSnapshot()).toBe(1_060_000);
  });
});
