'use client';
/**
 * Each configuration's figures, one row each: its label, model and config changes; the success rate with its 95%
 * interval ("74% [65–82%]"), solved of done, errors; mean and median cost, mean tokens and model calls, mean and
 * median wall time, mean nodes explored and backtracks; and, once someone has labelled a node of a cell's run, the
 * labels on its cells' runs ("evaluator wrong 3 · good thought 5"). Every figure is the server's (lib/experiments).
 * Not responsible for computing them.
 */
import type { ConfigurationView } from '@/lib/contract/experiments';
import { formatCost, formatDuration, formatTokens } from '@/lib/contract/format';
import { formatLabelCounts } from '@/lib/experiments/index';
import { formatRate } from '@/lib/forms/index';
import s from './ExperimentView.module.css';

const dash = <span className={s.muted}>—</span>;
const num = (x: number | null, digits = 1) => (x === null ? dash : x.toFixed(digits));
const cost = (x: number | null) => (x === null ? dash : formatCost(x));
const wall = (x: number | null) => (x === null ? dash : formatDuration(x));

function configText(config: Record<string, unknown>): string {
  const parts = Object.entries(config).map(([k, v]) => `${k} ${String(v)}`);
  return parts.length > 0 ? parts.join(', ') : 'the defaults';
}

export function ConfigurationTable({ configurations }: { configurations: readonly ConfigurationView[] }) {
  // a column only once there is something in it: most experiments are never labelled
  const labelled = configurations.some((c) => c.labels.length > 0);
  return (
    <div className={s.scroll}>
      <table className={s.table} data-testid="configuration-table">
        <thead>
          <tr>
            <th className={s.colLabel}>Configuration</th>
            <th title="Solved of done, with the 95% Wilson interval">Success</th>
            <th className={s.num}>Solved</th>
            <th className={s.num} title="Runs that failed outside the search">
              Errors
            </th>
            <th className={s.num}>Mean cost</th>
            <th className={s.num}>Median cost</th>
            <th className={s.num}>Mean tokens</th>
            <th className={s.num} title="Mean model calls per run">
              Calls
            </th>
            <th className={s.num}>Mean wall</th>
            <th className={s.num}>Median wall</th>
            <th className={s.num} title="Mean nodes explored per run">
              Nodes
            </th>
            <th className={s.num} title="Mean backtracks per run">
              Backtracks
            </th>
            {labelled && (
              <th title="Labels people put on nodes of this configuration's runs: how many nodes carry each">Labels</th>
            )}
          </tr>
        </thead>
        <tbody>
          {configurations.map((c) => (
            <tr key={c.index} data-testid="configuration-row">
              <td className={s.labelCell}>
                <div className={s.labelInner}>
                  <span className={s.swatch} style={{ background: seriesColour(c.index) }} aria-hidden />
                  <span className={s.labelText}>
                    <b>{c.label}</b>
                    <span className={s.muted} title={configText(c.config)}>
                      {c.modelLabel} · {configText(c.config)}
                    </span>
                  </span>
                </div>
              </td>
              <td className={s.rate} data-testid="configuration-rate">
                {formatRate(c.successRate, c.interval)}
              </td>
              <td className={s.num}>
                {c.solved}/{c.done}
                {c.done < c.cells && <span className={s.muted}> of {c.cells}</span>}
              </td>
              <td className={s.num}>{c.error > 0 ? <span className={s.errorText}>{c.error}</span> : 0}</td>
              <td className={s.num}>{cost(c.meanCostUsd)}</td>
              <td className={s.num}>{cost(c.medianCostUsd)}</td>
              <td className={s.num}>{c.meanTokens === null ? dash : formatTokens(Math.round(c.meanTokens))}</td>
              <td className={s.num}>{num(c.meanModelCalls)}</td>
              <td className={s.num}>{wall(c.meanWallMs)}</td>
              <td className={s.num}>{wall(c.medianWallMs)}</td>
              <td className={s.num}>{num(c.meanExploredNodes)}</td>
              <td className={s.num}>{num(c.meanBacktracks)}</td>
              {labelled && (
                <td className={s.nodeLabels} data-testid="configuration-labels">
                  {c.labels.length > 0 ? formatLabelCounts(c.labels) : dash}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A configuration's colour in the chart and the table (CSS variables: light and dark have their own). */
export function seriesColour(index: number): string {
  return `var(--series-${index % 6})`;
}
