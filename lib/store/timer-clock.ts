/**
 * The clock a store's own timers run on: the real one in the page, a hand-moved one in tests (testing/manual-clock.ts).
 * Not responsible for the run's elapsed time (run-clock.ts), which is the run's, not the page's.
 */
export interface TimerClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimerClock: TimerClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
