/**
 * The experiment page's view model, free of React: a rate with its interval as the tables say it ("74% [65–82%]"),
 * a grid square's outcome from its repetitions, the grid's filters (item text, tag, outcome), and the success-cost
 * chart's scales. Fed by experiment.byId's answer (lib/contract/experiments) and lib/experiments' folding.
 * Not responsible for the figures themselves (the server computes them with lib/experiments) nor for rendering.
 */
import type { CellFigures, CellOutcome, ExperimentItemView, RateInterval } from '@/lib/contract/experiments';

/** 0.74 with [0.65, 0.82] -> "74% [65–82%]"; "—" before any cell is done. */
export function formatRate(rate: number | null, interval: RateInterval | null): string {
  if (rate === null) return '—';
  const pct = (x: number) => Math.round(x * 100);
  return interval ? `${pct(rate)}% [${pct(interval.low)}–${pct(interval.high)}%]` : `${pct(rate)}%`;
}

/** One grid square: an item under a configuration, its repetitions folded. */
export interface GridSquare {
  outcome: CellOutcome;
  solved: number;
  done: number;
  cells: number;
  /** The run the square opens: the first failed or errored repetition (what needs a look), else the first. */
  runId: string | null;
}

/**
 * A square's colour from its repetitions: running while any runs; solved when most done repetitions solved; error
 * when errors outnumber plain failures among the unsolved; failed otherwise; queued (or skipped) while none is done.
 */
export function foldOutcome(cells: readonly CellFigures[]): GridSquare {
  let solved = 0;
  let failed = 0;
  let error = 0;
  let running = 0;
  let skipped = 0;
  for (const c of cells) {
    if (c.outcome === 'solved') solved++;
    else if (c.outcome === 'failed') failed++;
    else if (c.outcome === 'error') error++;
    else if (c.outcome === 'running') running++;
    else if (c.outcome === 'skipped') skipped++;
  }
  const done = solved + failed + error;
  const outcome: CellOutcome =
    running > 0
      ? 'running'
      : done === 0
        ? skipped > 0 && skipped === cells.length
          ? 'skipped'
          : 'queued'
        : solved * 2 > done
          ? 'solved'
          : error > failed
            ? 'error'
            : 'failed';
  const look = cells.find((c) => c.runId && (c.outcome === 'failed' || c.outcome === 'error'));
  const runId = (outcome === 'solved' ? undefined : look?.runId) ?? cells.find((c) => c.runId)?.runId ?? null;
  return { outcome, solved, done, cells: cells.length, runId };
}

/** Squares by item, then configuration: `grid[item][configuration]`. */
export function gridOf(cells: readonly CellFigures[], items: number, configurations: number): GridSquare[][] {
  const groups: CellFigures[][][] = Array.from({ length: items }, () =>
    Array.from({ length: configurations }, () => []),
  );
  for (const c of cells) groups[c.item]?.[c.configuration]?.push(c);
  return groups.map((row) => row.map(foldOutcome));
}

export interface GridFilters {
  text: string;
  tag: string;
  /** '' for any. */
  outcome: CellOutcome | '';
}

export const NO_GRID_FILTERS: GridFilters = { text: '', tag: '', outcome: '' };

/** The items the filters keep, by index: the text in the goal or expected answer, the tag, a square of the outcome. */
export function filterItems(
  items: readonly ExperimentItemView[],
  grid: readonly GridSquare[][],
  filters: GridFilters,
): number[] {
  const text = filters.text.trim().toLowerCase();
  return items
    .filter((item) => {
      if (text && !item.goal.toLowerCase().includes(text) && !(item.expected ?? '').toLowerCase().includes(text))
        return false;
      if (filters.tag && !item.tags.includes(filters.tag)) return false;
      if (filters.outcome && !(grid[item.index] ?? []).some((sq) => sq.outcome === filters.outcome)) return false;
      return true;
    })
    .map((item) => item.index);
}

/** Every tag of the items, sorted. */
export function itemTags(items: readonly ExperimentItemView[]): string[] {
  return [...new Set(items.flatMap((i) => i.tags))].sort();
}

/** A chart axis from 0 (or the lowest value) to a round value at or above the highest. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const step = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * step >= max) return m * step;
  return 10 * step;
}
