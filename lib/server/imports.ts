/**
 * Export and import of runs (server side): a run as an Arborist export file (lib/formats/export.ts), and the other
 * way, an export file or a Tree-of-Thoughts log (lib/formats/tot-log.ts) stored as new runs.
 *
 * An import is checked whole before anything is written, then written in ONE transaction: each run gets a new id
 * (the file's may exist already; every event's runId is rewritten), its events are appended, the node projection
 * is filled from the folded tree and the row gets the summary the run manager would have written (run-summary.ts).
 * A file with many runs (a ToT log of many games) is all or nothing.
 * Stored status: 'finished' or 'failed' when the log ends so (run.finished, run.failed); otherwise 'interrupted' (a
 * run exported while it went on, or cut short), so a person can resume it on request like a run a restart
 * interrupted. Its log gets no run.interrupted: it is stored as the file holds it, and the run page takes the row's
 * status for a log that says nothing newer (lib/store/run-clock.ts). Nothing resumes by
 * itself: recover() only touches running and paused runs.
 * A bad file is refused with an InputError (BAD_REQUEST) whose message says what is wrong, and writes nothing.
 * Not responsible for HTTP (http/run-files.ts) or the formats themselves (lib/formats).
 */
import { randomUUID } from 'node:crypto';
import type { ExplorationEvent } from '../contract/events';
import { createEmptyTree, fold } from '../engine/index';
import { buildExport, looksLikeTotLog, parseTotLog, type RunExport, validateRunExport } from '../formats/index';
import { arboristRunTag, totLogTag } from '../contract/import-tag';
import type { PrismaClient } from './db/client';
import { InputError } from './errors';
import { appendEventsInTransaction, listEvents } from './repositories/events';
import { saveSnapshot } from './repositories/snapshots';
import { upsertNodes } from './repositories/nodes';
import type { StoredRunStatus } from '../contract/run-status';
import type { RunRecord, RunToStore } from '../contract/run';
import { createRun, getRun, updateRun } from './repositories/runs';
import { summarizeTree } from './run-summary';

export interface ImportOptions {
  /** Marks the imported runs; default: the file's own tag, else one that names the source. */
  importTag?: string | null;
  /** The import's time (tests); default now. */
  now?: Date;
  /** Makes each new run id (tests); default randomUUID. */
  newId?: () => string;
}

export interface TotImportOptions extends ImportOptions {
  /** The uploaded file's name, for the default tag "tot-log:<name>:<time>". */
  fileName?: string | null;
  /** The model that wrote the log; default gpt-4. */
  modelId?: string;
}

export type ImportKind = 'arborist.run' | 'tot-log';

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
  const [record] = await storeRuns(prisma, [
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

/** Imports a Tree-of-Thoughts log (a parsed JSON array): one run per game, all in one transaction. */
export async function importTotLog(
  prisma: PrismaClient,
  log: unknown,
  options: TotImportOptions = {},
): Promise<RunRecord[]> {
  const now = options.now ?? new Date();
  const parsed = parseTotLog(log, { modelId: options.modelId, now: now.getTime() });
  if (!parsed.ok) throw new InputError('file', parsed.error);
  const importTag = options.importTag ?? totLogTag(options.fileName, now);
  return storeRuns(
    prisma,
    parsed.runs.map((draft) => {
      const id = (options.newId ?? randomUUID)();
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
    }),
  );
}

/** An Arborist export (a JSON object) or a ToT log (a JSON array), told apart by shape. */
export async function importFile(
  prisma: PrismaClient,
  value: unknown,
  options: TotImportOptions = {},
): Promise<{ kind: ImportKind; runs: RunRecord[] }> {
  if (looksLikeTotLog(value)) return { kind: 'tot-log', runs: await importTotLog(prisma, value, options) };
  return { kind: 'arborist.run', runs: [await importRun(prisma, value, options)] };
}

function withRunId(events: readonly ExplorationEvent[], runId: string): ExplorationEvent[] {
  return events.map((event) => ({ ...event, runId }));
}

/** Writes the runs, their logs, nodes and summaries in one transaction; returns the stored rows. */
async function storeRuns(prisma: PrismaClient, runs: readonly RunToStore[]): Promise<RunRecord[]> {
  // fold before the transaction: the write lock is held only for writing
  const prepared = runs.map((run) => ({ run, tree: fold(run.events, createEmptyTree(run.id)) }));
  const eventCount = runs.reduce((sum, run) => sum + run.events.length, 0);
  return prisma.$transaction(
    async (tx) => {
      const stored: RunRecord[] = [];
      for (const { run, tree } of prepared) {
        const ended = tree.status === 'finished' || tree.status === 'failed';
        const status: StoredRunStatus = ended ? tree.status : 'interrupted';
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
        });
        await appendEventsInTransaction(tx, run.id, run.events);
        const nodes = tree.nodeOrder.flatMap((id) => tree.nodes[id] ?? []);
        await upsertNodes(tx, run.id, nodes);
        await saveSnapshot(tx, run.id, tree);
        const record = await updateRun(tx, run.id, {
          ...summarizeTree(tree),
          status,
          startedAt: run.startedAt ?? (tree.startedAt !== null ? new Date(tree.startedAt) : null),
        });
        stored.push(record as RunRecord);
      }
      return stored;
    },
    // generous: a large log is written in chunks of 500 rows, a few milliseconds each
    { timeout: Math.max(30_000, eventCount * 2), maxWait: 10_000 },
  );
}
