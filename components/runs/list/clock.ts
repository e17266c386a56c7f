/**
 * A ticking clock outside React, read by the few cells that show a time ("12 s ago", a live duration), so the time
 * passing re-renders those cells and not the list: the table used to hold `now` in its own state and re-render
 * every row every second while a run was active (issue 32). One timer however many cells listen, none when none do.
 * Not responsible for formatting (lib/forms formatRelative, lib/contract/format) or for polling the list.
 */
import { useSyncExternalStore } from 'react';

export interface Clock {
  subscribe(listener: () => void): () => void;
  /** The time of the last tick; the same value when read again before the next one, as React requires. */
  getSnapshot(): number;
}

export function createClock(intervalMs: number): Clock {
  const listeners = new Set<() => void>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let now = Date.now();
  const tick = () => {
    now = Date.now();
    for (const listener of listeners) listener();
  };
  return {
    subscribe: (listener) => {
      listeners.add(listener);
      timer ??= setInterval(tick, intervalMs);
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0 || timer === null) return;
        clearInterval(timer);
        timer = null;
      };
    },
    getSnapshot: () => {
      // stopped, nothing moves `now` on: a cell mounting later reads the time afresh, kept for one interval so the
      // several reads of one render agree
      if (timer === null && Date.now() - now >= intervalMs) now = Date.now();
      return now;
    },
  };
}

/**
 * `read(now)` on each tick, re-rendering the caller only when its result changes: return a string or a number
 * (compared with Object.is), so "3 min ago" re-renders once a minute however often the clock ticks.
 */
export function useClock<T extends string | number | null>(clock: Clock, read: (now: number) => T): T {
  const snapshot = () => read(clock.getSnapshot());
  return useSyncExternalStore(clock.subscribe, snapshot, snapshot);
}
