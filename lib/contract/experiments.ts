/**
 * Experiments as every room sees them, defined once: a dataset (a named, versioned list of goals of one task), an
 * experiment (a dataset's items x configurations x repetitions; every cell an ordinary run), a cell's outcome read
 * from its run's stored row, and the API's inputs (tRPC `dataset.*`, `experiment.*`, the CLI, the page's form).
 * Browser-safe; imports zod and the rest of the contract only.
 * Not responsible for running cells (lib/server/experiments), for aggregates and intervals (lib/experiments), nor for
 * parsing uploaded files (lib/experiments/datasets.ts).
 */
import { z } from 'zod';
import { modelSpecSchema } from './model-spec';
import type { StoredRunStatus } from './run-status';
import { GOAL_MAX_LENGTH } from './tasks';
import { toTConfigFields } from './vocabulary';

/** An experiment holds at least one cell and at most this many (items x configurations x repetitions). */
export const EXPERIMENT_MAX_CELLS = 10_000;
/** Configurations side by side in one experiment. */
export const EXPERIMENT_MAX_CONFIGURATIONS = 12;
export const EXPERIMENT_MAX_REPETITIONS = 100;
/** Items in one dataset version. */
export const DATASET_MAX_ITEMS = 10_000;
/** Tags on one item, and their length. */
export const ITEM_MAX_TAGS = 20;
export const TAG_MAX_LENGTH = 60;
/** An uploaded dataset file, in bytes. */
export const DATASET_MAX_BYTES = 4 * 1024 * 1024;

/** One goal of a dataset: what a cell searches, what it should find (optional, shown beside the run's answer), tags. */
export const datasetItemSchema = z.strictObject({
  goal: z.string().min(1).max(GOAL_MAX_LENGTH),
  expected: z.string().max(GOAL_MAX_LENGTH).nullish(),
  tags: z.array(z.string().min(1).max(TAG_MAX_LENGTH)).max(ITEM_MAX_TAGS).default([]),
});
export type DatasetItem = z.infer<typeof datasetItemSchema>;

const nameSchema = z.string().trim().min(1, 'a name is needed').max(120);

/** dataset.create: items given directly, a file's text (JSONL or CSV), or a shipped set. */
export const createDatasetInput = z
  .strictObject({
    name: nameSchema,
    taskId: z.string().min(1).max(40),
    items: z.array(datasetItemSchema).max(DATASET_MAX_ITEMS).optional(),
    /** A file's text: JSONL (one JSON object or string per line) or CSV (a header with `goal`). */
    file: z.strictObject({ format: z.enum(['jsonl', 'csv']), text: z.string().max(DATASET_MAX_BYTES) }).optional(),
    /** A shipped set by id (lib/experiments/datasets.ts `SHIPPED_DATASETS`), e.g. "game24:900-999". */
    shipped: z.string().min(1).max(80).optional(),
  })
  .refine((d) => [d.items, d.file, d.shipped].filter((x) => x !== undefined).length === 1, {
    message: 'give exactly one of items, file or shipped',
    path: ['items'],
  });
export type CreateDatasetInput = z.infer<typeof createDatasetInput>;

/** dataset.update: a new version of a dataset (its items replaced); experiments keep the version they ran. */
export const updateDatasetInput = z.strictObject({
  id: z.string().min(1).max(100),
  items: z.array(datasetItemSchema).max(DATASET_MAX_ITEMS).optional(),
  file: z.strictObject({ format: z.enum(['jsonl', 'csv']), text: z.string().max(DATASET_MAX_BYTES) }).optional(),
});

/** One configuration of an experiment: a label, config changes and a model, as `run.create` takes them. */
export const experimentConfigurationSchema = z.strictObject({
  label: z.string().trim().min(1, 'a configuration needs a label').max(80),
  config: toTConfigFields.partial().default({}),
  model: modelSpecSchema.optional(),
});
export type ExperimentConfiguration = z.infer<typeof experimentConfigurationSchema>;

export const createExperimentInput = z.strictObject({
  name: z.string().trim().max(120).optional(),
  taskId: z.string().min(1).max(40),
  /** The goals directly (a dataset is made for them), or a dataset (its latest version). */
  items: z.array(z.string().max(GOAL_MAX_LENGTH)).max(EXPERIMENT_MAX_CELLS).optional(),
  datasetId: z.string().min(1).max(100).optional(),
  configurations: z.array(experimentConfigurationSchema).min(1).max(EXPERIMENT_MAX_CONFIGURATIONS),
  /** Runs per item and configuration, each with its own seed (the model's seed + repetition). */
  repetitions: z.number().int().min(1).max(EXPERIMENT_MAX_REPETITIONS).default(1),
  /** The most the whole experiment may spend, in USD: no cell starts once it is spent, and each run is capped to what is left. */
  costCapUsd: z.number().positive().max(100_000).optional(),
});
export type CreateExperimentInput = z.input<typeof createExperimentInput>;

/** What a cell's run says of it: its stored row's status and success, nothing computed apart. */
export const CELL_OUTCOMES = ['solved', 'failed', 'error', 'running', 'queued', 'skipped'] as const;
export type CellOutcome = (typeof CELL_OUTCOMES)[number];

/**
 * A cell's outcome from its run's row: solved or failed as the run finished (its own `success`), error for a run
 * that failed, running while it runs, is paused or waits to resume, queued before its run exists or starts, skipped
 * when it never ran (the experiment was aborted or reached its cost cap) or its run was aborted.
 */
export function cellOutcome(
  run: { status: StoredRunStatus | string; success: boolean | null; finishReason: string | null } | null,
  experimentEnded: boolean,
): CellOutcome {
  if (!run) return experimentEnded ? 'skipped' : 'queued';
  switch (run.status) {
    case 'queued':
      return experimentEnded ? 'skipped' : 'queued';
    case 'running':
    case 'paused':
    case 'interrupted':
      return 'running';
    case 'failed':
      return 'error';
    case 'finished':
      if (run.finishReason === 'aborted') return 'skipped';
      return run.success ? 'solved' : 'failed';
    default:
      return 'error';
  }
}

export const EXPERIMENT_STATUSES = ['running', 'paused', 'finished', 'aborted'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

/** Why an experiment stopped starting cells, when it did before every cell ran. */
export type ExperimentStopReason = 'aborted' | 'cost-cap' | null;

/** A cell as the page and the aggregates see it: its outcome and its run's own stored figures (zero before it ran). */
export interface CellFigures {
  /** The item's index in the experiment's dataset version. */
  item: number;
  /** The configuration's index in the experiment's list. */
  configuration: number;
  repetition: number;
  runId: string | null;
  outcome: CellOutcome;
  /** The run's cost in USD (calls on a model with no price are counted in unpricedCalls, not here). */
  costUsd: number;
  unpricedCalls: number;
  /** Input + output tokens of every model call. */
  tokens: number;
  modelCalls: number;
  /** From the run's first start to its end; null while it has not ended. */
  wallMs: number | null;
  exploredNodes: number;
  backtracks: number;
  /** The best node's own score (0..1), null when none. */
  bestScore: number | null;
  /** The run's answer, null when it has none. */
  output: string | null;
}

/** A 95% interval of a rate (Wilson score interval), both ends in 0..1. */
export interface RateInterval {
  low: number;
  high: number;
}

/** One configuration's figures over its cells: every one an aggregate of the runs' stored figures. */
export interface ConfigurationFigures {
  cells: number;
  /** Cells whose run ended: solved + failed + error. */
  done: number;
  solved: number;
  failed: number;
  error: number;
  running: number;
  queued: number;
  skipped: number;
  /** solved / done (an error counts as not solved); null before any cell is done. */
  successRate: number | null;
  /** The Wilson interval of successRate at 95%; null before any cell is done. */
  interval: RateInterval | null;
  /** Sums over every cell that ran, and per ended cell (mean, median); null before any cell is done. */
  costUsd: number;
  unpricedCalls: number;
  meanCostUsd: number | null;
  medianCostUsd: number | null;
  meanTokens: number | null;
  meanModelCalls: number | null;
  meanWallMs: number | null;
  medianWallMs: number | null;
  meanExploredNodes: number | null;
  meanBacktracks: number | null;
}

/** How many nodes of a configuration's cells' runs carry one label (a team's judgement, issue 34). */
export interface LabelCount {
  label: string;
  count: number;
}

/** A configuration as experiment.byId returns it: what it is, its figures, and the labels on its cells' runs. */
export interface ConfigurationView extends ConfigurationFigures {
  index: number;
  label: string;
  /** The config changes it makes (the rest is the task's defaults). */
  config: Record<string, unknown>;
  /** How the model is shown ("simulated (seed 1, 150 ms)", "gpt-4o-mini at api.openai.com"). */
  modelLabel: string;
  /** Each label on a node of one of its cells' runs, with how many nodes carry it; by name, none when unlabelled. */
  labels: LabelCount[];
}

export interface ExperimentItemView {
  index: number;
  goal: string;
  expected: string | null;
  tags: string[];
}

/** experiment.byId's answer: the experiment, its items, configurations with their figures, and every cell. */
export interface ExperimentView {
  id: string;
  name: string;
  taskId: string;
  status: ExperimentStatus;
  stopReason: ExperimentStopReason;
  createdAt: string;
  finishedAt: string | null;
  repetitions: number;
  costCapUsd: number | null;
  estimatedCostUsd: number | null;
  /** Set for the experiment an import of a many-game log made. */
  importTag: string | null;
  /** The user who made it (team mode: they may share it); null in local mode. */
  ownerId: string | null;
  dataset: { id: string; name: string; version: number; itemCount: number };
  items: ExperimentItemView[];
  configurations: ConfigurationView[];
  cells: CellFigures[];
  progress: {
    done: number;
    total: number;
    costUsd: number;
    /** ms left at the pace so far (cells done per ms since the first start), null before a cell is done or once ended. */
    etaMs: number | null;
  };
}

/** One row of experiment.list. */
export interface ExperimentListItem {
  id: string;
  name: string;
  taskId: string;
  status: ExperimentStatus;
  createdAt: string;
  datasetName: string;
  configurations: string[];
  cells: number;
  done: number;
  costUsd: number;
  importTag: string | null;
}
