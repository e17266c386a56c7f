/**
 * Run leases (cluster mode, PostgreSQL only): which instance executes a run, until when. Run.leaseOwner names the
 * instance, Run.leaseExpiresAt is the moment the lease lapses unless renewed. Every statement here is one atomic
 * UPDATE judged on the database's clock (`clock_timestamp()` in UTC), never an instance's: instances on different
 * machines agree on one clock, so a skewed one can neither keep a dead lease nor steal a live one.
 * Not responsible for when these are called (lib/server/cluster, run-manager.ts) nor for writing a run's log.
 */
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../db/client';

/** The database's now, in UTC, as the TIMESTAMP(3) columns store it. */
const NOW = Prisma.sql`(clock_timestamp() AT TIME ZONE 'UTC')`;

function until(leaseMs: number): Prisma.Sql {
  return Prisma.sql`(${NOW} + (${leaseMs}::double precision * interval '1 millisecond'))`;
}

/** A lease nobody holds: never taken, released, or lapsed. */
const LAPSED = Prisma.sql`("leaseOwner" IS NULL OR "leaseExpiresAt" IS NULL OR "leaseExpiresAt" < ${NOW})`;

/**
 * Claims a queued run for `owner`: true when this instance now holds its lease. False when the run is gone, no longer
 * queued (finished, aborted while queued, already running) or leased by a live instance: the caller does nothing.
 */
export async function claimQueuedRun(db: Db, runId: string, owner: string, leaseMs: number): Promise<boolean> {
  const claimed = await db.$executeRaw`UPDATE "Run" SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${until(leaseMs)}
    WHERE "id" = ${runId} AND "status" = 'queued' AND "importJobId" IS NULL AND ${LAPSED}`;
  return claimed === 1;
}

/** Renews the leases `owner` holds on these runs in one statement; returns the ids still held (the rest were lost). */
export async function renewLeases(
  db: Db,
  owner: string,
  runIds: readonly string[],
  leaseMs: number,
): Promise<string[]> {
  if (runIds.length === 0) return [];
  const rows = await db.$queryRaw<{ id: string }[]>`UPDATE "Run" SET "leaseExpiresAt" = ${until(leaseMs)}
    WHERE "leaseOwner" = ${owner} AND "id" IN (${Prisma.join([...runIds])}) RETURNING "id"`;
  return rows.map((row) => row.id);
}

/** Gives a lease back (the run ended or was handed back); a lease another instance took meanwhile is left alone. */
export async function releaseLease(db: Db, runId: string, owner: string): Promise<void> {
  await db.$executeRaw`UPDATE "Run" SET "leaseOwner" = NULL, "leaseExpiresAt" = NULL
    WHERE "id" = ${runId} AND "leaseOwner" = ${owner}`;
}

/**
 * Inside a writer's transaction: whether `owner` still holds the run's lease, locking the row until the commit, so a
 * takeover (an UPDATE of the same row) waits for this batch or this batch sees the takeover: the fence that keeps a
 * stalled instance from writing into a log another instance now owns.
 */
export async function holdsLease(tx: Db, runId: string, owner: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ leaseOwner: string | null }[]>`SELECT "leaseOwner" FROM "Run"
    WHERE "id" = ${runId} FOR UPDATE`;
  return rows[0]?.leaseOwner === owner;
}

export interface TakenOver {
  runId: string;
  /** The instance that held it (null: a run left `running` with no lease, e.g. by a server before the cluster). */
  lostOwner: string | null;
  status: string;
}

/**
 * Takes over the runs whose executing instance is gone: `running` or `paused` with a lapsed lease (external runs,
 * which the ingest sweeper owns, and staged imports left out). One statement: the rows are locked as they are taken,
 * and one instance wins each run (SKIP LOCKED: a run another sweeper is taking is left to it). The winner holds the
 * lease and writes the run's interruption.
 */
export async function takeOverLapsedRuns(db: Db, owner: string, leaseMs: number): Promise<TakenOver[]> {
  return db.$queryRaw<TakenOver[]>`WITH lapsed AS (
      SELECT r."id", r."leaseOwner" AS "lostOwner" FROM "Run" r
      WHERE r."status" IN ('running', 'paused') AND r."importJobId" IS NULL
        AND (r."leaseOwner" IS NULL OR r."leaseExpiresAt" IS NULL OR r."leaseExpiresAt" < ${NOW})
        AND NOT EXISTS (SELECT 1 FROM "IngestClient" c WHERE c."runId" = r."id")
      FOR UPDATE OF r SKIP LOCKED
    )
    UPDATE "Run" SET "leaseOwner" = ${owner}, "leaseExpiresAt" = ${until(leaseMs)}
    FROM lapsed WHERE "Run"."id" = lapsed."id"
    RETURNING "Run"."id" AS "runId", lapsed."lostOwner", "Run"."status"`;
}

/**
 * Queued runs an instance claimed and then died with (leased, lapsed, never started): their lease is cleared and
 * their ids returned to be queued as jobs again.
 */
export async function clearLapsedQueuedLeases(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<{ id: string }[]>`UPDATE "Run" SET "leaseOwner" = NULL, "leaseExpiresAt" = NULL
    WHERE "status" = 'queued' AND "leaseOwner" IS NOT NULL AND "leaseExpiresAt" < ${NOW} RETURNING "id"`;
  return rows.map((row) => row.id);
}

/**
 * Queued runs nobody has claimed, oldest first; with `idleMs`, only those left unchanged that long. Each gets a job
 * (a job key makes a repeat harmless, and keeps a waiting job's place): at start, every one; on every sweep, those
 * idle past a lease, since the job of a run an instance queued as it died can be lost with it (taken and dropped,
 * or never added) while the run row stays queued.
 */
export async function unclaimedQueuedRuns(db: Db, idleMs: number | null = null): Promise<string[]> {
  const rows = await db.run.findMany({
    where: {
      status: 'queued',
      importJobId: null,
      leaseOwner: null,
      ...(idleMs === null ? {} : { updatedAt: { lt: new Date(Date.now() - idleMs) } }),
    },
    orderBy: { createdAt: 'asc' },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

/** Runs waiting to be claimed, the whole cluster's (SQLite: this process's queue, as nothing is ever leased). */
export async function queuedRunCount(db: Db): Promise<number> {
  return db.run.count({ where: { status: 'queued', importJobId: null, leaseOwner: null } });
}

/** Who holds a live lease on a run (null: nobody executes it now). */
export async function leaseOwnerOf(db: Db, runId: string): Promise<string | null> {
  const rows = await db.$queryRaw<{ leaseOwner: string | null }[]>`SELECT "leaseOwner" FROM "Run"
    WHERE "id" = ${runId} AND "leaseOwner" IS NOT NULL AND "leaseExpiresAt" >= ${NOW}`;
  return rows[0]?.leaseOwner ?? null;
}
