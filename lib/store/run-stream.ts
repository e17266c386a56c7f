/**
 * How the run page reads a run's log, as pure decisions the page's hook (components/run/page/useRunEvents.ts) hands
 * to React Query and the subscription: which page of history to ask for next (from where the store's history
 * reaches, up to the snapshot's seq), which failures are worth asking again and how long to wait, and the
 * connection's state as the page shows it.
 * Not responsible for fetching or folding (React Query and the run store do), nor for the server's paging.
 */

/** Events per page of history. */
export const HISTORY_PAGE = 10_000;

/** Answers that asking again cannot change: a deleted run, or a refusal (a session that ended, a revoked link). */
const STOP_CODES: ReadonlySet<string> = new Set(['NOT_FOUND', 'BAD_REQUEST', 'FORBIDDEN', 'UNAUTHORIZED']);

/** The tRPC error code of a failure, '' when it has none (a dropped connection). */
function codeOf(error: unknown): string {
  return (error as { data?: { code?: string } } | null)?.data?.code ?? '';
}

/**
 * Whether to ask again: a refusal or a missing run stops; a dropped connection or a restarting server is tried
 * again, for as long as it takes, so a blip never leaves the page saying "loading history…" for good.
 */
export function retryUnlessRefused(_failureCount: number, error: unknown): boolean {
  return !STOP_CODES.has(codeOf(error));
}

/** The wait before the next try, slower each time: 0.5 s, 1 s, 2 s... up to 10 s (0: the first retry's). */
export function retryDelayMs(failedBefore: number): number {
  return Math.min(10_000, 500 * 2 ** failedBefore);
}

/** Where the history's next page starts, or null when it has reached the snapshot (the stream brings what follows). */
export function nextHistoryPage(
  eventCount: number,
  snapshotSeq: number,
): { afterSeq: number; untilSeq: number; limit: number } | null {
  return eventCount < snapshotSeq ? { afterSeq: eventCount, untilSeq: snapshotSeq, limit: HISTORY_PAGE } : null;
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
