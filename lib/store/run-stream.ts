/**
 * How the run page reads a run's log, as pure decisions the page's reads (components/run/page/run-reads.ts) and its
 * hook (useRunEvents.ts) act on: which failures are worth asking again and how long to wait, how a history answer's
 * NDJSON text becomes events as its bytes arrive, and the connection's state as the page shows it.
 * Not responsible for fetching or folding (the page's reads and the run store do), nor for the server's paging.
 */
import type { ExplorationEvent } from '../contract/events';
import { eventOfHistoryLine, type HistoryLine } from '../contract/run';

/**
 * Answers that asking again cannot change: a bad range, nobody signed in (a session that ended), a refusal (a
 * revoked link), a missing run. Anything else (a dropped connection, a restarting server) is tried again, for as
 * long as it takes, so a blip never leaves the page saying "loading history…" for good.
 */
export function isRefusal(status: number): boolean {
  return status === 400 || status === 401 || status === 403 || status === 404;
}

/** The wait before the next try, slower each time: 0.5 s, 1 s, 2 s... up to 10 s (0: the first retry's). */
export function retryDelayMs(failedBefore: number): number {
  return Math.min(10_000, 500 * 2 ** failedBefore);
}

/**
 * The events of a history answer (NDJSON of HistoryLine: lib/contract/run.ts) as its text arrives in arbitrary pieces:
 * each piece gives the events of the lines it completes (a line holds one event's JSON, which never holds a raw
 * newline), each given back its run's id; an unfinished line waits for the next piece, and is dropped if the answer
 * breaks off there. A JSON.parse per line, and only the new text searched for the first newline: joining a piece's
 * lines into one array to parse copied the text twice more (slice, replaceAll); a 98,831-event history (47 MB) read
 * in 64 KB pieces took 313 ms that way, 163-204 ms this way (in Node; in 1 MB pieces 0.8-1.2 s, now 0.45-0.53 s).
 */
export class NdjsonEvents {
  private rest = '';

  constructor(private readonly runId: string) {}

  push(text: string): ExplorationEvent[] {
    const events: ExplorationEvent[] = [];
    // the rest holds no newline: the first one can only be in the new text
    let newline = text.indexOf('\n');
    if (newline === -1) {
      this.rest += text;
      return events;
    }
    const joined = this.rest + text;
    newline += this.rest.length;
    let start = 0;
    for (; newline !== -1; newline = joined.indexOf('\n', start)) {
      if (newline > start)
        events.push(eventOfHistoryLine(this.runId, JSON.parse(joined.slice(start, newline)) as HistoryLine));
      start = newline + 1;
    }
    this.rest = joined.slice(start);
    return events;
  }
}

export type ConnectionState = 'connecting' | 'live' | 'reconnecting' | 'ended' | 'error';

/**
 * The connection as the page shows it: connecting until the stream can start (the snapshot is in), then from the
 * subscription's status (tRPC's 'pending' is a subscription receiving), 'reconnecting' once something has arrived.
 * `opened`: the subscription has started at least once. tRPC's 'idle' means both "not started yet" (the render that
 * enables it) and "ended": only a subscription that has opened can have ended (the page reads the run's record again
 * on an end it cannot explain, and a record is read once).
 */
export function connectionState(
  started: boolean,
  subscription: 'idle' | 'connecting' | 'pending' | 'error',
  received: boolean,
  opened: boolean,
): ConnectionState {
  if (!started) return 'connecting';
  if (subscription === 'error') return 'error';
  if (subscription === 'pending') return 'live';
  if (subscription === 'connecting') return received ? 'reconnecting' : 'connecting';
  return opened ? 'ended' : 'connecting';
}
