'use client';
/**
 * Success against cost, as an SVG: one point per configuration at (mean cost per ended cell, success rate), with
 * its 95% interval as a vertical bar, axes with ticks and labels. No chart library: a handful of points.
 * Not responsible for the figures (the server's); a configuration with nothing done yet is left out and said so.
 */
import type { ConfigurationView } from '@/lib/contract/experiments';
import { formatCost } from '@/lib/contract/format';
import { niceMax } from '@/lib/forms/index';
import { seriesColour } from './ConfigurationTable';
import s from './ExperimentView.module.css';

const W = 560;
const H = 300;
const PAD = { left: 52, right: 40, top: 16, bottom: 44 };
const TICKS = [0, 0.25, 0.5, 0.75, 1];

export function SuccessCostChart({ configurations }: { configurations: readonly ConfigurationView[] }) {
  const shown = configurations.filter((c) => c.successRate !== null && c.meanCostUsd !== null);
  const xMax = niceMax(Math.max(0, ...shown.map((c) => c.meanCostUsd ?? 0)) * 1.1);
  const x = (v: number) => PAD.left + (v / xMax) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - v) * (H - PAD.top - PAD.bottom);
  // fifths of a round maximum (1, 2, 2.5, 5 x 10^n) are round themselves
  const xTicks = [0, 1, 2, 3, 4, 5].map((i) => (i * xMax) / 5);
  return (
    <figure className={s.chart} data-testid="success-cost-chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="Success rate against mean cost per run, per configuration">
        {TICKS.map((t) => (
          <g key={`y${t}`}>
            <line className={s.grid} x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
            <text className={s.tick} x={PAD.left - 8} y={y(t)} dy="0.32em" textAnchor="end">
              {Math.round(t * 100)}%
            </text>
          </g>
        ))}
        {xTicks.map((t, i) => (
          <text key={`x${i}`} className={s.tick} x={x(t)} y={H - PAD.bottom + 16} textAnchor="middle">
            {formatCost(t)}
          </text>
        ))}
        <line className={s.axis} x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} />
        <line className={s.axis} x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={y(0)} />
        <text className={s.axisLabel} x={(PAD.left + W - PAD.right) / 2} y={H - 6} textAnchor="middle">
          mean cost per run
        </text>
        <text
          className={s.axisLabel}
          transform={`translate(14 ${(PAD.top + y(0)) / 2}) rotate(-90)`}
          textAnchor="middle"
        >
          success rate
        </text>
        {shown.map((c) => {
          const cx = x(c.meanCostUsd ?? 0);
          const colour = seriesColour(c.index);
          return (
            <g key={c.index} data-testid="chart-point">
              <title>{`${c.label}: ${Math.round((c.successRate ?? 0) * 100)}% at ${formatCost(c.meanCostUsd ?? 0)} a run`}</title>
              {c.interval && (
                <>
                  <line
                    x1={cx}
                    x2={cx}
                    y1={y(c.interval.low)}
                    y2={y(c.interval.high)}
                    stroke={colour}
                    strokeWidth={2}
                  />
                  <line
                    x1={cx - 5}
                    x2={cx + 5}
                    y1={y(c.interval.low)}
                    y2={y(c.interval.low)}
                    stroke={colour}
                    strokeWidth={2}
                  />
                  <line
                    x1={cx - 5}
                    x2={cx + 5}
                    y1={y(c.interval.high)}
                    y2={y(c.interval.high)}
                    stroke={colour}
                    strokeWidth={2}
                  />
                </>
              )}
              <circle cx={cx} cy={y(c.successRate ?? 0)} r={5.5} fill={colour} className={s.point} />
              <text
                className={s.pointLabel}
                x={cx > W * 0.7 ? cx - 9 : cx + 9}
                y={y(c.successRate ?? 0)}
                dy="0.32em"
                textAnchor={cx > W * 0.7 ? 'end' : 'start'}
              >
                {c.label}
              </text>
            </g>
          );
        })}
      </svg>
      {shown.length < configurations.length && (
        <figcaption className="field-hint">
          {configurations.length - shown.length} configuration{configurations.length - shown.length === 1 ? '' : 's'}{' '}
          with no cell done yet {configurations.length - shown.length === 1 ? 'is' : 'are'} not drawn.
        </figcaption>
      )}
    </figure>
  );
}
