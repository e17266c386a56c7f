/**
 * The log room's import path: whole runs written STAGED (Run.importJobId set, which hides them from every read) in
 * many short transactions, then swapped in by one statement. Each run's row (newRunRow), its events, the node
 * projection of its folded tree, its snapshot and the row's summary (summary.ts, as a live run's batches leave it)
 * are written here and nowhere else; a failure deletes what was staged, and a crash leaves it for the sweep of staged
 * runs older than the longest an import may take (sweepStagedImports, at start and on a timer, on every instance).
 * A run's discussion from its file (comments, labels: repositories/discussion.ts writeDiscussion) is staged with it,
 * after its rows, so it appears with the run or not at all.
 * The swap-in is all or nothing even against that sweep. Short transactions keep the write lock free for live runs
 * between chunks.
 * Stored status: the log's when it ended (finished, failed); otherwise 'interrupted' (a run exported while it went
 * on, or cut short), so a person can resume it on request. Its log gets no run.interrupted: it is stored as the file
 * holds it.
 * Not responsible for reading files (imports/, lib/formats) nor for live runs (run-log.ts).
 */
import { randomUUID } from 'node:crypto';
import type { RunRecord, RunToStore } from '../../contract/run';
import { hasEnded, type StoredRunStatus } from '../../contract/run-status';
import { createEmptyTree, fold } from '../../engine/index';
import type { Prisma } from '../../generated/prisma/client';
import type { PrismaClient } from '../db/client';
import { writeDiscussion } from '../repositories/discussion';
import { appendEventsInTransaction } from './events';
import { upsertNodes } from './nodes';
import { newRunRow } from './run-row';
import { clearImportJob, createRun, deleteStagedRuns, updateRun } from './run-rows';
import { saveSnapshot } from './snapshots';
import { summarizeTree } from './summary';

export interface StoreRunsOptions {
  /** The job's id, stored as Run.importJobId while its runs are staged; default a new one. */
  jobId?: string;
  /** Stored as Run.ownerId on every run: the importing user, or null (local mode). */
  ownerId?: string | null;
  /** Rows per write transaction (tests make it small); default IMPORT_CHUNK_ROWS. */
  chunkRows?: number;
  /** Called after each committed chunk, before the swap-in (tests look at the database half way). */
  afterChunk?: () => Promise<void>;
}

/** Rows (events, nodes) per write transaction: ~500 rows is a statement of a few ms, so a chunk holds the lock ~10 ms. */
export const IMPORT_CHUNK_ROWS = 2_000;

type Step = { rows: number; write: (tx: Prisma.TransactionClient) => Promise<void> };

/**
 * Writes the runs staged under the job's id in transactions of about `chunkRows` rows (several small runs to a
 * transaction, a big run's log over several), swaps them in with one statement and returns the stored rows. Any
 * failure deletes what was staged and rethrows.
 */
export async function storeRuns(
  prisma: PrismaClient,
  options: StoreRunsOptions,
  runs: readonly RunToStore[],
): Promise<RunRecord[]> {
  const jobId = options.jobId ?? randomUUID();
  const chunkRows = options.chunkRows ?? IMPORT_CHUNK_ROWS;
  const stored: RunRecord[] = [];
  try {
    let pending: Step[] = [];
    let pendingRows = 0;
    const flush = async () => {
      if (pending.length === 0) return;
      const steps = pending;
      pending = [];
      pendingRows = 0;
      await withBusyRetry(() =>
        prisma.$transaction(async (tx) => {
          for (const step of steps) await step.write(tx);
        }),
      );
      await options.afterChunk?.();
    };
    const add = async (step: Step) => {
      if (pendingRows > 0 && pendingRows + step.rows > chunkRows) await flush();
      pending.push(step);
      pendingRows += step.rows;
    };
    for (const run of runs) {
      // folded outside any transaction: the write lock is held only for writing
      const tree = fold(run.events, createEmptyTree(run.id));
      const ended = hasEnded(tree.status);
      const status: StoredRunStatus = ended ? tree.status : 'interrupted';
      await add({
        rows: 1,
        write: async (tx) => {
          await createRun(tx, {
            ...newRunRow({ ...run, ownerId: options.ownerId ?? null, importJobId: jobId }),
            status,
          });
        },
      });
      for (let start = 0; start < run.events.length; start += chunkRows) {
        const events = run.events.slice(start, start + chunkRows);
        await add({ rows: events.length, write: (tx) => appendEventsInTransaction(tx, run.id, events).then(() => {}) });
      }
      const nodes = tree.nodeOrder.flatMap((id) => tree.nodes[id] ?? []);
      for (let start = 0; start < nodes.length; start += chunkRows) {
        const chunk = nodes.slice(start, start + chunkRows);
        await add({ rows: chunk.length, write: (tx) => upsertNodes(tx, run.id, chunk) });
      }
      await add({
        rows: 1,
        write: async (tx) => {
          await saveSnapshot(tx, run.id, tree);
          const record = await updateRun(tx, run.id, {
            ...summarizeTree(tree),
            status,
            startedAt: run.startedAt ?? (tree.startedAt !== null ? new Date(tree.startedAt) : null),
          });
          stored.push(record as RunRecord);
        },
      });
      // the file's comments and labels, staged with the run (they name its nodes, written above)
      const discussion = run.discussion;
      if (discussion && discussion.comments.length + discussion.labels.length > 0) {
        await add({
          rows: discussion.comments.length + discussion.labels.length,
          write: (tx) => writeDiscussion(tx, run.id, discussion),
        });
      }
    }
    await flush();
    await swapIn(prisma, jobId, stored.length);
    return stored;
  } catch (error) {
    await deleteStagedRuns(prisma, jobId).catch((cleanup: unknown) => {
      console.error(
        `[arborist] an import failed, and deleting its staged runs failed too (the next start sweeps them):`,
        cleanup,
      );
    });
    throw error;
  }
}

/** How often a chunk is tried again when SQLite answers "database is locked" at once. */
const BUSY_RETRIES = 20;

function isBusy(error: unknown): boolean {
  const cause = (error as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } } | null)?.meta
    ?.driverAdapterError?.cause?.originalCode;
  return typeof cause === 'string' && cause.startsWith('SQLITE_BUSY');
}

/**
 * Runs a chunk's transaction, again after a short pause when SQLite refuses it as busy. A deferred transaction
 * (Prisma's adapter opens them with a plain BEGIN) that has read is refused at once, without the busy timeout's wait,
 * when it tries to write after another connection's commit (SQLITE_BUSY / BUSY_SNAPSHOT in WAL): two imports, or an
 * import and a live run, writing at the same moment. The refused transaction wrote nothing, so trying it again is safe.
 */
async function withBusyRetry<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isBusy(error) || tries >= BUSY_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * (tries + 1)));
    }
  }
}

/**
 * Makes the job's runs visible in one statement, or none of them: a sweep that took this import for a dead one (an
 * instance whose clock runs ahead) may have deleted some, and half an import must never appear. Throws then; the
 * caller deletes what is left.
 */
async function swapIn(prisma: PrismaClient, jobId: string, runs: number): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const visible = await clearImportJob(tx, jobId);
    if (visible !== runs) {
      throw new Error(`import ${jobId}: ${runs - visible} of its ${runs} staged runs were swept before the swap-in`);
    }
  });
}

/** Deletes what one import job staged (its worker died before it finished); how many runs went. */
export function deleteStagedImport(prisma: PrismaClient, jobId: string): Promise<number> {
  return deleteStagedRuns(prisma, jobId);
}

/**
 * Deletes the staged runs of imports that died (a crash, a kill -9, an instance gone): those last written more than
 * `maxImportMs` before `now`, the longest an import may take (imports/ holds it and stops an import then), so a live
 * import's rows, on this instance or another, are always younger; null: every staged run (the only process of a
 * database, at its start). Returns how many runs went.
 */
export function sweepStagedImports(
  prisma: PrismaClient,
  maxImportMs: number | null,
  now = new Date(),
): Promise<number> {
  // null: every staged run (an age of 0 would spare a row written in the same millisecond as `now`)
  return deleteStagedRuns(prisma, {
    writtenBefore: maxImportMs === null ? null : new Date(now.getTime() - maxImportMs),
  });
}
