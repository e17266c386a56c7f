/**
 * A debounce that only its caller's `schedule` restarts: a search box calls it on each keystroke, and a re-render
 * (the table under the box updated) hands in the newest action without touching the wait. An effect keyed on the
 * box's props restarted the wait on every refetch instead (issue 32).
 * Not responsible for what the action does, nor for the text it sends (the box keeps that).
 */
import { useLayoutEffect, useState } from 'react';

export interface Debouncer {
  /** The action to run when the wait ends: the latest one handed in. Does not restart the wait. */
  setAction(action: () => void): void;
  /** (Re)start the wait: the action runs `ms` after the last call. */
  schedule(): void;
  /** Run what waits now (Enter); nothing when nothing waits. */
  flush(): void;
  /** Drop what waits. */
  cancel(): void;
  pending(): boolean;
}

export function createDebouncer(ms: number): Debouncer {
  let action: () => void = () => undefined;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const cancel = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
  const run = () => {
    cancel();
    action();
  };
  return {
    setAction: (next) => {
      action = next;
    },
    schedule: () => {
      cancel();
      timer = setTimeout(run, ms);
    },
    flush: () => {
      if (timer !== null) run();
    },
    cancel,
    pending: () => timer !== null,
  };
}

/**
 * One debouncer for the component's life, running the action of its latest render (so the action may close over
 * props freely) and dropped on unmount.
 */
export function useDebouncer(ms: number, action: () => void): Debouncer {
  const [debouncer] = useState(() => createDebouncer(ms));
  // a layout effect: the action is current before any timer can fire after the commit
  useLayoutEffect(() => debouncer.setAction(action));
  useLayoutEffect(() => () => debouncer.cancel(), [debouncer]);
  return debouncer;
}
