/**
 * Datasets, their versions, experiments and their cells: the SQL of lib/server/experiments. A dataset version's items
 * are one JSON text (written once, never edited); a cell is a row per item x configuration x repetition whose runId
 * is set in its run's own creation transaction (claimCell), so a cell never gets two runs, whichever instance asks.
 * Cells are read with their runs' stored rows: every figure of an experiment is a run's own.
 * Not responsible for what an experiment does next (lib/server/experiments), nor for runs' rows (the log room).
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../generated/prisma/client';
import { databaseKindOf, type Db } from '../db/client';
import type { DatasetItem, ExperimentStatus, ExperimentStopReason } from '../../contract/experiments';

export interface DatasetRecord {
  id: string;
  name: string;
  taskId: string;
  ownerId: string | null;
  latestVersion: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface DatasetVersionRecord {
  id: string;
  datasetId: string;
  version: number;
  source: string;
  itemCount: number;
  items: DatasetItem[];
  createdAt: Date;
}

export interface ExperimentRecord {
  id: string;
  name: string;
  taskId: string;
  datasetVersionId: string;
  /** As stored: ExperimentConfiguration[] (validated when the experiment was made). */
  configurations: unknown;
  repetitions: number;
  costCapUsd: number | null;
  estimatedCostUsd: number | null;
  status: ExperimentStatus;
  stopReason: ExperimentStopReason;
  finishedAt: Date | null;
  ownerId: string | null;
  importTag: string | null;
  createdAt: Date;
}

/** A cell with what its run's row says (null before it has a run, or when the run was deleted). */
export interface CellRow {
  item: number;
  configuration: number;
  repetition: number;
  runId: string | null;
  run: {
    status: string;
    success: boolean | null;
    finishReason: string | null;
    cost: number;
    unpricedCalls: number;
    stats: string | null;
    exploredNodes: number;
    bestScore: number | null;
    output: string | null;
    startedAt: Date | null;
    finishedAt: Date | null;
  } | null;
}

const VERSION_SELECT = {
  id: true,
  datasetId: true,
  version: true,
  source: true,
  itemCount: true,
  items: true,
  createdAt: true,
} as const;

function versionRecord(row: {
  id: string;
  datasetId: string;
  version: number;
  source: string;
  itemCount: number;
  items: string;
  createdAt: Date;
}): DatasetVersionRecord {
  return { ...row, items: JSON.parse(row.items) as DatasetItem[] };
}

/** A new dataset with its first version. */
export async function createDataset(
  db: Db,
  dataset: { name: string; taskId: string; ownerId: string | null; source: string; items: readonly DatasetItem[] },
): Promise<{ dataset: DatasetRecord; version: DatasetVersionRecord }> {
  const id = randomUUID();
  const created = await db.dataset.create({
    data: {
      id,
      name: dataset.name,
      taskId: dataset.taskId,
      ownerId: dataset.ownerId,
      latestVersion: 1,
      versions: {
        create: {
          id: randomUUID(),
          version: 1,
          source: dataset.source,
          itemCount: dataset.items.length,
          items: JSON.stringify(dataset.items),
        },
      },
    },
    include: { versions: { select: VERSION_SELECT } },
  });
  const { versions, ...record } = created;
  return { dataset: record, version: versionRecord(versions[0]!) };
}

/**
 * A new version of a dataset (its items replaced). The version number comes from a compare-and-set on
 * latestVersion, so two edits at once make two versions, never one number twice. Null when there is no such dataset.
 */
export async function addDatasetVersion(
  db: Db,
  datasetId: string,
  version: { source: string; items: readonly DatasetItem[] },
): Promise<DatasetVersionRecord | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await db.dataset.findUnique({ where: { id: datasetId }, select: { latestVersion: true } });
    if (!current) return null;
    const next = current.latestVersion + 1;
    const moved = await db.dataset.updateMany({
      where: { id: datasetId, latestVersion: current.latestVersion },
      data: { latestVersion: next },
    });
    if (moved.count === 0) continue; // another edit took this number: read again
    const row = await db.datasetVersion.create({
      data: {
        id: randomUUID(),
        datasetId,
        version: next,
        source: version.source,
        itemCount: version.items.length,
        items: JSON.stringify(version.items),
      },
      select: VERSION_SELECT,
    });
    return versionRecord(row);
  }
  throw new Error(`dataset ${datasetId}: too many edits at once`);
}

export async function getDataset(db: Db, id: string): Promise<DatasetRecord | null> {
  return db.dataset.findUnique({ where: { id } });
}

export async function listDatasets(db: Db, filter: { taskId?: string } = {}): Promise<DatasetRecord[]> {
  return db.dataset.findMany({
    where: filter.taskId ? { taskId: filter.taskId } : {},
    orderBy: { createdAt: 'desc' },
    take: 500,
  });
}

export async function getDatasetVersion(
  db: Db,
  where: { id: string } | { datasetId: string; version: number },
): Promise<DatasetVersionRecord | null> {
  const row =
    'id' in where
      ? await db.datasetVersion.findUnique({ where: { id: where.id }, select: VERSION_SELECT })
      : await db.datasetVersion.findUnique({
          where: { datasetId_version: { datasetId: where.datasetId, version: where.version } },
          select: VERSION_SELECT,
        });
  return row ? versionRecord(row) : null;
}

function experimentRecord(row: {
  id: string;
  name: string;
  taskId: string;
  datasetVersionId: string;
  configurations: string;
  repetitions: number;
  costCapUsd: number | null;
  estimatedCostUsd: number | null;
  status: string;
  stopReason: string | null;
  finishedAt: Date | null;
  ownerId: string | null;
  importTag: string | null;
  createdAt: Date;
}): ExperimentRecord {
  return {
    ...row,
    configurations: JSON.parse(row.configurations) as unknown,
    status: row.status as ExperimentStatus,
    stopReason: row.stopReason as ExperimentStopReason,
  };
}

const EXPERIMENT_SELECT = {
  id: true,
  name: true,
  taskId: true,
  datasetVersionId: true,
  configurations: true,
  repetitions: true,
  costCapUsd: true,
  estimatedCostUsd: true,
  status: true,
  stopReason: true,
  finishedAt: true,
  ownerId: true,
  importTag: true,
  createdAt: true,
} as const;

/** Rows per createMany: 500 x 4 parameters, far below both databases' bound-parameter limits. */
const CELL_CHUNK = 500;

/**
 * An experiment and every one of its cells (no run yet), in one transaction when `db` is one. Cells are numbered
 * item x configuration x repetition; `cellOrder` is the order they start in (nextCells).
 */
export async function createExperiment(
  db: Db,
  experiment: {
    id?: string;
    name: string;
    taskId: string;
    datasetVersionId: string;
    configurations: unknown;
    repetitions: number;
    itemCount: number;
    costCapUsd: number | null;
    estimatedCostUsd: number | null;
    status: ExperimentStatus;
    ownerId: string | null;
    importTag?: string | null;
    finishedAt?: Date | null;
  },
  runIds?: (cell: { item: number; configuration: number; repetition: number }) => string | null,
): Promise<ExperimentRecord> {
  const { itemCount, configurations, ...rest } = experiment;
  const configurationCount = (configurations as unknown[]).length;
  const row = await db.experiment.create({
    data: { ...rest, id: experiment.id ?? randomUUID(), configurations: JSON.stringify(configurations) },
    select: EXPERIMENT_SELECT,
  });
  const cells: {
    experimentId: string;
    item: number;
    configuration: number;
    repetition: number;
    runId: string | null;
  }[] = [];
  for (let repetition = 0; repetition < experiment.repetitions; repetition++)
    for (let item = 0; item < itemCount; item++)
      for (let configuration = 0; configuration < configurationCount; configuration++)
        cells.push({
          experimentId: row.id,
          item,
          configuration,
          repetition,
          runId: runIds?.({ item, configuration, repetition }) ?? null,
        });
  for (let i = 0; i < cells.length; i += CELL_CHUNK) {
    await db.experimentCell.createMany({ data: cells.slice(i, i + CELL_CHUNK) });
  }
  return experimentRecord(row);
}

export async function getExperiment(db: Db, id: string): Promise<ExperimentRecord | null> {
  const row = await db.experiment.findUnique({ where: { id }, select: EXPERIMENT_SELECT });
  return row ? experimentRecord(row) : null;
}

export async function listExperiments(
  db: Db,
  filter: { status?: ExperimentStatus[] } = {},
): Promise<ExperimentRecord[]> {
  const rows = await db.experiment.findMany({
    where: filter.status ? { status: { in: filter.status } } : {},
    orderBy: { createdAt: 'desc' },
    take: 500,
    select: EXPERIMENT_SELECT,
  });
  return rows.map(experimentRecord);
}

/** Moves an experiment from one of `from` to `to`; false when it was not in one of them (someone else moved it). */
export async function moveExperiment(
  db: Db,
  id: string,
  from: readonly ExperimentStatus[],
  to: { status: ExperimentStatus; stopReason?: ExperimentStopReason; finishedAt?: Date | null },
): Promise<boolean> {
  const moved = await db.experiment.updateMany({ where: { id, status: { in: [...from] } }, data: to });
  return moved.count > 0;
}

const RUN_FIGURES = {
  status: true,
  success: true,
  finishReason: true,
  cost: true,
  unpricedCalls: true,
  stats: true,
  exploredNodes: true,
  bestScore: true,
  output: true,
  startedAt: true,
  finishedAt: true,
} as const;

/** Every cell of an experiment with its run's row, in item x configuration x repetition order. */
export async function listCells(db: Db, experimentId: string): Promise<CellRow[]> {
  return db.experimentCell.findMany({
    where: { experimentId },
    orderBy: [{ item: 'asc' }, { configuration: 'asc' }, { repetition: 'asc' }],
    select: { item: true, configuration: true, repetition: true, runId: true, run: { select: RUN_FIGURES } },
  });
}

/**
 * The labels on an experiment's cells' runs: per run and label, how many of its nodes carry it (Label is indexed by
 * run first, and the cells by experiment and run).
 */
export async function cellLabelCounts(
  db: Db,
  experimentId: string,
): Promise<{ runId: string; label: string; count: number }[]> {
  const groups = await db.label.groupBy({
    by: ['runId', 'label'],
    where: { run: { experimentCell: { experimentId } } },
    _count: { _all: true },
  });
  return groups.map((g) => ({ runId: g.runId, label: g.label, count: g._count._all }));
}

/** Statuses of a run still taking a slot (or about to): a cell in flight. */
const IN_FLIGHT = ['queued', 'running', 'paused', 'interrupted'];

/** What an experiment has going: its cells in flight, the cells not started, and what its runs spent. */
export async function cellCounts(
  db: Db,
  experimentId: string,
): Promise<{ inFlight: number; unstarted: number; costUsd: number }> {
  const [inFlight, unstarted, spent] = await Promise.all([
    db.experimentCell.count({ where: { experimentId, run: { status: { in: IN_FLIGHT } } } }),
    db.experimentCell.count({ where: { experimentId, runId: null } }),
    db.run.aggregate({ where: { experimentCell: { experimentId } }, _sum: { cost: true } }),
  ]);
  return { inFlight, unstarted, costUsd: Number(spent._sum.cost ?? 0) };
}

/**
 * The next cells to start: no run yet, in start order (repetition, then item, then configuration, so the
 * configurations advance together and an early look compares like with like).
 */
export async function nextCells(
  db: Db,
  experimentId: string,
  limit: number,
): Promise<{ item: number; configuration: number; repetition: number }[]> {
  if (limit <= 0) return [];
  return db.experimentCell.findMany({
    where: { experimentId, runId: null },
    orderBy: [{ repetition: 'asc' }, { item: 'asc' }, { configuration: 'asc' }],
    take: limit,
    select: { item: true, configuration: true, repetition: true },
  });
}

/** Cells whose runs are in flight (an abort stops them). */
export async function inFlightRunIds(db: Db, experimentId: string): Promise<string[]> {
  const rows = await db.experimentCell.findMany({
    where: { experimentId, run: { status: { in: IN_FLIGHT } } },
    select: { runId: true },
  });
  return rows.flatMap((r) => (r.runId ? [r.runId] : []));
}

export class CellTakenError extends Error {
  constructor() {
    super('the cell already has a run');
    this.name = 'CellTakenError';
  }
}

/**
 * Gives a cell its run: only when it has none yet. Called inside the run's creation transaction, so a cell another
 * instance claimed first makes this run's creation roll back whole (CellTakenError).
 */
export async function claimCell(
  db: Db,
  cell: { experimentId: string; item: number; configuration: number; repetition: number },
  runId: string,
): Promise<void> {
  // the experiment must still be running when its cell is claimed, in the run's own transaction: a pause or an abort
  // committed meanwhile refuses the run (it is never made). On PostgreSQL the row is read FOR SHARE, so an abort's
  // UPDATE waits for this claim to commit and then finds the new run among those in flight to abort.
  const lock = databaseKindOf(db) === 'postgresql' ? Prisma.sql` FOR SHARE` : Prisma.empty;
  const [row] = await db.$queryRaw<{ status: string }[]>`
    SELECT "status" FROM "Experiment" WHERE "id" = ${cell.experimentId}${lock}`;
  if (row?.status !== 'running') throw new ExperimentStoppedError(row?.status ?? 'gone');
  const claimed = await db.experimentCell.updateMany({ where: { ...cell, runId: null }, data: { runId } });
  if (claimed.count === 0) throw new CellTakenError();
}

/** A cell's run was not made: its experiment was paused or stopped while the run was being created. */
export class ExperimentStoppedError extends Error {
  constructor(readonly status: string) {
    super(`the experiment is ${status}: it starts no cells`);
    this.name = 'ExperimentStoppedError';
  }
}

/** Of these runs, the experiment each is a cell of (a stopped run tells its experiment to go on). */
export async function experimentsOfRuns(db: Db, runIds: readonly string[]): Promise<string[]> {
  if (runIds.length === 0) return [];
  const rows = await db.experimentCell.findMany({
    where: { runId: { in: [...runIds] } },
    select: { experimentId: true },
    distinct: ['experimentId'],
  });
  return rows.map((r) => r.experimentId);
}

/** The experiment and item a run is a cell of, for the run page's way back; null for a run of no experiment. */
export async function cellOfRun(
  db: Db,
  runId: string,
): Promise<{ experimentId: string; name: string; item: number; configuration: number; repetition: number } | null> {
  const row = await db.experimentCell.findUnique({
    where: { runId },
    select: {
      experimentId: true,
      item: true,
      configuration: true,
      repetition: true,
      experiment: { select: { name: true } },
    },
  });
  return row ? { ...row, name: row.experiment.name } : null;
}
