/**
 * The run page's history as NDJSON bytes: the light log of a seq range (model calls without their prompts), one
 * HistoryLine (an event without its runId) per line, one chunk per page of HISTORY_CHUNK rows, each written from the
 * stored rows as they are (run-log/events.ts lightHistoryPage). Read a page at a time as the client pulls
 * (http/ndjsonBody), so a slow page holds the server to one page ahead, and the event loop serves other requests
 * between pages.
 * Not responsible for who may read (the route), nor for what follows the range (the page's subscription,
 * event-stream.ts, brings the events after the snapshot).
 */
import type { PrismaClient } from '../db/client';
import { lightHistoryPage } from '../run-log/index';

/**
 * Rows per page: ~2.4 MB and, on SQLite, ~20 ms of the server's thread for a long simulated run's events (98,831 rows
 * in 0.35-0.42 s on this 2-core machine; on PostgreSQL 0.8 s: npm run bench:history).
 */
export const HISTORY_CHUNK = 5_000;

export interface HistoryRange {
  /** The last seq the client has (0: from the start). */
  afterSeq: number;
  /** The last seq to send (the snapshot's: the page's stream brings what follows). */
  untilSeq: number;
  signal?: AbortSignal;
}

/** The range's light events as NDJSON chunks, a page of the table each; ends at untilSeq or the log's end. */
export async function* historyText(
  prisma: PrismaClient,
  runId: string,
  range: HistoryRange,
): AsyncGenerator<Uint8Array> {
  let cursor = range.afterSeq;
  while (cursor < range.untilSeq && !range.signal?.aborted) {
    const page = await lightHistoryPage(prisma, runId, {
      afterSeq: cursor,
      untilSeq: range.untilSeq,
      limit: HISTORY_CHUNK,
    });
    if (page.lastSeq === null) return;
    cursor = page.lastSeq;
    yield page.ndjson;
    if (page.count < HISTORY_CHUNK) return;
  }
}
