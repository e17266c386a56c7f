'use client';
/**
 * The cells as a grid: one row per item (its goal, and its tags), one small square per configuration with its
 * repetitions folded ("2/3" solved when there are several), coloured by outcome (solved, failed, error, running,
 * queued, skipped); each square a plain link to its run at its best node (/runs/<id>?node=best). Filters by the
 * item's text, a tag and an outcome. Rows are memoised on what they show, and off-screen rows skip layout
 * (content-visibility), so a grid of thousands of cells stays responsive while the page polls.
 * Not responsible for folding rules (lib/forms/experiment-view.ts) nor for a run's page.
 */
import { memo, useMemo, useState } from 'react';
import { CELL_OUTCOMES, type CellOutcome, type ExperimentView } from '@/lib/contract/experiments';
import { NO_GRID_FILTERS, filterItems, gridOf, itemTags, type GridFilters, type GridSquare } from '@/lib/forms/index';
import s from './ExperimentView.module.css';

function squareTitle(goal: string, label: string, sq: GridSquare): string {
  const counts = sq.cells > 1 ? ` (${sq.solved}/${sq.cells} solved, ${sq.done} done)` : '';
  return `${goal} · ${label}: ${sq.outcome}${counts}${sq.runId ? '' : ' · no run yet'}`;
}

/** Past this many items, off-screen rows skip layout and paint (content-visibility). */
const LARGE_GRID_ITEMS = 200;

const Row = memo(function Row({
  goal,
  tags,
  labels,
  squares,
}: {
  goal: string;
  tags: string;
  labels: readonly string[];
  /** The squares as text (outcome, counts, run), so the memo compares cheaply. */
  squares: string;
}) {
  const list = JSON.parse(squares) as GridSquare[];
  return (
    <div className={s.gridRow} role="row">
      <span className={s.gridGoal} role="rowheader" title={goal}>
        {goal}
        {tags && <span className={s.gridTags}>{tags}</span>}
      </span>
      {list.map((sq, i) => {
        const title = squareTitle(goal, labels[i] ?? '', sq);
        const text = sq.cells > 1 && sq.done > 0 ? `${sq.solved}/${sq.cells}` : '';
        return sq.runId ? (
          <a
            key={i}
            role="gridcell"
            className={s.square}
            data-outcome={sq.outcome}
            href={`/runs/${encodeURIComponent(sq.runId)}?node=best`}
            title={title}
            aria-label={title}
            data-testid="grid-cell"
          >
            {text}
          </a>
        ) : (
          <span
            key={i}
            role="gridcell"
            className={s.square}
            data-outcome={sq.outcome}
            title={title}
            data-testid="grid-cell"
          >
            {text}
          </span>
        );
      })}
    </div>
  );
});

export function CellGrid({ view }: { view: ExperimentView }) {
  const [filters, setFilters] = useState<GridFilters>(NO_GRID_FILTERS);
  const grid = useMemo(
    () => gridOf(view.cells, view.items.length, view.configurations.length),
    [view.cells, view.items.length, view.configurations.length],
  );
  const tags = useMemo(() => itemTags(view.items), [view.items]);
  const shown = useMemo(() => filterItems(view.items, grid, filters), [view.items, grid, filters]);
  const labels = useMemo(() => view.configurations.map((c) => c.label), [view.configurations]);
  const set = (patch: Partial<GridFilters>) => setFilters((f) => ({ ...f, ...patch }));
  // a column as wide as its label reads (within bounds), the squares centred in it
  const longest = Math.max(0, ...labels.map((l) => l.length));
  const columnPx = Math.min(96, Math.max(32, longest * 7 + 10));
  const columns = `minmax(140px, 320px) repeat(${labels.length}, ${columnPx}px)`;
  return (
    <section className="panel" aria-labelledby="grid-heading" data-testid="cell-grid">
      <div className={`panel-head ${s.gridHead}`}>
        <h2 id="grid-heading">Cells</h2>
        <div className={s.filters}>
          <input
            className="input"
            type="search"
            placeholder="Filter items…"
            aria-label="Filter items by text"
            value={filters.text}
            onChange={(e) => set({ text: e.target.value })}
            data-testid="grid-filter-text"
          />
          {tags.length > 0 && (
            <select
              className="input"
              aria-label="Tag"
              value={filters.tag}
              onChange={(e) => set({ tag: e.target.value })}
            >
              <option value="">any tag</option>
              {tags.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          )}
          <select
            className="input"
            aria-label="Outcome"
            value={filters.outcome}
            onChange={(e) => set({ outcome: e.target.value as CellOutcome | '' })}
            data-testid="grid-filter-outcome"
          >
            <option value="">any outcome</option>
            {CELL_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          <span className="field-hint">
            {shown.length} of {view.items.length} items
          </span>
        </div>
      </div>
      <div className={s.legendRow} aria-hidden>
        {CELL_OUTCOMES.map((o) => (
          <span key={o} className={s.legendItem}>
            <span className={s.square} data-outcome={o} />
            {o}
          </span>
        ))}
      </div>
      <div
        className={`${s.gridScroll} ${view.items.length > LARGE_GRID_ITEMS ? s.gridLarge : ''}`}
        role="grid"
        aria-label="Items by configuration"
        style={{ ['--grid-columns' as string]: columns }}
      >
        <div className={`${s.gridRow} ${s.gridHeader}`} role="row">
          <span role="columnheader">Item</span>
          {labels.map((l, i) => (
            <span key={i} role="columnheader" className={s.columnLabel} title={l}>
              {l}
            </span>
          ))}
        </div>
        {shown.map((index) => {
          const item = view.items[index];
          if (!item) return null;
          return (
            <Row
              key={index}
              goal={item.goal}
              tags={item.tags.join(' · ')}
              labels={labels}
              squares={JSON.stringify(grid[index] ?? [])}
            />
          );
        })}
        {shown.length === 0 && <p className="empty">No item matches these filters.</p>}
      </div>
    </section>
  );
}
