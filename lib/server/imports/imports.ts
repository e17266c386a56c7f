/**
 * Export and import of runs (server side): a run as an Arborist export file (lib/formats/export.ts), and the other
 * way, an export file or a foreign log (a Tree-of-Thoughts Game of 24 or crosswords log, an llm-reasoners MCTS log,
 * read by lib/formats) turned into runs to store, each under a new id (the file's may exist already; every event's
 * runId is rewritten), all under one tag.
 * An import is checked whole before anything is written (the formats' checks and their per-field caps), then handed to
 * the log room (run-log/import-writer.ts), which stores it staged and swaps it in: all or nothing from outside.
 * import-worker.ts runs this off the main thread for the HTTP route (import-jobs.ts).
 * A bad file is refused with an InputError (BAD_REQUEST) whose message says what is wrong, and writes nothing.
 * Not responsible for HTTP (http/run-files.ts), the formats themselves (lib/formats) or writing rows (run-log/).
 */
import { randomUUID } from 'node:crypto';
import type { ExplorationEvent } from '../../contract/events';
import { buildExport, looksLikeTotLog, parseTotLog, type RunExport, validateRunExport } from '../../formats/index';
import {
  looksLikeLlmReasonersLog,
  looksLikeTotCrosswords,
  parseLlmReasonersLog,
  parseTotCrosswords,
} from '../../formats/index';
import { arboristRunTag, llmReasonersTag, totLogTag } from '../../contract/import-tag';
import type { PrismaClient } from '../db/client';
import { InputError } from '../core/errors';
import type { RunRecord, RunToStore } from '../../contract/run';
import type { CrosswordRunDraft } from '../../formats/index';
import { exportDiscussion } from '../repositories/discussion';
import { getRun } from '../repositories/runs';
import { listEvents, storeRuns, type StoreRunsOptions } from '../run-log/index';

export interface ImportOptions extends StoreRunsOptions {
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

export type ImportKind = 'arborist.run' | 'tot-log' | 'tot-crosswords' | 'llm-reasoners';

/** The run as an export file (with its comments and labels when it has any); null when there is no such run. */
export async function exportRun(prisma: PrismaClient, runId: string, now = new Date()): Promise<RunExport | null> {
  const record = await getRun(prisma, runId);
  if (!record) return null;
  // the row first, then the discussion, then the log: a live run's file holds at least the events the status speaks
  // of, and every node a comment names (a node is stored before anyone can comment on it, and never goes)
  const discussion = await exportDiscussion(prisma, runId);
  const events = await listEvents(prisma, runId);
  return buildExport(record, events, now, discussion);
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
  const { run, events, discussion } = checked.file;
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
      ...(discussion && { discussion }),
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
