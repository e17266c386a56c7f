/**
 * Runs: one row per exploration, with the summary the run list shows and what a restart needs to resume.
 * RunRecord is the one typed view of a row (config and stats parsed from their JSON text); toRunRecord is the only
 * place that maps a row, and RUN_SELECT the only field list, so a new column is added in one spot.
 * Not responsible for events (events.ts; Run.lastSeq belongs to appendEvents and cannot be patched here), the node
 * projection (nodes.ts), or deciding status transitions (the run manager).
 */
import type { FinishReason, ToTConfig, ToTStats } from '../../engine/types';
import { Prisma } from '../../generated/prisma/client';
import type { Db } from '../db/client';

/** A stored run's lifecycle; wider than the engine's RunStatus (queued before start, interrupted by a restart). */
export const RUN_STATUSES = ['queued', 'running', 'paused', 'interrupted', 'finished', 'failed'] as const;
export type StoredRunStatus = (typeof RUN_STATUSES)[number];

export interface RunRecord {
  id: string;
  createdAt: Date;
  updatedAt: Date;
  taskId: string;
  goal: string;
  modelId: string;
  modelLabel: string;
  /** The model spec the run manager stored (parsed JSON, validated by its owner), null when none. */
  modelSettings: unknown;
  config: ToTConfig;
  seed: number | null;
  status: StoredRunStatus;
  finishReason: FinishReason | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  /** The seq of the last stored event (0 when none). */
  lastSeq: number;
  stats: ToTStats | null;
  output: string | null;
  success: boolean | null;
  verified: boolean | null;
  bestScore: number | null;
  cost: number;
  exploredNodes: number;
  totalNodes: number;
  error: string | null;
  importTag: string | null;
  parentRunId: string | null;
  parentNodeId: string | null;
}

export interface CreateRunInput {
  /** Given by the caller (the run id is in every event before the row exists). */
  id: string;
  taskId: string;
  goal: string;
  modelId: string;
  modelLabel: string;
  /** JSON-serialisable; stored as text. Never put an API key here. */
  modelSettings?: unknown;
  config: ToTConfig;
  seed?: number | null;
  /** Default 'queued'. */
  status?: StoredRunStatus;
  /** Default now; an import keeps the original time. */
  createdAt?: Date;
  importTag?: string | null;
  parentRunId?: string | null;
  parentNodeId?: string | null;
}

/** What may change after creation. Not lastSeq: only appendEvents moves it, with the events. */
export type RunPatch = Partial<
  Pick<
    RunRecord,
    | 'goal'
    | 'config'
    | 'status'
    | 'finishReason'
    | 'startedAt'
    | 'finishedAt'
    | 'stats'
    | 'output'
    | 'success'
    | 'verified'
    | 'bestScore'
    | 'cost'
    | 'exploredNodes'
    | 'totalNodes'
    | 'error'
    | 'importTag'
  >
>;

export interface ListRunsOptions {
  /** The id of the last run of the previous page. */
  cursor?: string | null;
  /** Page size, 1 to MAX_RUN_PAGE. */
  limit: number;
  status?: StoredRunStatus | StoredRunStatus[];
  taskId?: string;
  /** Words a run's goal, output or import tag must contain (each word, or a word starting with it). */
  q?: string | null;
}

export interface RunPage {
  items: RunRecord[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export const MAX_RUN_PAGE = 200;

const RUN_SELECT = {
  id: true,
  createdAt: true,
  updatedAt: true,
  taskId: true,
  goal: true,
  modelId: true,
  modelLabel: true,
  modelSettings: true,
  config: true,
  seed: true,
  status: true,
  finishReason: true,
  startedAt: true,
  finishedAt: true,
  lastSeq: true,
  stats: true,
  output: true,
  success: true,
  verified: true,
  bestScore: true,
  cost: true,
  exploredNodes: true,
  totalNodes: true,
  error: true,
  importTag: true,
  parentRunId: true,
  parentNodeId: true,
} as const satisfies Prisma.RunSelect;

type RunRow = Prisma.RunGetPayload<{ select: typeof RUN_SELECT }>;

/** The one mapping from a row to a RunRecord. */
export function toRunRecord(row: RunRow): RunRecord {
  return {
    ...row,
    modelSettings: row.modelSettings === null ? null : (JSON.parse(row.modelSettings) as unknown),
    config: JSON.parse(row.config) as ToTConfig,
    stats: row.stats === null ? null : (JSON.parse(row.stats) as ToTStats),
    // Written only through this module's typed inputs, so the strings are known members.
    status: row.status as StoredRunStatus,
    finishReason: row.finishReason as FinishReason | null,
  };
}

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
    },
    select: RUN_SELECT,
  });
  return toRunRecord(row);
}

export async function getRun(db: Db, id: string): Promise<RunRecord | null> {
  const row = await db.run.findUnique({ where: { id }, select: RUN_SELECT });
  return row ? toRunRecord(row) : null;
}

/** At most this many words of a search are used (a pasted paragraph must not become a huge query). */
const MAX_SEARCH_WORDS = 12;

/**
 * A search box's text as an FTS5 query: every word quoted and required, the last one as a prefix ("tok"*) since it
 * may still be being typed; the words before it are whole words (else "2 5 8 11" would find any run whose tag holds a
 * date of 2026-11 and a 5 and an 8 somewhere). Quoting makes the input
 * plain words, never FTS syntax: a quote, AND, NEAR( or * in the box is text to find, not an operator (a quote is
 * doubled inside the string, as FTS5 escapes it). Words with no letter or digit are dropped, since they hold no
 * token; null when nothing is left to search for.
 */
export function toFtsQuery(text: string): string | null {
  const words = text
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, MAX_SEARCH_WORDS);
  if (words.length === 0) return null;
  return words.map((word, i) => `"${word.replaceAll('"', '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/**
 * A page of runs, newest first (createdAt desc, then id desc so equal times keep a stable order). The cursor is the
 * last id of the previous page; a cursor whose run has since been deleted gives an empty last page. With `q`, only
 * runs whose goal, output or import tag hold its words (the RunSearch full-text index), same order and paging.
 */
export async function listRuns(db: Db, options: ListRunsOptions): Promise<RunPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit), 1), MAX_RUN_PAGE);
  const fts = options.q ? toFtsQuery(options.q) : null;
  if (fts !== null) return searchRuns(db, options, fts, limit);
  const where: Prisma.RunWhereInput = {
    ...(options.status !== undefined && {
      status: Array.isArray(options.status) ? { in: options.status } : options.status,
    }),
    ...(options.taskId !== undefined && { taskId: options.taskId }),
  };
  if (options.cursor) {
    const after = await db.run.findUnique({ where: { id: options.cursor }, select: { id: true, createdAt: true } });
    if (!after) return { items: [], nextCursor: null };
    // Keyset pagination: stable while runs are added at the top, unlike an offset.
    where.OR = [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }];
  }
  const rows = await db.run.findMany({
    where,
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    select: RUN_SELECT,
  });
  const items = rows.slice(0, limit).map(toRunRecord);
  return { items, nextCursor: rows.length > limit ? (items[items.length - 1]?.id ?? null) : null };
}

/**
 * listRuns with a full-text query: the page's ids from one SQL query over RunSearch and Run (FTS5 has no Prisma
 * API; every value is a bound parameter), then the rows through RUN_SELECT so they map as every other list does.
 */
async function searchRuns(db: Db, options: ListRunsOptions, fts: string, limit: number): Promise<RunPage> {
  const conditions: Prisma.Sql[] = [
    Prisma.sql`r."id" IN (SELECT "runId" FROM "RunSearch" WHERE "RunSearch" MATCH ${fts})`,
  ];
  if (options.status !== undefined) {
    const statuses = Array.isArray(options.status) ? options.status : [options.status];
    if (statuses.length === 0) return { items: [], nextCursor: null };
    conditions.push(Prisma.sql`r."status" IN (${Prisma.join(statuses)})`);
  }
  if (options.taskId !== undefined) conditions.push(Prisma.sql`r."taskId" = ${options.taskId}`);
  if (options.cursor) {
    const after = await db.run.findUnique({ where: { id: options.cursor }, select: { id: true } });
    if (!after) return { items: [], nextCursor: null };
    // the same keyset as listRuns, read from the cursor's own row (no date crosses the driver as a parameter)
    conditions.push(
      Prisma.sql`(r."createdAt", r."id") < (SELECT c."createdAt", c."id" FROM "Run" c WHERE c."id" = ${after.id})`,
    );
  }
  const found = await db.$queryRaw<{ id: string }[]>`
    SELECT r."id" AS "id" FROM "Run" r
    WHERE ${Prisma.join(conditions, ' AND ')}
    ORDER BY r."createdAt" DESC, r."id" DESC
    LIMIT ${limit + 1}`;
  const pageIds = found.slice(0, limit).map((row) => row.id);
  const rows = await db.run.findMany({ where: { id: { in: pageIds } }, select: RUN_SELECT });
  const byId = new Map(rows.map((row) => [row.id, row]));
  // a run deleted between the two queries is left out
  const items = pageIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toRunRecord(row)] : [];
  });
  return { items, nextCursor: found.length > limit ? (pageIds[pageIds.length - 1] ?? null) : null };
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

/** Deletes a run with its events and nodes (foreign keys cascade); false when it did not exist. */
export async function deleteRun(db: Db, id: string): Promise<boolean> {
  const { count } = await db.run.deleteMany({ where: { id } });
  return count > 0;
}

/** Runs in any of the given statuses, oldest first (e.g. the ones a restart must resume or mark interrupted). */
export async function findRunsByStatus(db: Db, statuses: readonly StoredRunStatus[]): Promise<RunRecord[]> {
  if (statuses.length === 0) return [];
  const rows = await db.run.findMany({
    where: { status: { in: [...statuses] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: RUN_SELECT,
  });
  return rows.map(toRunRecord);
}

/** The runs forked from a run, oldest first. */
export async function findForks(db: Db, parentRunId: string): Promise<RunRecord[]> {
  const rows = await db.run.findMany({
    where: { parentRunId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: RUN_SELECT,
  });
  return rows.map(toRunRecord);
}
