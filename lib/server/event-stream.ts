/**
 * A run's events from a cursor onwards, exactly once and in order: stored ones first, then live ones as they are
 * committed, ending when the run has finished. Used by the tRPC subscription and the NDJSON download.
 * The live listener is attached before the catch-up query, so nothing committed in between is missed; anything
 * the cursor already covers is skipped, and a gap (never expected) is filled from the database.
 * In a cluster the bus carries no events, only `more` (the table has more: read it after the cursor), so the events
 * come from the table alone, whichever instance wrote them; a reconnect's `more` re-reads and checks the run's end.
 * Not responsible for framing (SSE, NDJSON) or for resuming clients (they pass their last seq back).
 */
import type { ExplorationEvent } from '../contract/events';
import type { PrismaClient } from './db/client';
import { type BusMessage, type EventBus, STREAMS_CLOSING } from './event-bus';
import { listEvents } from './repositories/events';
import { getRun } from './repositories/runs';
import { hasEnded } from '../contract/run-status';

const PAGE = 1_000;

/** The last event a run's log can have: nothing follows a finish or a failure. */
function isLast(event: ExplorationEvent): boolean {
  return event.type === 'run.finished' || event.type === 'run.failed';
}

export interface StreamOptions {
  prisma: PrismaClient;
  bus: EventBus;
  runId: string;
  /** The last seq the client has (0 for none). */
  afterSeq: number;
  /** Keep streaming live events until the run finishes (false: stop after the stored ones). */
  follow: boolean;
  signal?: AbortSignal;
}

export async function* streamRunEvents(options: StreamOptions): AsyncGenerator<ExplorationEvent> {
  const { prisma, bus, runId, signal } = options;
  const inbox: BusMessage[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = options.follow
    ? bus.subscribe(runId, (message) => {
        inbox.push(message);
        wake?.();
      })
    : () => {};
  // one abort listener for the whole stream (a listener per wait would pile up over a long run's batches)
  const onAbort = () => wake?.();
  signal?.addEventListener('abort', onAbort, { once: true });
  let cursor = options.afterSeq;
  let finished = false;

  async function* fromDatabase(): AsyncGenerator<ExplorationEvent> {
    for (;;) {
      const page = await listEvents(prisma, runId, { afterSeq: cursor, limit: PAGE });
      for (const event of page) {
        cursor = event.seq;
        if (isLast(event)) finished = true;
        yield event;
      }
      if (page.length < PAGE) return;
    }
  }

  try {
    yield* fromDatabase();
    if (!options.follow || finished) return;
    const run = await getRun(prisma, runId);
    if (!run || hasEnded(run.status)) {
      yield* fromDatabase(); // committed between the catch-up and the status check
      return;
    }
    while (!signal?.aborted && !finished) {
      if (inbox.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
        continue;
      }
      const message = inbox.shift() as BusMessage;
      if (message.kind === 'more') {
        // a committed batch (from any instance), or a reconnect's "read again": the table is the source
        if (message.seq === null || message.seq > cursor) yield* fromDatabase();
        if (message.seq === null && !finished) {
          const after = await getRun(prisma, runId);
          if (!after || hasEnded(after.status)) {
            yield* fromDatabase();
            return;
          }
        }
        continue;
      }
      if (message.kind === 'closed') {
        yield* fromDatabase();
        if (message.reason === STREAMS_CLOSING) return; // this instance is going away: the client reconnects elsewhere
        const after = await getRun(prisma, runId);
        if (!after || hasEnded(after.status)) return; // stopped for good (finished, failed, deleted)
        // one process: a run stopped and not queued again will not go on here (shut down). In a cluster the run goes
        // on wherever it is claimed next (handed back, taken over): the stream ends only with its log.
        if (bus.carriesEvents && after.status !== 'queued') return;
        continue;
      }
      for (const event of message.events) {
        if (event.seq <= cursor) continue;
        if (event.seq > cursor + 1) yield* fromDatabase();
        if (event.seq <= cursor) continue;
        cursor = event.seq;
        if (isLast(event)) finished = true;
        yield event;
      }
    }
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', onAbort);
  }
}
