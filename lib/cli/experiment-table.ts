/**
 * What the experiment command prints, as pure functions of experiment.estimate's and experiment.byId's answers: the
 * estimate line, the progress line, the table of configurations and the labels on their runs' nodes. Every figure is the view's own (the page's):
 * nothing is recomputed here, only rounded for the terminal.
 * Not responsible for fetching the view or drawing the line in place (experiment.ts).
 */
import type { ConfigurationView, ExperimentView, LabelCount } from '../contract/experiments';
import { formatLabelCounts } from '../experiments/index';
import type { ExperimentEstimateView } from './experiment-api';

export const DASH = '—';

export function formatUsd(value: number | null): string {
  if (value === null) return DASH;
  return `$${value.toFixed(value !== 0 && Math.abs(value) < 0.01 ? 6 : 4)}`;
}

export function formatPercent(rate: number | null): string {
  return rate === null ? DASH : `${(rate * 100).toFixed(1)}%`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return DASH;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const fixed = (value: number | null, digits: number) => (value === null ? DASH : value.toFixed(digits));
const whole = (value: number | null) => (value === null ? DASH : Math.round(value).toLocaleString('en-US'));

/** "12 cells (3 items x 2 configurations x 2 repetitions) · estimated $0.0123 (basis)". */
export function estimateLine(
  estimate: ExperimentEstimateView,
  shape: { configurations: number; repetitions: number },
): string {
  const items = estimate.cells / (shape.configurations * shape.repetitions);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const cost =
    estimate.estimatedCostUsd === null ? 'no cost estimate' : `estimated ${formatUsd(estimate.estimatedCostUsd)}`;
  return (
    `${plural(estimate.cells, 'cell')} (${plural(items, 'item')} x ${plural(shape.configurations, 'configuration')} x ` +
    `${plural(shape.repetitions, 'repetition')}) · ${cost}${estimate.basis ? ` (${estimate.basis})` : ''}`
  );
}

/** "12/60 cells · b1 4/6 solved · b5 5/6 solved · $0.0123 · 8.00 s left". */
export function progressLine(view: ExperimentView): string {
  const perConfiguration = view.configurations.map((c) => `${c.label} ${c.solved}/${c.done} solved`);
  const left =
    view.status === 'paused'
      ? 'paused'
      : view.progress.etaMs !== null
        ? `${formatDuration(view.progress.etaMs)} left`
        : view.status === 'running'
          ? 'starting'
          : view.status;
  return [
    `${view.progress.done}/${view.progress.total} cells`,
    ...perConfiguration,
    formatUsd(view.progress.costUsd),
    left,
  ].join(' · ');
}

export const TABLE_COLUMNS = [
  'configuration',
  'success (95% CI)',
  'solved/done',
  'errors',
  'mean cost',
  'mean tokens',
  'mean calls',
  'mean wall',
  'explored nodes',
  'backtracks',
] as const;

/** One configuration's cells of the table, in TABLE_COLUMNS' order. */
export function tableRow(c: ConfigurationView): string[] {
  const success =
    c.successRate === null || c.interval === null
      ? DASH
      : `${formatPercent(c.successRate)} (${(c.interval.low * 100).toFixed(1)}–${(c.interval.high * 100).toFixed(1)}%)`;
  return [
    c.label,
    success,
    `${c.solved}/${c.done}`,
    String(c.error),
    formatUsd(c.meanCostUsd),
    whole(c.meanTokens),
    fixed(c.meanModelCalls, 1),
    formatDuration(c.meanWallMs),
    fixed(c.meanExploredNodes, 1),
    fixed(c.meanBacktracks, 1),
  ];
}

/** The configurations side by side: a header, a rule, one row each, columns padded to their widest cell. */
export function formatTable(view: ExperimentView): string {
  const rows = [[...TABLE_COLUMNS], ...view.configurations.map(tableRow)];
  const widths = TABLE_COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/**
 * The labels people put on nodes of each configuration's runs, one configuration a line under the table
 * ("Labels:     b1  evaluator wrong 2 · good thought 1"); none at all when no node of any cell is labelled, or when
 * the server is older than labels (its configurations have none).
 */
export function labelLines(configurations: readonly { label: string; labels?: readonly LabelCount[] }[]): string[] {
  const rows = configurations.map((c) => ({ label: c.label, labels: c.labels ?? [] }));
  if (!rows.some((c) => c.labels.length > 0)) return [];
  const width = Math.max(...rows.map((c) => c.label.length));
  return rows.map(
    (c, i) =>
      (i === 0 ? 'Labels:' : '').padEnd(12) +
      `${c.label.padEnd(width)}  ${c.labels.length > 0 ? formatLabelCounts(c.labels) : DASH}`,
  );
}

/** The lines under the table: status, cost, dataset, address. */
export function summaryLines(view: ExperimentView, address: string): string[] {
  const stop =
    view.stopReason === 'cost-cap' ? ' (its cost cap was reached)' : view.stopReason === 'aborted' ? ' (aborted)' : '';
  return [
    `Experiment: ${view.name} · ${view.status}${stop} · ${view.progress.done}/${view.progress.total} cells · spent ${formatUsd(view.progress.costUsd)}`,
    `Dataset:    ${view.dataset.name} (version ${view.dataset.version}, ${view.dataset.itemCount} items)`,
    `Address:    ${address}`,
  ];
}
