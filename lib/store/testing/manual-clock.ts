/** A TimerClock the test moves by hand: timers fire only when `advance` passes them. For tests only. */
import type { TimerClock } from '../timer-clock';

export function manualClock(): TimerClock & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let timers: { at: number; callback: () => void; id: number }[] = [];
  let ids = 0;
  return {
    now: () => now,
    setTimeout(callback: () => void, ms: number) {
      timers.push({ at: now + ms, callback, id: ++ids });
      return ids;
    },
    clearTimeout(handle: unknown) {
      timers = timers.filter((t) => t.id !== handle);
    },
    advance(ms: number) {
      now += ms;
      const due = timers.filter((t) => t.at <= now);
      timers = timers.filter((t) => t.at > now);
      for (const t of due) t.callback();
    },
    pending: () => timers.length,
  };
}
