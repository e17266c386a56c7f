/**
 * What the run page says of the run as a whole: its status and its elapsed time. Both are the run's, never how much
 * of its log the page has folded so far: a page still reading an old run's log from seq 1 holds a tree that says
 * "running" at every step before the last, and its clock would tick from a start hours ago.
 * A run's whole life is in its log (queued, started, paused, resumed, interrupted, failed, finished: lib/engine
 * reduce folds them into the tree's status), so the page reads its record once, at load, and the stream after it:
 * the live tree's status wins as soon as it has folded past the record's last seq. Up to there the record decides,
 * which also covers logs that cannot say it (a run stored before lifecycle events, an import cut short: the row says
 * interrupted; a run whose database refused its run.failed: the row says failed, and the page reads it again when
 * the stream ends without the log's end). Elapsed counts the time the run was running: the clock stops while it is
 * paused, queued again or interrupted. Pure functions; no React.
 * Not responsible for fetching the record or the log (the page), nor for formatting (lib/contract/format.ts).
 */
import type { ExplorationEvent } from '../contract/events';
import type { StoredRunStatus } from '../contract/run-status';

/** A word on the run's status and how far into its log it speaks: the record's (run.byId) or the live tree's. */
export interface RunFacts {
  status: StoredRunStatus;
  lastSeq: number;
}

/** The run's status: the live tree's once it has folded past the record, the record's before. 'loading' until then. */
export function runStatus(record: RunFacts | null, live: RunFacts | null): StoredRunStatus | 'loading' {
  if (!record) return 'loading';
  return live !== null && live.lastSeq > record.lastSeq ? live.status : record.status;
}

/** The pauses in a log up to `count` events: their total length, and when the one still going began. */
export interface Pauses {
  pausedMs: number;
  /** The ts of the pause under way after the last event read, or null when the run was not paused then. */
  pausedSince: number | null;
}

/** The pauses read so far, and where the reading stopped: the next call goes on from there (pausesAfter). */
export interface PauseReading extends Pauses {
  /** The log read: a reading goes on only over the same array (the store's history grows in place). */
  events: readonly ExplorationEvent[];
  /** Events read. */
  read: number;
  /** A person paused it (or a step ended): a run queued again or interrupted meanwhile stays paused at run.resumed. */
  paused: boolean;
}

/**
 * The pauses of the first `count` events, with the tree's own transitions (tree.ts): a person's pause or a step's
 * end (run.paused) stops a running run, resume or step starts it again; a run queued again or interrupted waits until
 * run.resumed (and stays paused if it was); run.finished and run.failed end it. A wait before run.started (its first
 * run.queued) is not a pause: the clock starts at the start.
 *
 * It goes on from an earlier reading of the same log when that read no further than `count` (a live run's header
 * reads each new event once, not the whole log per event); from the start otherwise (a seek back, another log).
 */
export function pausesAfter(
  earlier: PauseReading | null,
  events: readonly ExplorationEvent[],
  count = events.length,
): PauseReading {
  const until = Math.min(count, events.length);
  const goOn = earlier !== null && earlier.events === events && earlier.read <= until;
  let pausedMs = goOn ? earlier.pausedMs : 0;
  let pausedSince: number | null = goOn ? earlier.pausedSince : null;
  let paused = goOn ? earlier.paused : false;
  const stop = (ts: number) => {
    pausedSince ??= ts;
  };
  const go = (ts: number) => {
    if (pausedSince !== null) pausedMs += Math.max(0, ts - pausedSince);
    pausedSince = null;
  };
  for (let i = goOn ? earlier.read : 0; i < until; i++) {
    const event = events[i] as ExplorationEvent;
    switch (event.type) {
      case 'run.started':
        pausedSince = null;
        paused = false;
        break;
      case 'steer.pause':
      case 'run.paused':
        paused = true;
        stop(event.ts);
        break;
      case 'run.queued':
      case 'run.interrupted':
        stop(event.ts);
        break;
      case 'steer.resume':
      case 'steer.step':
        paused = false;
        go(event.ts);
        break;
      case 'run.resumed':
        if (!paused) go(event.ts);
        break;
      case 'run.finished':
      case 'run.failed':
        go(event.ts);
        break;
      default:
        break;
    }
  }
  return { pausedMs, pausedSince, events, read: until, paused };
}

/** A reader of one log's pauses that goes on from its last reading (pausesAfter): one per page's store. */
export function pauseReader(): (events: readonly ExplorationEvent[], count: number) => Pauses {
  let last: PauseReading | null = null;
  return (events, count) => (last = pausesAfter(last, events, count));
}

/** The run's clock: when it started, when it stopped (finished, or the step looked at), and its pauses. */
export interface Clock {
  startedAt: number | null;
  /** The end of the span: the finish, a past step's time; null while it goes on (then `now`). */
  endAt: number | null;
  pauses: Pauses;
}

/** Milliseconds the run was running from its start to `endAt` (or `now`), its pauses left out; null before it starts. */
export function elapsedMs(clock: Clock, now: number): number | null {
  if (clock.startedAt === null) return null;
  const { pausedMs, pausedSince } = clock.pauses;
  // a pause under way stops the clock where it began
  const end = Math.min(clock.endAt ?? now, pausedSince ?? Infinity);
  return Math.max(0, end - clock.startedAt - pausedMs);
}
