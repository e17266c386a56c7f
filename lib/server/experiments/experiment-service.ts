/**
 * Experiments: a dataset version's items x configurations x repetitions, every cell an ordinary engine run made by
 * the run manager (the same queue, concurrency limit, budgets and crash recovery as any run). An experiment keeps at
 * most `cellsInFlight` of its cells queued or running and starts the next ones as runs stop (the log room tells it,
 * and a slow tick catches what it was not told: a restart, a run that ended on another instance). A cell is claimed
 * in its run's own creation transaction, so two instances never start one cell twice, and kill -9 loses no cell: the
 * ones that finished are stored runs, the interrupted ones resume with the run manager, the rest start after the
 * restart. With a cost cap, what is left of it is split so that the runs in flight can never spend past it together.
 * Not responsible for running a search (runs/), for the figures' definitions (lib/experiments), nor for SQL
 * (repositories/experiments.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  cellOutcome,
  createExperimentInput,
  EXPERIMENT_MAX_CELLS,
  type CellFigures,
  type CreateExperimentInput,
  type ExperimentConfiguration,
  type ExperimentListItem,
  type ExperimentView,
} from '../../contract/experiments';
import { type ModelSpec, modelSpecSchema } from '../../contract/model-spec';
import type { ToTConfig, ToTStats } from '../../contract/vocabulary';
import { resolveConfig } from '../../engine/index';
import { labelsByConfiguration, progressOf, summarizeByConfiguration } from '../../experiments/index';
import { ConflictError, ForbiddenError, InputError, NotFoundError } from '../core/errors';
import { loadPriceTable, readEnv } from '../core/env';
import type { Logger } from '../core/logger';
import { databaseKindOf, type PrismaClient } from '../db/client';
import {
  cellCounts,
  cellLabelCounts,
  CellTakenError,
  claimCell,
  ExperimentStoppedError,
  createDataset,
  createExperiment,
  experimentsOfRuns,
  getDataset,
  getDatasetVersion,
  getExperiment,
  inFlightRunIds,
  listCells,
  listExperiments,
  moveExperiment,
  nextCells,
  type CellRow,
  type DatasetVersionRecord,
  type ExperimentRecord,
} from '../repositories/experiments';
import type { RunLog } from '../run-log/index';
import { checkGoalAllowed, checkModelAllowed, remainingToday, type Caller } from '../runs/policy';
import { modelLabel, specModelId } from '../runs/model-factory';
import type { RunManager } from '../runs/run-manager';
import { checkItems } from './datasets';
import { estimateRunCost } from './estimate';

/** A configuration's model when it names none: the run form's default. */
export const DEFAULT_EXPERIMENT_MODEL: ModelSpec = { provider: 'simulated', seed: 1, latencyMs: 150 };
/** How often running experiments are looked at when no run stop told them anything (a restart, another instance). */
const TICK_MS = 2_000;
/** Dataset versions kept in memory (the ones being fed). */
const VERSIONS_KEPT = 16;
/** A cell starts under a cap only when it may spend at least this share of its configuration's estimate. */
const MIN_CAP_SHARE = 0.5;

export interface ExperimentServiceOptions {
  prisma: PrismaClient;
  manager: RunManager;
  runLog: RunLog;
  log: Logger;
  /** Cells of one experiment queued or running at once (the run manager's limit still holds over all runs). */
  cellsInFlight: number;
}

/** Who asks: for the policy (goals, models, budget) and the record. */
export interface ExperimentRequester {
  actor?: string;
  ownerId: string | null;
  caller?: Caller;
}

interface Prepared {
  name: string;
  taskId: string;
  datasetId: string | null;
  goals: { goal: string; expected: string | null; tags: string[] }[];
  configurations: (ExperimentConfiguration & { model: ModelSpec; resolved: ToTConfig })[];
  repetitions: number;
  costCapUsd: number | null;
  cells: number;
  estimatedCostUsd: number | null;
  basis: string;
  perRunUsd: (number | null)[];
}

export interface ExperimentEstimate {
  cells: number;
  estimatedCostUsd: number | null;
  basis: string;
  problems: { field: string; message: string }[];
}

/** A repetition's model: its own seed (the configuration's + the repetition), so repetitions differ and replay. */
function modelFor(spec: ModelSpec, repetition: number): ModelSpec {
  if (spec.provider === 'replay' || repetition === 0) return spec;
  return { ...spec, seed: (spec.seed ?? 0) + repetition } as ModelSpec;
}

function parseStats(text: string | null): Partial<ToTStats> {
  if (!text) return {};
  try {
    return JSON.parse(text) as Partial<ToTStats>;
  } catch {
    return {};
  }
}

/**
 * A cell as the page sees it: every figure its run's own stored one. A run the experiment's cost cap stopped (its
 * budget was the cap's, not its configuration's) is skipped, not failed: the configuration did not fail, the money ran out.
 */
function cellFigures(cell: CellRow, ended: boolean, capOnly: (configuration: number) => boolean): CellFigures {
  const run = cell.run;
  const cutByCap = run?.status === 'finished' && run.finishReason === 'budget' && capOnly(cell.configuration);
  const outcome = cutByCap ? 'skipped' : cellOutcome(run, ended);
  const stats = parseStats(run?.stats ?? null);
  const stopped = run && (run.status === 'finished' || run.status === 'failed');
  return {
    item: cell.item,
    configuration: cell.configuration,
    repetition: cell.repetition,
    runId: run ? cell.runId : null,
    outcome,
    costUsd: run?.cost ?? 0,
    unpricedCalls: run?.unpricedCalls ?? 0,
    tokens: stats.tokenUsage?.totalTokens ?? 0,
    modelCalls: stats.modelCalls ?? 0,
    wallMs: stopped && run.startedAt && run.finishedAt ? run.finishedAt.getTime() - run.startedAt.getTime() : null,
    exploredNodes: run?.exploredNodes ?? 0,
    backtracks: stats.backtrackCount ?? 0,
    bestScore: run?.bestScore ?? null,
    output: run?.output ?? null,
  };
}

const ended = (experiment: ExperimentRecord) => experiment.status === 'finished' || experiment.status === 'aborted';

export class ExperimentService {
  private readonly feeding = new Map<string, Promise<void>>();
  /** Dataset versions' items by version id: written once, never edited, so read once per process. */
  private readonly versions = new Map<string, DatasetVersionRecord>();
  /** The experiment of each cell run this process started (a stop of one needs no query to find its experiment). */
  private readonly cellRuns = new Map<string, string>();
  private readonly again = new Set<string>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly options: ExperimentServiceOptions) {}

  /** Follows running experiments: told of every run that stops here, and a tick for what it was not told. */
  start(): void {
    if (this.timer) return;
    this.unsubscribe = this.options.runLog.onStop((runId) => {
      const known = this.cellRuns.get(runId);
      if (known) {
        this.cellRuns.delete(runId);
        void this.feed(known);
        return;
      }
      void experimentsOfRuns(this.options.prisma, [runId])
        .then((ids) => ids.forEach((id) => void this.feed(id)))
        .catch((error: unknown) => this.options.log.warn('experiment not told of a run stop', { runId, error }));
    });
    this.timer = setInterval(() => void this.feedRunning(), TICK_MS);
    this.timer.unref?.();
    void this.feedRunning();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  /** Every running experiment gets its next cells (after a restart: the cells it had not started). */
  async feedRunning(): Promise<void> {
    try {
      const running = await listExperiments(this.options.prisma, { status: ['running'] });
      await Promise.all(running.map((e) => this.feed(e.id)));
    } catch (error) {
      this.options.log.warn('experiments not fed', { error });
    }
  }

  /** Starts what an experiment may start now; one feed at a time per experiment (a call meanwhile runs it again). */
  feed(id: string): Promise<void> {
    const current = this.feeding.get(id);
    if (current) {
      this.again.add(id);
      return current;
    }
    const run = (async () => {
      do {
        this.again.delete(id);
        await this.feedOnce(id).catch((error: unknown) =>
          this.options.log.warn('experiment cells not started', { experimentId: id, error }),
        );
      } while (this.again.has(id));
    })().finally(() => this.feeding.delete(id));
    this.feeding.set(id, run);
    return run;
  }

  /**
   * One look at an experiment. On a team server every instance feeds every running experiment: one at a time per
   * experiment (a transaction's advisory lock, held while this instance starts its cells; the others skip the turn),
   * so the cells in flight keep to the limit across the cluster. The claim in each run's creation keeps a cell from
   * running twice even without it.
   */
  private async feedOnce(id: string): Promise<void> {
    const prisma = this.options.prisma;
    if (databaseKindOf(prisma) !== 'postgresql') return this.feedUnlocked(id);
    await prisma.$transaction(
      async (tx) => {
        const [row] = await tx.$queryRaw<{ locked: boolean }[]>`
          SELECT pg_try_advisory_xact_lock(hashtext(${`arborist-experiment:${id}`})) AS locked`;
        if (row?.locked) await this.feedUnlocked(id);
      },
      { timeout: 120_000 },
    );
  }

  private async feedUnlocked(id: string): Promise<void> {
    const prisma = this.options.prisma;
    const experiment = await getExperiment(prisma, id);
    if (!experiment || experiment.status !== 'running') return;
    const counts = await cellCounts(prisma, id);
    if (counts.unstarted === 0) {
      if (counts.inFlight === 0)
        await moveExperiment(prisma, id, ['running'], { status: 'finished', finishedAt: new Date() });
      return;
    }
    const slots = this.options.cellsInFlight - counts.inFlight;
    if (slots <= 0) return;
    const version = await this.version(experiment.datasetVersionId);
    const configurations = experiment.configurations as (ExperimentConfiguration & {
      model: ModelSpec;
      perRunUsd?: number | null;
    })[];
    let remaining =
      experiment.costCapUsd === null ? null : experiment.costCapUsd - (await this.reserved(id, counts.costUsd));
    for (const cell of await nextCells(prisma, id, slots)) {
      const configuration = configurations[cell.configuration]!;
      let maxCostUsd = configuration.config.maxCostUsd ?? null;
      if (remaining !== null) {
        const share = (configuration.perRunUsd ?? 0) * MIN_CAP_SHARE;
        if (remaining <= 0 || remaining < share) {
          // nothing left for another cell: the experiment ends once its runs in flight have
          if ((await cellCounts(prisma, id)).inFlight === 0) {
            await moveExperiment(prisma, id, ['running'], {
              status: 'finished',
              stopReason: 'cost-cap',
              finishedAt: new Date(),
            });
          }
          return;
        }
        maxCostUsd = Math.min(maxCostUsd ?? Infinity, remaining);
      }
      const runId = randomUUID();
      this.cellRuns.set(runId, id);
      try {
        await this.options.manager.create({
          id: runId,
          taskId: experiment.taskId,
          goal: version.items[cell.item]!.goal,
          config: { ...configuration.config, ...(maxCostUsd !== null && { maxCostUsd }) },
          model: modelFor(configuration.model, cell.repetition),
          actor: `experiment ${experiment.name}`,
          ownerId: experiment.ownerId,
          alsoWrite: (tx) => claimCell(tx, { experimentId: id, ...cell }, runId),
        });
      } catch (error) {
        this.cellRuns.delete(runId);
        if (error instanceof CellTakenError) continue; // another instance started it
        if (error instanceof ExperimentStoppedError) return; // paused or aborted meanwhile: no run was made
        throw error;
      }
      if (remaining !== null && maxCostUsd !== null) remaining -= maxCostUsd;
    }
  }

  private async version(id: string): Promise<DatasetVersionRecord> {
    const cached = this.versions.get(id);
    if (cached) return cached;
    const version = await getDatasetVersion(this.options.prisma, { id });
    if (!version) throw new Error(`dataset version ${id} is gone`);
    // a few versions are fed at once; a version holds up to 10,000 items, so the oldest goes past VERSIONS_KEPT
    if (this.versions.size >= VERSIONS_KEPT) this.versions.delete(this.versions.keys().next().value!);
    this.versions.set(id, version);
    return version;
  }

  /** What the experiment's runs spent, plus what its runs in flight may still spend under their caps. */
  private async reserved(id: string, spent: number): Promise<number> {
    const runs = await this.options.prisma.run.findMany({
      where: { id: { in: await inFlightRunIds(this.options.prisma, id) } },
      select: { cost: true, config: true },
    });
    let reserved = spent;
    for (const run of runs) {
      const cap = (JSON.parse(run.config) as Partial<ToTConfig>).maxCostUsd;
      if (typeof cap === 'number') reserved += Math.max(0, cap - run.cost);
    }
    return reserved;
  }

  /** Checks an experiment whole, as create would; throws InputError naming the first field that is wrong. */
  private async prepare(raw: CreateExperimentInput, who: ExperimentRequester): Promise<Prepared> {
    const input = createExperimentInput.parse(raw);
    const prisma = this.options.prisma;
    if (!input.items === !input.datasetId) throw new InputError('items', 'give the items or a dataset, not both');
    let datasetId: string | null = null;
    let goals: Prepared['goals'];
    if (input.datasetId) {
      const dataset = await getDataset(prisma, input.datasetId);
      if (!dataset) throw new InputError('datasetId', `no dataset ${input.datasetId}`);
      if (dataset.taskId !== input.taskId)
        throw new InputError('datasetId', `the dataset is of ${dataset.taskId}, not ${input.taskId}`);
      const version = await getDatasetVersion(prisma, { datasetId: dataset.id, version: dataset.latestVersion });
      if (!version) throw new InputError('datasetId', `dataset ${dataset.id} has no version ${dataset.latestVersion}`);
      datasetId = dataset.id;
      goals = checkItems(input.taskId, version.items).map((i) => ({ ...i, expected: i.expected ?? null }));
    } else {
      goals = checkItems(
        input.taskId,
        input.items!.map((goal) => ({ goal, tags: [] })),
      ).map((i) => ({ ...i, expected: i.expected ?? null }));
    }
    if (who.caller) for (const item of goals) checkGoalAllowed(who.caller, { taskId: input.taskId, goal: item.goal });
    const labels = new Set<string>();
    const configurations: Prepared['configurations'] = [];
    for (const [i, configuration] of input.configurations.entries()) {
      if (labels.has(configuration.label))
        throw new InputError(`configurations.${i}.label`, `two configurations are labelled "${configuration.label}"`);
      labels.add(configuration.label);
      const model = modelSpecSchema.parse(configuration.model ?? DEFAULT_EXPERIMENT_MODEL);
      if (model.provider === 'replay')
        throw new InputError(`configurations.${i}.model`, 'a replay answers one run’s calls: it cannot run a dataset');
      if (who.caller) {
        try {
          await checkModelAllowed(who.caller, model);
        } catch (error) {
          if (error instanceof InputError) throw new InputError(`configurations.${i}.model`, error.message);
          throw error;
        }
      }
      let resolved: ToTConfig;
      try {
        resolved = resolveConfig(configuration.config);
      } catch (error) {
        const issue = (error as { issues?: { path: (string | number)[] | string; message: string }[] }).issues?.[0];
        const path = issue && issue.path !== '(config)' ? [issue.path].flat().join('.') : '';
        throw new InputError(
          `configurations.${i}.config${path ? `.${path}` : ''}`,
          issue?.message ?? (error as Error).message,
        );
      }
      configurations.push({ ...configuration, model, resolved });
    }
    const cells = goals.length * configurations.length * input.repetitions;
    if (cells < 1) throw new InputError('items', 'an experiment needs at least one cell');
    if (cells > EXPERIMENT_MAX_CELLS)
      throw new InputError(
        'items',
        `${cells.toLocaleString('en-US')} cells (${goals.length} items x ${configurations.length} configurations x ${input.repetitions} repetitions): at most ${EXPERIMENT_MAX_CELLS.toLocaleString('en-US')}`,
      );
    const prices = loadPriceTable(readEnv());
    const estimates = await Promise.all(
      configurations.map((c) =>
        estimateRunCost(prisma, { taskId: input.taskId, modelId: specModelId(c.model), config: c.resolved }, prices),
      ),
    );
    const runsPer = goals.length * input.repetitions;
    const unpriced = estimates.some((e) => e.perRunUsd === null);
    const estimatedCostUsd = unpriced ? null : estimates.reduce((sum, e) => sum + e.perRunUsd! * runsPer, 0);
    return {
      name: input.name?.trim() || `${configurations.map((c) => c.label).join(' vs ')} on ${goals.length} items`,
      taskId: input.taskId,
      datasetId,
      goals,
      configurations,
      repetitions: input.repetitions,
      costCapUsd: input.costCapUsd ?? null,
      cells,
      estimatedCostUsd,
      basis: estimates.map((e, i) => `${configurations[i]!.label}: ${e.basis}`).join('; '),
      perRunUsd: estimates.map((e) => e.perRunUsd),
    };
  }

  /** The budgets an experiment must fit before it starts: its own cap and the person's day. */
  private async checkBudgets(prepared: Prepared, who: ExperimentRequester): Promise<void> {
    const estimate = prepared.estimatedCostUsd;
    if (estimate === null) return;
    if (prepared.costCapUsd !== null && estimate > prepared.costCapUsd)
      throw new InputError(
        'costCapUsd',
        `the estimate ($${estimate.toFixed(4)}) passes the experiment's cap ($${prepared.costCapUsd.toFixed(4)})`,
      );
    if (who.caller) {
      const left = await remainingToday(this.options.prisma, who.caller);
      if (left !== null && estimate > left)
        throw new ForbiddenError(
          `the estimate ($${estimate.toFixed(4)}) passes what is left of today's budget ($${left.toFixed(4)})`,
        );
    }
  }

  /** The cell count and cost an experiment would have, and what create would refuse (nothing is stored). */
  async estimate(raw: CreateExperimentInput, who: ExperimentRequester): Promise<ExperimentEstimate> {
    try {
      const prepared = await this.prepare(raw, who);
      const problems: ExperimentEstimate['problems'] = [];
      await this.checkBudgets(prepared, who).catch((error: unknown) => {
        if (error instanceof InputError) problems.push({ field: error.field, message: error.message });
        else if (error instanceof ForbiddenError) problems.push({ field: 'budget', message: error.message });
        else throw error;
      });
      return { cells: prepared.cells, estimatedCostUsd: prepared.estimatedCostUsd, basis: prepared.basis, problems };
    } catch (error) {
      if (error instanceof InputError)
        return {
          cells: 0,
          estimatedCostUsd: null,
          basis: '',
          problems: [{ field: error.field, message: error.message }],
        };
      throw error;
    }
  }

  /** Checks and stores an experiment with every cell, then starts its first cells. */
  async create(raw: CreateExperimentInput, who: ExperimentRequester): Promise<{ id: string }> {
    const prepared = await this.prepare(raw, who);
    await this.checkBudgets(prepared, who);
    const prisma = this.options.prisma;
    const experiment = await prisma.$transaction(async (tx) => {
      const versionId = prepared.datasetId
        ? (await getDatasetVersion(tx, {
            datasetId: prepared.datasetId,
            version: (await getDataset(tx, prepared.datasetId))!.latestVersion,
          }))!.id
        : (
            await createDataset(tx, {
              name: prepared.name,
              taskId: prepared.taskId,
              ownerId: who.ownerId,
              source: 'items',
              items: prepared.goals,
            })
          ).version.id;
      return createExperiment(tx, {
        name: prepared.name,
        taskId: prepared.taskId,
        datasetVersionId: versionId,
        configurations: prepared.configurations.map(({ label, config, model }, i) => ({
          label,
          config,
          model,
          perRunUsd: prepared.perRunUsd[i],
        })),
        repetitions: prepared.repetitions,
        itemCount: prepared.goals.length,
        costCapUsd: prepared.costCapUsd,
        estimatedCostUsd: prepared.estimatedCostUsd,
        status: 'running',
        ownerId: who.ownerId,
      });
    });
    this.options.log.info(`experiment ${experiment.id}: ${prepared.cells} cells`, { experimentId: experiment.id });
    await this.feed(experiment.id);
    return { id: experiment.id };
  }

  async pause(id: string): Promise<void> {
    if (!(await moveExperiment(this.options.prisma, id, ['running'], { status: 'paused' })))
      throw await this.conflict(id, 'pause');
  }

  async resume(id: string): Promise<void> {
    if (!(await moveExperiment(this.options.prisma, id, ['paused'], { status: 'running' })))
      throw await this.conflict(id, 'resume');
    await this.feed(id);
  }

  /** Starts no more cells and aborts the ones in flight (they end as skipped). */
  async abort(id: string, actor?: string): Promise<void> {
    const moved = await moveExperiment(this.options.prisma, id, ['running', 'paused'], {
      status: 'aborted',
      stopReason: 'aborted',
      finishedAt: new Date(),
    });
    if (!moved) throw await this.conflict(id, 'abort');
    for (const runId of await inFlightRunIds(this.options.prisma, id)) {
      await this.options.manager
        .command(runId, { type: 'abort', actor: actor ?? 'experiment' })
        .catch((error: unknown) => this.options.log.warn('cell not aborted', { runId, error }));
    }
  }

  private async conflict(id: string, what: string): Promise<Error> {
    const experiment = await getExperiment(this.options.prisma, id);
    if (!experiment) return new NotFoundError(`no experiment ${id}`);
    return new ConflictError(`the experiment is ${experiment.status}: it cannot ${what}`);
  }

  async record(id: string): Promise<ExperimentRecord | null> {
    return getExperiment(this.options.prisma, id);
  }

  /** The experiment as its page shows it: every figure an aggregate of its runs' stored rows. */
  async view(id: string, now = new Date()): Promise<ExperimentView> {
    const prisma = this.options.prisma;
    const experiment = await getExperiment(prisma, id);
    if (!experiment) throw new NotFoundError(`no experiment ${id}`);
    const [version, rows, runLabels] = await Promise.all([
      getDatasetVersion(prisma, { id: experiment.datasetVersionId }),
      listCells(prisma, id),
      cellLabelCounts(prisma, id),
    ]);
    if (!version) throw new Error(`experiment ${id}: its dataset version is gone`);
    const dataset = await getDataset(prisma, version.datasetId);
    const configurations = experiment.configurations as (ExperimentConfiguration & { model: ModelSpec })[];
    const capOnly = (i: number) =>
      experiment.costCapUsd !== null && (configurations[i]?.config?.maxCostUsd ?? null) === null;
    const cells = rows.map((row) => cellFigures(row, ended(experiment), capOnly));
    const figures = summarizeByConfiguration(cells, configurations.length);
    const labels = labelsByConfiguration(cells, runLabels, configurations.length);
    const progress = progressOf(cells);
    const starts = rows.flatMap((r) => (r.run?.startedAt ? [r.run.startedAt.getTime()] : []));
    const firstStart = starts.length ? Math.min(...starts) : null;
    const left = cells.filter((c) => c.outcome === 'queued' || c.outcome === 'running').length;
    const etaMs =
      experiment.status === 'running' && firstStart !== null && progress.done > 0 && left > 0
        ? ((now.getTime() - firstStart) / progress.done) * left
        : null;
    return {
      id: experiment.id,
      name: experiment.name,
      taskId: experiment.taskId,
      status: experiment.status,
      stopReason: experiment.stopReason,
      createdAt: experiment.createdAt.toISOString(),
      finishedAt: experiment.finishedAt?.toISOString() ?? null,
      repetitions: experiment.repetitions,
      costCapUsd: experiment.costCapUsd,
      estimatedCostUsd: experiment.estimatedCostUsd,
      importTag: experiment.importTag,
      ownerId: experiment.ownerId,
      dataset: {
        id: version.datasetId,
        name: dataset?.name ?? '',
        version: version.version,
        itemCount: version.itemCount,
      },
      items: version.items.map((item, index) => ({
        index,
        goal: item.goal,
        expected: item.expected ?? null,
        tags: item.tags ?? [],
      })),
      configurations: configurations.map((c, index) => ({
        index,
        label: c.label,
        config: c.config ?? {},
        modelLabel: c.model ? modelLabel(c.model) : 'imported',
        ...figures[index]!,
        labels: labels[index]!,
      })),
      cells,
      progress: { done: progress.done, total: progress.total, costUsd: progress.costUsd, etaMs },
    };
  }

  async list(): Promise<ExperimentListItem[]> {
    const prisma = this.options.prisma;
    const experiments = await listExperiments(prisma);
    return Promise.all(
      experiments.map(async (e) => {
        const version = await prisma.datasetVersion.findUnique({
          where: { id: e.datasetVersionId },
          select: { dataset: { select: { name: true } } },
        });
        const [cells, done, spent] = await Promise.all([
          prisma.experimentCell.count({ where: { experimentId: e.id } }),
          prisma.experimentCell.count({
            where: { experimentId: e.id, run: { status: { in: ['finished', 'failed'] } } },
          }),
          prisma.run.aggregate({ where: { experimentCell: { experimentId: e.id } }, _sum: { cost: true } }),
        ]);
        return {
          id: e.id,
          name: e.name,
          taskId: e.taskId,
          status: e.status,
          createdAt: e.createdAt.toISOString(),
          datasetName: version?.dataset.name ?? '',
          configurations: (e.configurations as { label: string }[]).map((c) => c.label),
          cells,
          done,
          costUsd: Number(spent._sum.cost ?? 0),
          importTag: e.importTag,
        };
      }),
    );
  }

  /**
   * The experiment a foreign log of many games is: one configuration (named from the runs' own settings) over their
   * goals, every cell one of the imported runs, ended as the log ended. Null when the runs are fewer than two or not
   * of one task and model (nothing to compare then).
   */
  async recordImport(
    runIds: readonly string[],
    options: { fileName?: string | null; ownerId: string | null },
  ): Promise<{ id: string } | null> {
    const prisma = this.options.prisma;
    const rows = await prisma.run.findMany({
      where: { id: { in: [...runIds] } },
      select: { id: true, taskId: true, goal: true, modelId: true, modelLabel: true, config: true, importTag: true },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const runs = runIds.flatMap((id) => byId.get(id) ?? []);
    if (runs.length < 2) return null;
    const first = runs[0]!;
    if (runs.some((r) => r.taskId !== first.taskId || r.modelId !== first.modelId)) return null;
    const config = JSON.parse(first.config) as Partial<ToTConfig>;
    const label = `${first.modelLabel} · ${config.explorationStrategy ?? 'search'} b=${config.beamWidth ?? '?'}`;
    const name = `${options.fileName ?? first.importTag ?? 'imported log'} (${runs.length} games)`;
    const experiment = await prisma.$transaction(async (tx) => {
      const { version } = await createDataset(tx, {
        name,
        taskId: first.taskId,
        ownerId: options.ownerId,
        source: `import:${first.importTag ?? ''}`,
        items: runs.map((r) => ({ goal: r.goal, expected: null, tags: [] })),
      });
      return createExperiment(
        tx,
        {
          name,
          taskId: first.taskId,
          datasetVersionId: version.id,
          configurations: [{ label, config }],
          repetitions: 1,
          itemCount: runs.length,
          costCapUsd: null,
          estimatedCostUsd: null,
          status: 'finished',
          finishedAt: new Date(),
          ownerId: options.ownerId,
          importTag: first.importTag,
        },
        ({ item }) => runs[item]!.id,
      );
    });
    return { id: experiment.id };
  }

  /** Settles when no feed is in flight (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.feeding.size > 0) await Promise.all([...this.feeding.values()]);
  }
}
