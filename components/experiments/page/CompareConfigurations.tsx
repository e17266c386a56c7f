'use client';
/**
 * Two configurations item by item (lib/experiments compareConfigurations: repetitions folded by majority): pick a
 * and b, see how many items both, neither or only one solves, and the items where they differ, each row a link to
 * the two runs side by side (/compare?a=<run>&b=<run>).
 * Not responsible for the rule of "solved" with repetitions (lib/experiments).
 */
import Link from 'next/link';
import { useMemo, useState } from 'react';
import type { ExperimentView } from '@/lib/contract/experiments';
import { compareConfigurations, compareHref, type ItemComparison } from '@/lib/experiments/index';
import s from './ExperimentView.module.css';

function DiffList({ title, rows, view }: { title: string; rows: readonly ItemComparison[]; view: ExperimentView }) {
  return (
    <div className={s.diffList}>
      <h3 className={s.diffTitle}>
        {title} <span className="count-pill">{rows.length}</span>
      </h3>
      {rows.length === 0 ? (
        <p className="field-hint">none</p>
      ) : (
        <ul data-testid="compare-rows">
          {rows.map((row) => {
            const href = compareHref(row);
            const goal = view.items[row.item]?.goal ?? `item ${row.item + 1}`;
            return (
              <li key={row.item}>
                {href ? (
                  <Link href={href} data-testid="compare-row" title="Open both runs side by side">
                    {goal}
                  </Link>
                ) : (
                  goal
                )}
                <span className={s.muted}>
                  {' '}
                  {row.a.solved}/{row.a.done} vs {row.b.solved}/{row.b.done}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

export function CompareConfigurations({ view }: { view: ExperimentView }) {
  const [a, setA] = useState(0);
  const [b, setB] = useState(Math.min(1, view.configurations.length - 1));
  const comparison = useMemo(() => compareConfigurations(view.cells, a, b), [view.cells, a, b]);
  const label = (i: number) => view.configurations[i]?.label ?? `configuration ${i + 1}`;
  const select = (value: number, onChange: (v: number) => void, name: string) => (
    <select
      className="input"
      aria-label={name}
      value={value}
      onChange={(e) => onChange(Number(e.target.value))}
      data-testid={`compare-${name}`}
    >
      {view.configurations.map((c) => (
        <option key={c.index} value={c.index}>
          {c.label}
        </option>
      ))}
    </select>
  );
  return (
    <section className="panel" aria-labelledby="compare-heading" data-testid="compare-section">
      <div className="panel-head">
        <h2 id="compare-heading">Compare</h2>
        <span className={s.comparePick}>
          {select(a, setA, 'a')} vs {select(b, setB, 'b')}
        </span>
      </div>
      <div className="panel-body">
        {view.configurations.length < 2 ? (
          <p className="field-hint">One configuration: nothing to compare.</p>
        ) : a === b ? (
          <p className="field-hint">Pick two different configurations.</p>
        ) : (
          <>
            <p className={s.compareSummary} data-testid="compare-summary">
              both solve: {comparison.both.length} · neither: {comparison.neither.length} · only {label(a)}:{' '}
              {comparison.onlyA.length} · only {label(b)}: {comparison.onlyB.length}
              {comparison.pending.length > 0 && ` · not decided yet: ${comparison.pending.length}`}
            </p>
            <div className={s.diffColumns}>
              <DiffList title={`Only ${label(a)} solves`} rows={comparison.onlyA} view={view} />
              <DiffList title={`Only ${label(b)} solves`} rows={comparison.onlyB} view={view} />
            </div>
          </>
        )}
      </div>
    </section>
  );
}
