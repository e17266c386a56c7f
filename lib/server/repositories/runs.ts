/**
 * Runs: one row per exploration, with the summary the run list shows and what a restart needs to resume.
 * RunRecord (lib/contract/run.ts) is the one typed view of a row (config and stats parsed from their JSON text); toRunRecord is the only
 * place that maps a row, and RUN_SELECT the only field list, so a new column is added in one spot.
 * Staged runs: an import writes its runs in chunks with Run.importJobId set (its job's id), and every read here leaves
 * such a row out (getRun, lists, summaries, tags, forks, runs by status), so a half-written import is seen by nobody;
 * clearImportJob swaps the whole import in with one statement, deleteStagedRuns throws a failed one away.
 * A listed page carries each run's discussion counts (one grouped query per table for the page, discussion.ts).
 * Not responsible for events (events.ts; Run.lastSeq belongs to appendEvents and cannot be patched here), the node
 * projection (nodes.ts), or deciding status transitions (the run manager).
 */
import type { RunRecord } from '../../contract/run';
import type { FinishReason, ToTConfig, ToTStats } from '../../contract/vocabulary';
import { Prisma } from '../../generated/prisma/client';
import { type Db, databaseKindOf } from '../db/client';
import type { DatabaseKind } from '../db/backend';
import { DEFAULT_RUN_SORT, type RunDiscussionCounts, type RunSort, type RunSortKey } from '../../contract/run-list';
import type { StoredRunStatus } from '../../contract/run-status';
import { discussionCounts } from './discussion';

/** Which runs a list (and its summary) covers; every field narrows it. */
export interface RunFilter {
  status?: StoredRunStatus | StoredRunStatus[];
  taskId?: string;
  /** Words a run's goal, output or import tag must contain (each word, or a word starting with it). */
  q?: string | null;
  /** Only runs imported under this tag (Run.importTag, exactly). */
  tag?: string | null;
  /** Only the runs people started here (and their forks): no import tag, and no experiment's cell. */
  mine?: boolean;
  /** Only the runs that are experiments' cells. */
  cells?: boolean;
  /** Only the runs with at least one node carrying this label (Label.label, exactly). */
  label?: string | null;
}

export interface ListRunsOptions extends RunFilter {
  /** The id of the last run of the previous page. */
  cursor?: string | null;
  /** Page size, 1 to MAX_RUN_PAGE. */
  limit: number;
  /** Default newest first. */
  sort?: RunSort;
}

/** A run as the list shows it: its record and its discussion counts. */
export type ListedRunRecord = RunRecord & { discussion: RunDiscussionCounts };

export interface RunPage {
  items: ListedRunRecord[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export const MAX_RUN_PAGE = 200;

export const RUN_SELECT = {
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
  unpricedCalls: true,
  exploredNodes: true,
  totalNodes: true,
  error: true,
  importTag: true,
  parentRunId: true,
  parentNodeId: true,
  ownerId: true,
  leaseOwner: true,
  leaseExpiresAt: true,
} as const satisfies Prisma.RunSelect;

type RunRow = Prisma.RunGetPayload<{ select: typeof RUN_SELECT }>;

/** The one mapping from a row to a RunRecord. */
export function toRunRecord(row: RunRow): RunRecord {
  const { leaseOwner, leaseExpiresAt, ...rest } = row;
  return {
    ...rest,
    // a cluster's lease (run-log/leases.ts) as the pages see it: held and not lapsed
    executingOn: leaseOwner && leaseExpiresAt && leaseExpiresAt.getTime() > Date.now() ? leaseOwner : null,
    modelSettings: row.modelSettings === null ? null : (JSON.parse(row.modelSettings) as unknown),
    config: JSON.parse(row.config) as ToTConfig,
    stats: row.stats === null ? null : (JSON.parse(row.stats) as ToTStats),
    // Written only through this module's typed inputs, so the strings are known members.
    status: row.status as StoredRunStatus,
    finishReason: row.finishReason as FinishReason | null,
  };
}

export async function getRun(db: Db, id: string): Promise<RunRecord | null> {
  const row = await db.run.findUnique({ where: { id, importJobId: null }, select: RUN_SELECT });
  return row ? toRunRecord(row) : null;
}

/** At most this many words of a search are used (a pasted paragraph must not become a huge query). */
const MAX_SEARCH_WORDS = 12;

/**
 * A search box's text as the words to search for: split at whitespace, words with no letter or digit dropped (they
 * hold no token), at most MAX_SEARCH_WORDS; null when nothing is left to search for. Both backends start from these.
 */
export function searchWords(text: string): string[] | null {
  const words = text
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word))
    .slice(0, MAX_SEARCH_WORDS);
  return words.length === 0 ? null : words;
}

/**
 * A search box's text as an FTS5 query (SQLite): every word quoted and required, the last one as a prefix ("tok"*)
 * since it may still be being typed; the words before it are whole words (else "2 5 8 11" would find any run whose
 * tag holds a date of 2026-11 and a 5 and an 8 somewhere). Quoting makes the input plain words, never FTS syntax: a
 * quote, AND, NEAR( or * in the box is text to find, not an operator (a quote is doubled inside the string, as FTS5
 * escapes it). Null when nothing is left to search for.
 */
export function toFtsQuery(text: string): string | null {
  const words = searchWords(text);
  if (words === null) return null;
  return words.map((word, i) => `"${word.replaceAll('"', '""')}"${i === words.length - 1 ? '*' : ''}`).join(' ');
}

/**
 * The search's condition on run r: the one statement whose SQL differs by backend. SQLite asks its FTS5 table;
 * PostgreSQL its "RunSearch" tsvector table (prisma/migrations-postgres/20261201030000_runs_search), where
 * "arborist_search_query" cuts the words exactly as the stored documents were cut and builds the same query: every
 * word required, the last a prefix, the text bound as a parameter and turned into quoted lexemes, never parsed as
 * query syntax. One difference: FTS5 reads a word that splits into several ("don't", "4.5") as a phrase, PostgreSQL
 * as words that must all occur, adjacent or not.
 */
function searchCondition(kind: DatabaseKind, q: string): Prisma.Sql | null {
  const trace = traceSearch(q);
  const text = textSearch(kind, q);
  if (trace === null) return text;
  return text === null ? trace : Prisma.sql`(${text} OR ${trace})`;
}

/**
 * A search that is a trace id, or the start of one (8 to 32 hex digits, as a person pastes it from their tracing
 * tool), also finds the run that trace is (IngestClient.traceId, lower-case hex; lib/server/otel).
 */
function traceSearch(q: string): Prisma.Sql | null {
  const id = q.trim().toLowerCase();
  if (!/^[0-9a-f]{8,32}$/.test(id)) return null;
  return Prisma.sql`r."id" IN (SELECT "runId" FROM "IngestClient" WHERE "traceId" LIKE ${`${id}%`})`;
}

function textSearch(kind: DatabaseKind, q: string): Prisma.Sql | null {
  if (kind === 'postgresql') {
    const words = searchWords(q);
    if (words === null) return null;
    return Prisma.sql`r."id" IN (SELECT "runId" FROM "RunSearch" WHERE "document" @@ "arborist_search_query"(${words.join(' ')}))`;
  }
  const fts = toFtsQuery(q);
  return fts === null ? null : Prisma.sql`r."id" IN (SELECT "runId" FROM "RunSearch" WHERE "RunSearch" MATCH ${fts})`;
}

/**
 * The SQL conditions of a filter over "Run" r, or null when nothing can match (an empty status list). Every value is
 * a bound parameter; the search goes through the backend's full-text index (neither has a Prisma API).
 */
function filterConditions(db: Db, filter: RunFilter): Prisma.Sql[] | null {
  const conditions: Prisma.Sql[] = [Prisma.sql`r."importJobId" IS NULL`];
  const search = filter.q ? searchCondition(databaseKindOf(db), filter.q) : null;
  if (search !== null) conditions.push(search);
  if (filter.status !== undefined) {
    const statuses = Array.isArray(filter.status) ? filter.status : [filter.status];
    if (statuses.length === 0) return null;
    conditions.push(Prisma.sql`r."status" IN (${Prisma.join(statuses)})`);
  }
  if (filter.taskId !== undefined) conditions.push(Prisma.sql`r."taskId" = ${filter.taskId}`);
  if (filter.tag) conditions.push(Prisma.sql`r."importTag" = ${filter.tag}`);
  const isCell = Prisma.sql`EXISTS (SELECT 1 FROM "ExperimentCell" c WHERE c."runId" = r."id")`;
  if (filter.mine) conditions.push(Prisma.sql`r."importTag" IS NULL AND NOT ${isCell}`);
  if (filter.cells) conditions.push(isCell);
  // Prisma's `labels: { some: { label } }`, written as IN: SQLite then reads the labelled runs from Label's index on
  // label and looks each up by id (EXISTS made it scan every run); PostgreSQL plans both as the same semi-join
  if (filter.label)
    conditions.push(Prisma.sql`r."id" IN (SELECT "runId" FROM "Label" WHERE "label" = ${filter.label})`);
  return conditions;
}

const where = (conditions: Prisma.Sql[]) => Prisma.sql`WHERE ${Prisma.join(conditions, ' AND ')}`;

/**
 * A sort key's SQL over a run row `alias` (a fixed list: never text from a request). bestScore may be null: such a run
 * sorts as the lowest (-1, below every score of 0..1) so that a keyset comparison never meets a NULL.
 */
function sortExpression(by: RunSortKey, alias: 'r' | 'c'): Prisma.Sql {
  switch (by) {
    case 'created':
      return Prisma.raw(`${alias}."createdAt"`);
    case 'best':
      return Prisma.raw(`COALESCE(${alias}."bestScore", -1)`);
    case 'cost':
      return Prisma.raw(`${alias}."cost"`);
    case 'nodes':
      return Prisma.raw(`${alias}."totalNodes"`);
  }
}

/**
 * A page of runs in the asked order (default newest first), then by creation time and id in the same direction so
 * that equal keys keep a stable order. The cursor is the last id of the previous page; the next page is keyed on that
 * row's own values (keyset pagination: stable while runs are added, unlike an offset), read in SQL so no date crosses
 * the driver as a parameter. A cursor whose run has since been deleted gives an empty last page.
 */
export async function listRuns(db: Db, options: ListRunsOptions): Promise<RunPage> {
  const limit = Math.min(Math.max(Math.trunc(options.limit), 1), MAX_RUN_PAGE);
  const conditions = filterConditions(db, options);
  if (conditions === null) return { items: [], nextCursor: null };
  const sort = options.sort ?? DEFAULT_RUN_SORT;
  const key = sortExpression(sort.by, 'r');
  const dir = Prisma.raw(sort.dir === 'asc' ? 'ASC' : 'DESC');
  if (options.cursor) {
    const after = await db.run.findUnique({ where: { id: options.cursor, importJobId: null }, select: { id: true } });
    if (!after) return { items: [], nextCursor: null };
    const row = Prisma.sql`(${key}, r."createdAt", r."id")`;
    const cursorRow = Prisma.sql`(SELECT ${sortExpression(sort.by, 'c')}, c."createdAt", c."id" FROM "Run" c WHERE c."id" = ${after.id})`;
    conditions.push(sort.dir === 'asc' ? Prisma.sql`${row} > ${cursorRow}` : Prisma.sql`${row} < ${cursorRow}`);
  }
  const found = await db.$queryRaw<{ id: string }[]>`
    SELECT r."id" AS "id" FROM "Run" r
    ${where(conditions)}
    ORDER BY ${key} ${dir}, r."createdAt" ${dir}, r."id" ${dir}
    LIMIT ${limit + 1}`;
  const pageIds = found.slice(0, limit).map((row) => row.id);
  const [rows, counts] = await Promise.all([
    db.run.findMany({ where: { id: { in: pageIds } }, select: RUN_SELECT }),
    discussionCounts(db, pageIds),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  // a run deleted between the two queries is left out
  const items = pageIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ ...toRunRecord(row), discussion: counts.get(id) ?? { comments: 0, labels: 0 } }] : [];
  });
  return { items, nextCursor: found.length > limit ? (pageIds[pageIds.length - 1] ?? null) : null };
}

/** A filter's totals over all its runs (not a page): what the list's summary line says. */
export interface RunsSummary {
  runs: number;
  /** Runs whose answer a verifier checked (Run.verified not null). */
  checked: number;
  /** Runs whose answer the verifier accepted. */
  solved: number;
  /** Dollars of the priced calls (calls on a model with no price count 0; `unpricedRuns` says how many runs had one). */
  cost: number;
  /** Runs with at least one call on a model that has no price. */
  unpricedRuns: number;
}

export async function summarizeRuns(db: Db, filter: RunFilter): Promise<RunsSummary> {
  const conditions = filterConditions(db, filter);
  if (conditions === null) return { runs: 0, checked: 0, solved: 0, cost: 0, unpricedRuns: 0 };
  // SUM over no rows is NULL. COUNT and the integer SUMs come back as BigInt (SQLite's COUNT, PostgreSQL's bigint):
  // made plain numbers. `WHEN r."verified"` is true for SQLite's 1 and PostgreSQL's true alike (`= 1` is not
  // PostgreSQL: boolean = integer has no operator).
  const [row] = await db.$queryRaw<
    {
      runs: bigint | number;
      checked: bigint | number | null;
      solved: bigint | number | null;
      cost: number | null;
      unpriced: bigint | number | null;
    }[]
  >`
    SELECT COUNT(*) AS "runs",
      SUM(CASE WHEN r."verified" IS NOT NULL THEN 1 ELSE 0 END) AS "checked",
      SUM(CASE WHEN r."verified" THEN 1 ELSE 0 END) AS "solved",
      SUM(r."cost") AS "cost",
      SUM(CASE WHEN r."unpricedCalls" > 0 THEN 1 ELSE 0 END) AS "unpriced"
    FROM "Run" r
    ${where(conditions)}`;
  return {
    runs: Number(row?.runs ?? 0),
    checked: Number(row?.checked ?? 0),
    solved: Number(row?.solved ?? 0),
    cost: Number(row?.cost ?? 0),
    unpricedRuns: Number(row?.unpriced ?? 0),
  };
}

/** The import tags in use, with how many runs each holds, the most recent import first. */
export async function listImportTags(db: Db): Promise<{ tag: string; runs: number }[]> {
  const groups = await db.run.groupBy({
    by: ['importTag'],
    where: { importTag: { not: null }, importJobId: null },
    _count: { _all: true },
    _max: { createdAt: true },
    orderBy: { _max: { createdAt: 'desc' } },
  });
  return groups.flatMap((g) => (g.importTag === null ? [] : [{ tag: g.importTag, runs: g._count._all }]));
}

/** Runs in any of the given statuses, oldest first (e.g. the ones a restart must resume or mark interrupted). */
export async function findRunsByStatus(db: Db, statuses: readonly StoredRunStatus[]): Promise<RunRecord[]> {
  if (statuses.length === 0) return [];
  const rows = await db.run.findMany({
    where: { status: { in: [...statuses] }, importJobId: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: RUN_SELECT,
  });
  return rows.map(toRunRecord);
}

/** The runs forked from a run, oldest first. */
export async function findForks(db: Db, parentRunId: string): Promise<RunRecord[]> {
  const rows = await db.run.findMany({
    where: { parentRunId, importJobId: null },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: RUN_SELECT,
  });
  return rows.map(toRunRecord);
}
