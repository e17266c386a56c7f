/**
 * Two configurations item by item: which items one solves and the other does not (the experiment page's
 * "where they differ" table), with each side's runs so a row opens both in /compare?a=<run>&b=<run>.
 * Repetitions are folded first (foldRepetitions): one row per item x configuration.
 * Not responsible for the overall rates and their intervals (aggregate.ts), nor for telling whether a difference
 * is significant (the per-configuration Wilson intervals are the page's guide).
 */
import type { CellFigures } from '../contract/experiments';
import { isDone } from './aggregate';

/** An item's repetitions under one configuration, folded. */
export interface FoldedCell {
  item: number;
  configuration: number;
  /** Its repetitions, whatever their outcome. */
  cells: number;
  /** Repetitions whose run ended (solved, failed or error). */
  done: number;
  solved: number;
  /**
   * Solved by the majority rule: true when more than half of its done repetitions solved it (a tie, 1 of 2, is not
   * solved), false when some are done and no majority solved it, null while none is done.
   */
  solvedByMajority: boolean | null;
  /** The runs of its repetitions, by repetition; cells without a run are left out. */
  runIds: string[];
  /** runIds split: the runs that solved it and the others (compareHref links the kind matching solvedByMajority). */
  solvedRunIds: string[];
  unsolvedRunIds: string[];
}

/** One row per item x configuration that has a cell, ordered by item, then configuration. */
export function foldRepetitions(cells: readonly CellFigures[]): FoldedCell[] {
  const byKey = new Map<string, { row: FoldedCell; runs: { repetition: number; runId: string; solved: boolean }[] }>();
  for (const cell of cells) {
    const key = `${cell.item}/${cell.configuration}`;
    let entry = byKey.get(key);
    if (!entry) {
      entry = {
        row: {
          item: cell.item,
          configuration: cell.configuration,
          cells: 0,
          done: 0,
          solved: 0,
          solvedByMajority: null,
          runIds: [],
          solvedRunIds: [],
          unsolvedRunIds: [],
        },
        runs: [],
      };
      byKey.set(key, entry);
    }
    entry.row.cells += 1;
    if (isDone(cell.outcome)) entry.row.done += 1;
    if (cell.outcome === 'solved') entry.row.solved += 1;
    if (cell.runId !== null) {
      entry.runs.push({ repetition: cell.repetition, runId: cell.runId, solved: cell.outcome === 'solved' });
    }
  }
  const rows = [...byKey.values()].map(({ row, runs }) => {
    runs.sort((x, y) => x.repetition - y.repetition);
    return {
      ...row,
      solvedByMajority: row.done === 0 ? null : row.solved * 2 > row.done,
      runIds: runs.map((r) => r.runId),
      solvedRunIds: runs.filter((r) => r.solved).map((r) => r.runId),
      unsolvedRunIds: runs.filter((r) => !r.solved).map((r) => r.runId),
    };
  });
  return rows.sort((x, y) => x.item - y.item || x.configuration - y.configuration);
}

/** One item as both configurations fold it. */
export interface ItemComparison {
  item: number;
  a: FoldedCell;
  b: FoldedCell;
}

export interface ConfigurationComparison {
  a: number;
  b: number;
  /** Solved by a's majority and not by b's. */
  onlyA: ItemComparison[];
  /** Solved by b's majority and not by a's. */
  onlyB: ItemComparison[];
  both: ItemComparison[];
  neither: ItemComparison[];
  /** Items not yet decided on one side or both (no done repetition), or with no cell on one side. */
  pending: number[];
}

function emptyFold(item: number, configuration: number): FoldedCell {
  return {
    item,
    configuration,
    cells: 0,
    done: 0,
    solved: 0,
    solvedByMajority: null,
    runIds: [],
    solvedRunIds: [],
    unsolvedRunIds: [],
  };
}

/**
 * Configurations `a` and `b` item by item. An item counts as solved by a configuration when the majority (more than
 * half) of its done repetitions solved it (a tie is not solved); an item with no done repetition on one side or
 * both is pending, in no other list. Each list is in item order.
 */
export function compareConfigurations(cells: readonly CellFigures[], a: number, b: number): ConfigurationComparison {
  const folded = foldRepetitions(cells.filter((c) => c.configuration === a || c.configuration === b));
  const items = new Map<number, { a?: FoldedCell; b?: FoldedCell }>();
  for (const row of folded) {
    const entry = items.get(row.item) ?? {};
    if (row.configuration === a) entry.a = row;
    if (row.configuration === b) entry.b = row;
    items.set(row.item, entry);
  }
  const result: ConfigurationComparison = { a, b, onlyA: [], onlyB: [], both: [], neither: [], pending: [] };
  for (const [item, entry] of [...items.entries()].sort(([x], [y]) => x - y)) {
    const row: ItemComparison = { item, a: entry.a ?? emptyFold(item, a), b: entry.b ?? emptyFold(item, b) };
    const solvedA = row.a.solvedByMajority;
    const solvedB = row.b.solvedByMajority;
    if (solvedA === null || solvedB === null) result.pending.push(item);
    else if (solvedA && solvedB) result.both.push(row);
    else if (solvedA) result.onlyA.push(row);
    else if (solvedB) result.onlyB.push(row);
    else result.neither.push(row);
  }
  return result;
}

/**
 * The /compare page's address for a row: a's run and b's run, each side's solving run when it solved the item
 * and its unsolved one otherwise (falling back to any run of the side); null when a side has no run.
 */
export function compareHref(row: ItemComparison): string | null {
  const pick = (side: FoldedCell) =>
    (side.solvedByMajority ? side.solvedRunIds[0] : side.unsolvedRunIds[0]) ?? side.runIds[0] ?? null;
  const runA = pick(row.a);
  const runB = pick(row.b);
  if (runA === null || runB === null) return null;
  return `/compare?a=${encodeURIComponent(runA)}&b=${encodeURIComponent(runB)}`;
}
