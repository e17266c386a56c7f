/**
 * The run page's history as NDJSON text: the light log of a seq range (model calls without their prompts), one
 * event's JSON per line, one chunk per page of HISTORY_CHUNK rows, each written from the stored rows as they are
 * (run-log/events.ts lightEventLines). Read a page at a time as the client pulls (http/ndjsonBody), so a slow page
 * holds the server to one page ahead, and the event loop serves other requests between pages.
 * Not responsible for who may read (the route), nor for what follows the range (the page's subscription,
 * event-stream.ts, brings the events after the snapshot).
 */
import type { PrismaClient } from '../db/client';
import { lightEventLines } from '../run-log/index';

/**
 * Rows per page: ~2.6 MB of text and ~60-100 ms of the server's thread for a long simulated run's events (98,831
 * rows in 1.6-2.5 s, of which Prisma's reads are 0.85-1.0 s, on this 2-core machine).
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
export async function* historyText(prisma: PrismaClient, runId: string, range: HistoryRange): AsyncGenerator<string> {
  let cursor = range.afterSeq;
  while (cursor < range.untilSeq && !range.signal?.aborted) {
    const { lines, lastSeq } = await lightEventLines(prisma, runId, {
      afterSeq: cursor,
      untilSeq: range.untilSeq,
      limit: HISTORY_CHUNK,
    });
    if (lastSeq === null) return;
    cursor = lastSeq;
    yield `${lines.join('\n')}\n`;
    if (lines.length < HISTORY_CHUNK) return;
  }
}
