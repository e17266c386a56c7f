/**
 * The run row's writes, every one of them: a new row (the one builder every producer uses, newRunRow in run-row.ts,
 * comes first), the summary a batch of the log leaves (writeRunPatch on the hot path, updateRun where the row is
 * wanted back), deletion, and an import's staging (clearImportJob swaps a job's runs in, deleteStagedRuns drops a
 * failed job's or, by age, a dead one's).
 * Only the log room calls these (its door does not export them): a run's row changes with its log or not at all.
 * Not responsible for reads (repositories/runs.ts) nor for what a summary says (summary.ts).
 */
import type { RunRecord } from '../../contract/run';
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../db/client';
import { RUN_SELECT, toRunRecord } from '../repositories/runs';

/**
 * A new row: who and what it runs, and optionally where it came from. The id is the caller's (the run id is in
 * every event before the row exists); the status defaults to queued, the time to now (an import keeps its own).
 * Never put an API key in modelSettings: it is stored as text.
 */
export type CreateRunInput = Pick<RunRecord, 'id' | 'taskId' | 'goal' | 'modelId' | 'modelLabel' | 'config'> &
  Partial<
    Pick<
      RunRecord,
      'modelSettings' | 'seed' | 'status' | 'createdAt' | 'importTag' | 'parentRunId' | 'parentNodeId' | 'ownerId'
    >
  > & {
    /** Stages the row for an import (see the header): invisible to every read until clearImportJob. */
    importJobId?: string | null;
  };

/** What may change after creation. Not lastSeq: only appendEvents moves it, with the events. */
/** The columns a RunPatch may set, each the RunRecord field of the same name (config and stats are stored as JSON). */
const PATCH_COLUMNS = [
  'goal',
  'config',
  'status',
  'finishReason',
  'startedAt',
  'finishedAt',
  'stats',
  'output',
  'success',
  'verified',
  'bestScore',
  'cost',
  'unpricedCalls',
  'exploredNodes',
  'totalNodes',
  'error',
  'importTag',
] as const satisfies readonly (keyof RunRecord)[];

export type RunPatch = Partial<Pick<RunRecord, (typeof PATCH_COLUMNS)[number]>>;

export async function createRun(db: Db, input: CreateRunInput): Promise<RunRecord> {
  const row = await db.run.create({
    data: {
      id: input.id,
      taskId: input.taskId,
      goal: input.goal,
      modelId: input.modelId,
      modelLabel: input.modelLabel,
      modelSettings: input.modelSettings === undefined ? null : JSON.stringify(input.modelSettings),
      config: JSON.stringify(input.config),
      seed: input.seed ?? null,
      status: input.status ?? 'queued',
      ...(input.createdAt && { createdAt: input.createdAt }),
      importTag: input.importTag ?? null,
      parentRunId: input.parentRunId ?? null,
      parentNodeId: input.parentNodeId ?? null,
      ownerId: input.ownerId ?? null,
      importJobId: input.importJobId ?? null,
    },
    select: RUN_SELECT,
  });
  return toRunRecord(row);
}

/** Applies a patch; null when the run does not exist. */
export async function updateRun(db: Db, id: string, patch: RunPatch): Promise<RunRecord | null> {
  const { config, stats, ...plain } = patch;
  try {
    const row = await db.run.update({
      where: { id },
      data: {
        ...plain,
        ...(config !== undefined && { config: JSON.stringify(config) }),
        ...(stats !== undefined && { stats: stats === null ? null : JSON.stringify(stats) }),
      },
      select: RUN_SELECT,
    });
    return toRunRecord(row);
  } catch (error) {
    // P2025: the record to update was not found.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025') return null;
    throw error;
  }
}

/**
 * updateRun for the hot path (a live run's summary after every batch): one UPDATE of the patch's columns and
 * updatedAt, nothing read back; false when the run does not exist. The ORM's update costs ~1 ms more per call
 * (it reads the whole row back through RUN_SELECT), most of a live run's small transaction (npm run bench:write).
 */
export async function writeRunPatch(db: Db, id: string, patch: RunPatch): Promise<boolean> {
  const sets: Prisma.Sql[] = [Prisma.sql`"updatedAt" = ${new Date()}`];
  for (const column of PATCH_COLUMNS) {
    const value = patch[column];
    if (value === undefined) continue;
    const stored = column === 'config' || column === 'stats' ? (value === null ? null : JSON.stringify(value)) : value;
    // the column name is one of PATCH_COLUMNS (never input); every value is a bound parameter
    sets.push(Prisma.sql`${Prisma.raw(`"${column}"`)} = ${stored}`);
  }
  const changed = await db.$executeRaw`UPDATE "Run" SET ${Prisma.join(sets)} WHERE "id" = ${id}`;
  return changed > 0;
}

/** Deletes a run with its events and nodes (foreign keys cascade); false when it did not exist. */
export async function deleteRun(db: Db, id: string): Promise<boolean> {
  const { count } = await db.run.deleteMany({ where: { id } });
  return count > 0;
}

/** Swaps an import's staged runs in (one short statement: all of them appear at once); how many it made visible. */
export async function clearImportJob(db: Db, jobId: string): Promise<number> {
  const { count } = await db.run.updateMany({ where: { importJobId: jobId }, data: { importJobId: null } });
  return count;
}

/**
 * Which staged runs to delete: one job's, or every job's whose rows were last written before a time (null: every
 * staged run, whenever written: the only process of a database, at its start, when no import can be running).
 */
export type StagedRuns = string | { writtenBefore: Date | null };

/** Staged runs deleted per statement: each cascades to its events and nodes, so a statement stays short. */
const STAGED_DELETE_RUNS = 20;

/**
 * Deletes the runs an import staged (with their events, nodes, snapshots and prompt uses), a few runs per statement
 * so no statement holds the write lock long: one job's (it failed), or those of any job last written before a time
 * (the sweep of imports that died: updatedAt is set as a staged row is created and again as its run is complete).
 * Returns how many runs went.
 */
export async function deleteStagedRuns(db: Db, which: StagedRuns): Promise<number> {
  const where =
    typeof which === 'string'
      ? { importJobId: which }
      : { importJobId: { not: null }, ...(which.writtenBefore && { updatedAt: { lt: which.writtenBefore } }) };
  let deleted = 0;
  for (;;) {
    const rows = await db.run.findMany({ where, select: { id: true }, take: STAGED_DELETE_RUNS });
    if (rows.length === 0) return deleted;
    // the same condition again: a row swapped in since it was read is a visible run, never deleted here
    const { count } = await db.run.deleteMany({ where: { ...where, id: { in: rows.map((row) => row.id) } } });
    deleted += count;
  }
}
