import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDebouncer } from './debounce';

describe('createDebouncer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, `ms` after the last keystroke: each keystroke restarts the wait', () => {
    const debouncer = createDebouncer(250);
    const action = vi.fn();
    debouncer.setAction(action);
    debouncer.schedule();
    vi.advanceTimersByTime(200);
    debouncer.schedule();
    vi.advanceTimersByTime(249);
    expect(action).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(action).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('a re-render between keystrokes (the table updated, a new action handed in) neither restarts the wait nor runs early; the latest action runs', () => {
    const debouncer = createDebouncer(250);
    const before = vi.fn();
    const after = vi.fn();
    debouncer.setAction(before);
    debouncer.schedule();
    vi.advanceTimersByTime(100);
    debouncer.setAction(after);
    vi.advanceTimersByTime(100);
    debouncer.setAction(after);
    expect(before).not.toHaveBeenCalled();
    expect(after).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(before).not.toHaveBeenCalled();
    expect(after).toHaveBeenCalledTimes(1);
  });

  it('flush runs what waits at once and nothing later; with nothing waiting it does nothing', () => {
    const debouncer = createDebouncer(250);
    const action = vi.fn();
    debouncer.setAction(action);
    debouncer.flush();
    expect(action).not.toHaveBeenCalled();
    debouncer.schedule();
    expect(debouncer.pending()).toBe(true);
    debouncer.flush();
    expect(action).toHaveBeenCalledTimes(1);
    expect(debouncer.pending()).toBe(false);
    vi.advanceTimersByTime(1_000);
    expect(action).toHaveBeenCalledTimes(1);
  });

  it('cancel drops what waits (the box unmounted)', () => {
    const debouncer = createDebouncer(250);
    const action = vi.fn();
    debouncer.setAction(action);
    debouncer.schedule();
    debouncer.cancel();
    vi.advanceTimersByTime(1_000);
    expect(action).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(0);
  });
});
