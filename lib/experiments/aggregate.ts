/**
 * A configuration's figures from its cells (the experiment page's table, the API's experiment.byId, the CLI's
 * summary): counts per outcome, the success rate and its Wilson interval, sums of cost, and means and medians of
 * what the ended runs measured. Every figure is computed from the cells' own stored run figures, nothing estimated.
 * Also the labels people put on the cells' runs' nodes, counted per configuration (labelsByConfiguration).
 * Not responsible for reading runs into cells (lib/server/experiments does, with the contract's cellOutcome), nor
 * for comparing two configurations item by item (compare.ts).
 */
import type { CellFigures, CellOutcome, ConfigurationFigures, LabelCount } from '../contract/experiments';
import { wilsonInterval } from './wilson';

/** The cells whose run ended with an answer or an error: what a rate and a mean are taken over. */
export function isDone(outcome: CellOutcome): boolean {
  return outcome === 'solved' || outcome === 'failed' || outcome === 'error';
}

function mean(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/** The middle value; of an even count, the mean of the two middle ones. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * One configuration's figures over `cells` (pass only that configuration's cells). done = solved + failed + error;
 * successRate = solved / done (an error is not solved); costUsd and unpricedCalls are summed over every cell that
 * has a run (a skipped cell's aborted run spent money too); means and medians are over done cells (wall time over
 * the done cells that have one).
 */
export function summarizeCells(cells: readonly CellFigures[]): ConfigurationFigures {
  const counts: Record<CellOutcome, number> = { solved: 0, failed: 0, error: 0, running: 0, queued: 0, skipped: 0 };
  let costUsd = 0;
  let unpricedCalls = 0;
  const done: CellFigures[] = [];
  for (const cell of cells) {
    counts[cell.outcome] += 1;
    if (cell.runId !== null) {
      costUsd += cell.costUsd;
      unpricedCalls += cell.unpricedCalls;
    }
    if (isDone(cell.outcome)) done.push(cell);
  }
  const costs = done.map((c) => c.costUsd);
  const walls = done.flatMap((c) => (c.wallMs === null ? [] : [c.wallMs]));
  return {
    cells: cells.length,
    done: done.length,
    ...counts,
    successRate: done.length === 0 ? null : counts.solved / done.length,
    interval: wilsonInterval(counts.solved, done.length),
    costUsd,
    unpricedCalls,
    meanCostUsd: mean(costs),
    medianCostUsd: median(costs),
    meanTokens: mean(done.map((c) => c.tokens)),
    meanModelCalls: mean(done.map((c) => c.modelCalls)),
    meanWallMs: mean(walls),
    medianWallMs: median(walls),
    meanExploredNodes: mean(done.map((c) => c.exploredNodes)),
    meanBacktracks: mean(done.map((c) => c.backtracks)),
  };
}

/**
 * Each configuration's figures, in the experiment's order: entry i summarises the cells whose configuration is i
 * (a configuration with no cell yet gets all-zero counts and null means). Cells naming an index outside
 * 0..configurationCount-1 are ignored.
 */
export function summarizeByConfiguration(
  cells: readonly CellFigures[],
  configurationCount: number,
): ConfigurationFigures[] {
  const groups: CellFigures[][] = Array.from({ length: configurationCount }, () => []);
  for (const cell of cells) groups[cell.configuration]?.push(cell);
  return groups.map(summarizeCells);
}

/** One run's nodes carrying one label: what the database's grouped count of Label by run and label gives. */
export interface RunLabelCount {
  runId: string;
  label: string;
  count: number;
}

/**
 * Each configuration's labels, in the experiment's order: entry i sums `runLabels` over the runs of the cells whose
 * configuration is i (every cell with a run, whatever its outcome), by label name; a configuration with none gets [].
 * A run that is no cell's, and a cell naming an index outside 0..configurationCount-1, are ignored.
 */
export function labelsByConfiguration(
  cells: readonly CellFigures[],
  runLabels: readonly RunLabelCount[],
  configurationCount: number,
): LabelCount[][] {
  const configurationOf = new Map<string, number>();
  for (const cell of cells) if (cell.runId !== null) configurationOf.set(cell.runId, cell.configuration);
  const sums = Array.from({ length: configurationCount }, () => new Map<string, number>());
  for (const row of runLabels) {
    const configuration = configurationOf.get(row.runId);
    const sum = configuration === undefined ? undefined : sums[configuration];
    sum?.set(row.label, (sum.get(row.label) ?? 0) + row.count);
  }
  return sums.map((sum) =>
    [...sum].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([label, count]) => ({ label, count })),
  );
}

/** A configuration's labels in one line: "evaluator wrong 3 · good thought 5"; '' for none. */
export function formatLabelCounts(labels: readonly LabelCount[]): string {
  return labels.map((l) => `${l.label} ${l.count}`).join(' · ');
}

export interface ExperimentProgress {
  /** Cells that will not run again: every outcome but queued and running (skipped included). */
  done: number;
  total: number;
  /** Spent so far, over every cell that has a run. */
  costUsd: number;
}

/** How far the experiment has got, for its progress bar and the list's row. */
export function progressOf(cells: readonly CellFigures[]): ExperimentProgress {
  let done = 0;
  let costUsd = 0;
  for (const cell of cells) {
    if (cell.outcome !== 'queued' && cell.outcome !== 'running') done += 1;
    if (cell.runId !== null) costUsd += cell.costUsd;
  }
  return { done, total: cells.length, costUsd };
}
