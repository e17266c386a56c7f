/**
 * Ingest clients and their stored items: the SQL of the ingest API (lib/server/ingest). An IngestClient row marks a
 * run as external and holds where the client's own numbering stands (lastClientSeq) and when it was last heard from;
 * an IngestItem row holds one stored item's hash by client seq, so a retry is recognised and a conflicting one refused.
 * Not responsible for the events themselves (events.ts), the rules of seqs and hashes, or when a client counts as gone
 * (lib/server/ingest).
 */
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../db/client';
import type { StoredRunStatus } from '../../contract/run-status';

export interface IngestClientRecord {
  runId: string;
  lastClientSeq: number;
  lastSeenAt: Date;
}

const CLIENT_SELECT = {
  runId: true,
  lastClientSeq: true,
  lastSeenAt: true,
} as const satisfies Prisma.IngestClientSelect;

/** Rows per INSERT: 500 x 3 parameters, far below SQLite's and Postgres's bound-parameter limits. */
const ITEM_CHUNK_ROWS = 500;

/** `traceId`: the run is an OpenTelemetry trace (one run per trace; the unique index refuses a second). */
export async function createIngestClient(
  db: Db,
  runId: string,
  now: Date,
  traceId: string | null = null,
): Promise<void> {
  await db.ingestClient.create({ data: { runId, lastSeenAt: now, traceId }, select: { runId: true } });
}

/** The run a trace is, with where its client numbering stands; null when no run has the trace. */
export async function ingestClientOfTrace(db: Db, traceId: string): Promise<IngestClientRecord | null> {
  return db.ingestClient.findUnique({ where: { traceId }, select: CLIENT_SELECT });
}

/** Of these runs, the trace each is (runs that are no trace are left out). */
export async function traceIdsOf(db: Db, runIds: readonly string[]): Promise<Map<string, string>> {
  if (runIds.length === 0) return new Map();
  const rows = await db.ingestClient.findMany({
    where: { runId: { in: [...runIds] }, traceId: { not: null } },
    select: { runId: true, traceId: true },
  });
  return new Map(rows.map((r) => [r.runId, r.traceId!]));
}

export async function getIngestClient(db: Db, runId: string): Promise<IngestClientRecord | null> {
  return db.ingestClient.findUnique({ where: { runId }, select: CLIENT_SELECT });
}

/** Of these runs, the ones an ingest client streams (external runs). */
export async function externalRunIds(db: Db, runIds: readonly string[]): Promise<Set<string>> {
  if (runIds.length === 0) return new Set();
  const rows = await db.ingestClient.findMany({ where: { runId: { in: [...runIds] } }, select: { runId: true } });
  return new Set(rows.map((r) => r.runId));
}

/** The client was heard from. */
export async function touchIngestClient(db: Db, runId: string, now: Date): Promise<void> {
  await db.ingestClient.updateMany({ where: { runId }, data: { lastSeenAt: now } });
}

/** Records stored items and moves the client's numbering on (in the caller's transaction, with the events). */
export async function storeIngestItems(
  db: Db,
  runId: string,
  items: readonly { clientSeq: number; hash: string }[],
  now: Date,
): Promise<void> {
  for (let start = 0; start < items.length; start += ITEM_CHUNK_ROWS) {
    const rows = items
      .slice(start, start + ITEM_CHUNK_ROWS)
      .map((item) => Prisma.sql`(${runId}, ${item.clientSeq}, ${item.hash})`);
    await db.$executeRaw`INSERT INTO "IngestItem" ("runId", "clientSeq", "hash") VALUES ${Prisma.join(rows)}`;
  }
  const last = items.at(-1)?.clientSeq;
  await db.ingestClient.update({
    where: { runId },
    data: { lastSeenAt: now, ...(last !== undefined && { lastClientSeq: last }) },
    select: { runId: true },
  });
}

/** The stored hashes of these client seqs of a run (a retried batch's items), by seq. */
export async function storedItemHashes(db: Db, runId: string, seqs: readonly number[]): Promise<Map<number, string>> {
  const hashes = new Map<number, string>();
  for (let start = 0; start < seqs.length; start += ITEM_CHUNK_ROWS) {
    const rows = await db.ingestItem.findMany({
      where: { runId, clientSeq: { in: seqs.slice(start, start + ITEM_CHUNK_ROWS) } },
      select: { clientSeq: true, hash: true },
    });
    for (const row of rows) hashes.set(row.clientSeq, row.hash);
  }
  return hashes;
}

/** External runs in these statuses whose client has been silent since before `silentSince`. */
export async function silentIngestRuns(
  db: Db,
  statuses: readonly StoredRunStatus[],
  silentSince: Date,
): Promise<IngestClientRecord[]> {
  return db.ingestClient.findMany({
    where: { lastSeenAt: { lt: silentSince }, run: { status: { in: [...statuses] }, importJobId: null } },
    select: CLIENT_SELECT,
  });
}
