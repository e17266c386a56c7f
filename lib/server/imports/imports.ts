/**
 * Export and import of runs (server side): a run as an Arborist export file (lib/formats/export.ts), and the other
 * way, an export file or a Tree-of-Thoughts log (lib/formats/tot-log.ts; the crosswords DFS log,
 * lib/formats/tot-crosswords.ts) stored as new runs.
 *
 * An import is checked whole before anything is written (the formats' checks and their per-field caps), then written
 * STAGED, in many short transactions: each run gets a new id (the file's may exist already; every event's runId is
 * rewritten) and Run.importJobId = the job's id, which hides it from every read (repositories/runs.ts); its events
 * are appended, the node projection is filled from the folded tree and the row gets the summary the run manager would
 * have written (run-summary.ts). Then one statement clears importJobId for all the job's runs: the swap-in. Short
 * transactions keep the write lock free for live runs between chunks (a writer waits at most BUSY_TIMEOUT_MS). A
 * file with many runs (a ToT log of many games) is still all or nothing from outside: a failure deletes the staged
 * runs, and a crash leaves them for the start-up sweep (sweepStagedImports). Prompt texts (PromptText, shared by
 * hash) an aborted import wrote may stay: they are referenced by nothing and cost only their bytes.
 * import-worker.ts runs this off the main thread for the HTTP route (import-jobs.ts).
 * Stored status: 'finished' or 'failed' when the log ends so (run.finished, run.failed); otherwise 'interrupted' (a
 * run exported while it went on, or cut short), so a person can resume it on request like a run a restart
 * interrupted. Its log gets no run.interrupted: it is stored as the file holds it, and the run page takes the row's
 * status for a log that says nothing newer (lib/store/run-clock.ts). Nothing resumes by
 * itself: recover() only touches running and paused runs.
 * A bad file is refused with an InputError (BAD_REQUEST) whose message says what is wrong, and writes nothing.
 * Not responsible for HTTP (http/run-files.ts) or the formats themselves (lib/formats).
 */
import { randomUUID } from 'node:crypto';
import type { ExplorationEvent } from '../../contract/events';
import { createEmptyTree, fold } from '../../engine/index';
import { buildExport, looksLikeTotLog, parseTotLog, type RunExport, validateRunExport } from '../../formats/index';
import {
  looksLikeLlmReasonersLog,
  looksLikeTotCrosswords,
  parseLlmReasonersLog,
  parseTotCrosswords,
} from '../../formats/index';
import { arboristRunTag, llmReasonersTag, totLogTag } from '../../contract/import-tag';
import type { Prisma } from '../../generated/prisma/client';
import type { PrismaClient } from '../db/client';
import { InputError } from '../core/errors';
import { appendEventsInTransaction, listEvents } from '../repositories/events';
import { saveSnapshot } from '../repositories/snapshots';
import { upsertNodes } from '../repositories/nodes';
import type { StoredRunStatus } from '../../contract/run-status';
import type { RunRecord, RunToStore } from '../../contract/run';
import type { CrosswordRunDraft } from '../../formats/index';
import { clearImportJob, createRun, deleteStagedRuns, getRun, updateRun } from '../repositories/runs';
import { summarizeTree } from '../run-log/summary';
import { hasEnded } from '../../contract/run-status';

export interface ImportOptions {
  /** Marks the imported runs; default: the file's own tag, else one that names the source. */
  importTag?: string | null;
  /** The import's time (tests); default now. */
  now?: Date;
  /** Makes each new run id (tests); default randomUUID. */
  newId?: () => string;
  /** The job's id, stored as Run.importJobId while its runs are staged; default a new one. */
  jobId?: string;
  /** Stored as Run.ownerId on every imported run: the importing user, or null (local mode). */
  ownerId?: string | null;
  /** Rows per write transaction (tests make it small); default IMPORT_CHUNK_ROWS. */
  chunkRows?: number;
  /** Called after each committed chunk, before the swap-in (tests look at the database half way). */
  afterChunk?: () => Promise<void>;
}

export interface TotImportOptions extends ImportOptions {
  /** The uploaded file's name, for the default tag "tot-log:<name>:<time>". */
  fileName?: string | null;
  /** The model that wrote the log; default gpt-4. */
  modelId?: string;
}

export type ImportKind = 'arborist.run' | 'tot-log' | 'tot-crosswords' | 'llm-reasoners';

/** The run as an export file; null when there is no such run. */
export async function exportRun(prisma: PrismaClient, runId: string, now = new Date()): Promise<RunExport | null> {
  const record = await getRun(prisma, runId);
  if (!record) return null;
  // the row first, then the log: a live run's file holds at least the events the status speaks of
  const events = await listEvents(prisma, runId);
  return buildExport(record, events, now);
}

/** JSON text to a value; a parse failure is an InputError with the parser's own message. */
export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InputError('file', `the file is not JSON: ${(error as Error).message}`);
  }
}

/** Imports an Arborist export file (a parsed JSON value) as a new run. */
export async function importRun(prisma: PrismaClient, file: unknown, options: ImportOptions = {}): Promise<RunRecord> {
  const checked = validateRunExport(file);
  if (!checked.ok) throw new InputError('file', checked.error);
  const { run, events } = checked.file;
  const id = (options.newId ?? randomUUID)();
  const [record] = await storeRuns(prisma, options, [
    {
      id,
      taskId: run.taskId,
      goal: run.goal,
      modelId: run.modelId,
      modelLabel: run.modelLabel,
      modelSettings: run.modelSettings,
      config: run.config,
      seed: run.seed,
      createdAt: new Date(run.createdAt),
      startedAt: run.startedAt ? new Date(run.startedAt) : null,
      importTag: options.importTag ?? run.importTag ?? arboristRunTag(run.id),
      parentRunId: run.parentRunId,
      parentNodeId: run.parentNodeId,
      events: withRunId(events, id),
    },
  ]);
  return record as RunRecord;
}

/** What every foreign log's reader (lib/formats) returns: run drafts, or why the file is refused. */
type ForeignLogParse = { ok: true; runs: Omit<CrosswordRunDraft, 'source'>[] } | { ok: false; error: string };
type ForeignLogReader = (log: unknown, options: { modelId?: string; now: number }) => ForeignLogParse;

/**
 * A foreign log (already parsed JSON) read by its reader and stored as runs, all or nothing, under one tag: the
 * caller's, else the format's own for this file name and time.
 */
async function importForeignLog(
  prisma: PrismaClient,
  read: ForeignLogReader,
  tagOf: (fileName: string | null | undefined, at: Date) => string,
  log: unknown,
  options: TotImportOptions,
): Promise<RunRecord[]> {
  const now = options.now ?? new Date();
  const parsed = read(log, { modelId: options.modelId, now: now.getTime() });
  if (!parsed.ok) throw new InputError('file', parsed.error);
  const importTag = options.importTag ?? tagOf(options.fileName, now);
  return storeRuns(
    prisma,
    options,
    parsed.runs.map((draft) => runFromDraft(draft, (options.newId ?? randomUUID)(), importTag)),
  );
}

/** Imports a Tree-of-Thoughts Game of 24 log (a parsed JSON array): one run per game, all in one transaction. */
export function importTotLog(prisma: PrismaClient, log: unknown, options: TotImportOptions = {}) {
  return importForeignLog(prisma, parseTotLog, totLogTag, log, options);
}

/**
 * Imports a Tree-of-Thoughts mini crosswords DFS log (an array of games, each an array of steps): one run per game,
 * tagged like the Game of 24 log (it is a Tree-of-Thoughts log too).
 */
export function importTotCrosswords(prisma: PrismaClient, log: unknown, options: TotImportOptions = {}) {
  return importForeignLog(prisma, parseTotCrosswords, totLogTag, log, options);
}

/**
 * Imports an llm-reasoners MCTS tree log (a parsed `{"logs": [...]}` object) as one run, one step per iteration.
 * The options are a ToT log's: the file's name for the default tag, the model (the log does not say).
 */
export function importLlmReasonersLog(prisma: PrismaClient, log: unknown, options: TotImportOptions = {}) {
  return importForeignLog(prisma, parseLlmReasonersLog, llmReasonersTag, log, options);
}

/** A foreign log's run draft (lib/formats; every reader's draft has these fields) as a run to store under a new id. */
function runFromDraft(draft: Omit<CrosswordRunDraft, 'source'>, id: string, importTag: string): RunToStore {
  return {
    id,
    taskId: draft.taskId,
    goal: draft.goal,
    modelId: draft.modelId,
    modelLabel: draft.modelLabel,
    modelSettings: draft.modelSettings,
    config: draft.config,
    seed: draft.seed,
    createdAt: draft.createdAt,
    startedAt: draft.createdAt,
    importTag,
    parentRunId: null,
    parentNodeId: null,
    events: withRunId(draft.events, id),
  };
}

/**
 * An Arborist export (a JSON object with `format`), an llm-reasoners log (an object with `logs`), a ToT crosswords
 * log (an array of arrays) or a ToT Game of 24 log (an array of objects), told apart by shape.
 */
export async function importFile(
  prisma: PrismaClient,
  value: unknown,
  options: TotImportOptions = {},
): Promise<{ kind: ImportKind; runs: RunRecord[] }> {
  if (looksLikeTotCrosswords(value)) {
    return { kind: 'tot-crosswords', runs: await importTotCrosswords(prisma, value, options) };
  }
  if (looksLikeTotLog(value)) return { kind: 'tot-log', runs: await importTotLog(prisma, value, options) };
  if (looksLikeLlmReasonersLog(value)) {
    return { kind: 'llm-reasoners', runs: await importLlmReasonersLog(prisma, value, options) };
  }
  return { kind: 'arborist.run', runs: [await importRun(prisma, value, options)] };
}

/** What an empty upload is told (the HTTP route says it for no bytes at all, importBytes for blank ones). */
export const NO_BODY_MESSAGE = 'the request has no body: send the JSON of an export or a ToT log';

/**
 * An uploaded file's bytes (UTF-8 JSON; a byte-order mark is dropped, which JSON.parse would refuse) imported as
 * importFile does: the whole of an import after the upload, which import-worker.ts runs off the main thread.
 */
export async function importBytes(
  prisma: PrismaClient,
  bytes: Uint8Array,
  options: TotImportOptions = {},
): Promise<{ kind: ImportKind; runs: RunRecord[] }> {
  const text = new TextDecoder().decode(bytes);
  if (!text.trim()) throw new InputError('file', NO_BODY_MESSAGE);
  return importFile(prisma, parseJsonText(text), options);
}

function withRunId(events: readonly ExplorationEvent[], runId: string): ExplorationEvent[] {
  return events.map((event) => ({ ...event, runId }));
}

/** Rows (events, nodes) per write transaction: ~500 rows is a statement of a few ms, so a chunk holds the lock ~10 ms. */
export const IMPORT_CHUNK_ROWS = 2_000;

type Step = { rows: number; write: (tx: Prisma.TransactionClient) => Promise<void> };

/**
 * Writes the runs staged under the job's id in transactions of about `chunkRows` rows (several small runs to a
 * transaction, a big run's log over several), swaps them in with one statement and returns the stored rows. Any
 * failure deletes what was staged and rethrows.
 */
async function storeRuns(
  prisma: PrismaClient,
  options: ImportOptions,
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
            id: run.id,
            taskId: run.taskId,
            goal: run.goal,
            modelId: run.modelId,
            modelLabel: run.modelLabel,
            modelSettings: run.modelSettings ?? undefined,
            config: run.config,
            seed: run.seed,
            status,
            createdAt: run.createdAt,
            importTag: run.importTag,
            parentRunId: run.parentRunId,
            parentNodeId: run.parentNodeId,
            ownerId: options.ownerId ?? null,
            importJobId: jobId,
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
    }
    await flush();
    await clearImportJob(prisma, jobId);
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

/** Deletes every staged run (imports this process never finished: a crash, a kill -9); called once at start-up. */
export async function sweepStagedImports(prisma: PrismaClient): Promise<number> {
  return deleteStagedRuns(prisma, null);
}
