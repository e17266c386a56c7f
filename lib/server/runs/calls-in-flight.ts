/**
 * A running run's calls in flight, from the engine's count (ExploreOptions.onCallsInFlight) to the run's followers
 * (the bus's live figures, run-log/event-bus.ts), throttled: a beam level's calls start and end within milliseconds
 * of each other, and a page needs no more than a few figures a second. The first change after a quiet spell goes out
 * at once, later ones at most every `intervalMs`, and the last value always goes out (a trailing send), so the
 * figure a page shows settles on the engine's own. Never stored: it is not part of the log.
 * Not responsible for counting the calls (the engine's call gate) or for carrying the figure (the bus, the stream).
 */

/** The least time between two figures of one run sent to its followers. */
export const CALLS_IN_FLIGHT_INTERVAL_MS = 150;

export interface CallsInFlightRelayOptions {
  /** Sends a figure to the run's followers. */
  send: (callsInFlight: number) => void;
  intervalMs?: number;
  /** Clock and timers (tests). */
  now?: () => number;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (timer: unknown) => void;
}

export class CallsInFlightRelay {
  private readonly intervalMs: number;
  private readonly now: () => number;
  private readonly setTimer: (callback: () => void, ms: number) => unknown;
  private readonly clearTimer: (timer: unknown) => void;
  private sent: number | null = null;
  private sentAt = Number.NEGATIVE_INFINITY;
  private latest: number | null = null;
  private timer: unknown = null;
  private stopped = false;

  constructor(private readonly options: CallsInFlightRelayOptions) {
    this.intervalMs = options.intervalMs ?? CALLS_IN_FLIGHT_INTERVAL_MS;
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((callback, ms) => setTimeout(callback, ms));
    this.clearTimer = options.clearTimer ?? ((timer) => clearTimeout(timer as ReturnType<typeof setTimeout>));
  }

  /** The engine's count changed. */
  report(callsInFlight: number): void {
    if (this.stopped) return;
    this.latest = callsInFlight;
    if (this.timer !== null) return; // a send is due: it takes the newest value
    const wait = this.sentAt + this.intervalMs - this.now();
    if (wait <= 0) this.flush();
    else this.timer = this.setTimer(() => this.flush(), wait);
  }

  /** The run stopped here: nothing more is sent, a send that was due included. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
  }

  private flush(): void {
    this.timer = null;
    const value = this.latest;
    if (this.stopped || value === null || value === this.sent) return;
    this.sent = value;
    this.sentAt = this.now();
    this.options.send(value);
  }
}
