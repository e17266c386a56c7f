/**
 * Prisma's in-memory query history, emptied when a run ends. Prisma keeps its last 100 debug calls whether DEBUG is
 * set or not (to put them in a bug report): the client runtime's `prisma.$executeRaw(<sql>, <values>)` lines and the
 * driver adapter's queries with their arguments. Our writes pass a run's events as arguments (500 payloads a batch,
 * the finished tree's snapshot as one 16 MB text), so after a 100k-event run those entries held ~80 MB of the run's
 * text in the server's heap until later queries pushed them out (found with bench:server's heap snapshot).
 * Not responsible for logging: DEBUG=prisma:* prints as before; only the kept copies go.
 */
import { Debug } from '@prisma/client/runtime/client';
import { clearLogs } from '@prisma/debug';

/** How many calls Prisma's debug keeps (MAX_ARGS_HISTORY in @prisma/debug). */
const HISTORY_LENGTH = 100;

const filler = Debug('arborist:query-history');

/**
 * Lets go of the queries Prisma remembers: the adapter's history (@prisma/debug, one module for the process: next.config
 * keeps it external) is cleared; the client runtime bundles its own copy without a clear, so its entries are pushed out
 * by empty ones.
 */
export function forgetQueryHistory(): void {
  clearLogs();
  for (let i = 0; i < HISTORY_LENGTH; i++) filler('');
}
