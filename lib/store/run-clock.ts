/**
 * What the run page says of the run as a whole: its status and its elapsed time. Both are the run's, never how much
 * of its log the page has folded so far: a page still reading an old run's log from seq 1 holds a tree that says
 * "running" at every step before the last, and its clock would tick from a start hours ago. The run's stored record
 * (the server's word on where it is now) decides, and the live tree overrides it only when it is at least as new
 * (a pause seen on the stream before the record is polled again). Elapsed counts the time the run was running:
 * the clock stops while it is paused. Pure functions; no React.
 * Not responsible for fetching the record or the log (the page), nor for formatting (lib/contract/format.ts).
 */
import type { ExplorationEvent } from '../contract/events';
import type { RunStatus } from '../engine/index';

/** What the header reads of the run's record (run.byId): statuses wider than the engine's (queued, interrupted, failed). */
export interface RunFacts {
  status: string;
  lastSeq: number;
}

/** The live tree's word: its status after its last seq. */
export interface LiveFacts {
  status: RunStatus;
  lastSeq: number;
}

/**
 * The run's status: the record's, unless the live tree has seen at least as far into the log (then it is the newer
 * word: running, paused, finished). A record that says queued, interrupted or failed keeps saying it, since a tree
 * cannot, unless that tree is finished. 'loading' until the record is in.
 */
export function runStatus(record: RunFacts | null, live: LiveFacts | null): string {
  if (!record) return 'loading';
  const newer = live !== null && live.lastSeq > 0 && live.lastSeq >= record.lastSeq;
  if (!newer) return record.status;
  if (['queued', 'interrupted', 'failed'].includes(record.status)) {
    return live.status === 'finished' ? 'finished' : record.status;
  }
  return live.status;
}

/** The pauses in a log up to `count` events: their total length, and when the one still going began. */
export interface Pauses {
  pausedMs: number;
  /** The ts of the pause under way after the last event read, or null when the run was not paused then. */
  pausedSince: number | null;
}

/**
 * The pauses of the first `count` events, with the tree's own transitions (tree.ts): a person's pause or a step's
 * end (run.paused) stops a running run; resume or step starts it again; run.finished ends it.
 */
export function pausesOf(events: readonly ExplorationEvent[], count = events.length): Pauses {
  let pausedMs = 0;
  let pausedSince: number | null = null;
  for (let i = 0; i < Math.min(count, events.length); i++) {
    const event = events[i] as ExplorationEvent;
    switch (event.type) {
      case 'steer.pause':
      case 'run.paused':
        pausedSince ??= event.ts;
        break;
      case 'steer.resume':
      case 'steer.step':
      case 'run.finished':
        if (pausedSince !== null) pausedMs += Math.max(0, event.ts - pausedSince);
        pausedSince = null;
        break;
      default:
        break;
    }
  }
  return { pausedMs, pausedSince };
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
