'use client';
/**
 * How far the experiment is: cells done of all (a bar), the time left at the pace so far (progress.etaMs) and the
 * cost so far against the cap. Shown while it runs or is paused, and as one line once it has ended.
 * Not responsible for the pace (the server's etaMs).
 */
import type { ExperimentView } from '@/lib/contract/experiments';
import { formatCost, formatDuration } from '@/lib/contract/format';
import s from './ExperimentView.module.css';

export function ExperimentProgress({ view }: { view: ExperimentView }) {
  const { done, total, costUsd, etaMs } = view.progress;
  const share = total > 0 ? done / total : 0;
  const active = view.status === 'running' || view.status === 'paused';
  const capShare = view.costCapUsd ? Math.min(1, costUsd / view.costCapUsd) : null;
  return (
    <section className={`panel ${s.progress}`} aria-label="Progress" data-testid="experiment-progress">
      <div className={s.progressLine}>
        <b data-testid="progress-count">
          {done.toLocaleString('en-US')} of {total.toLocaleString('en-US')} cells done
        </b>
        <span className={s.muted}>{Math.round(share * 100)}%</span>
        {active && (
          <span data-testid="progress-eta">
            {view.status === 'paused'
              ? 'paused'
              : etaMs === null
                ? 'time left: after the first cell'
                : `about ${formatDuration(etaMs)} left`}
          </span>
        )}
        <span className={s.progressCost} data-testid="progress-cost">
          {formatCost(costUsd)} spent
          {view.costCapUsd !== null && ` of ${formatCost(view.costCapUsd)} cap`}
          {view.estimatedCostUsd !== null && (
            <span className={s.muted}> · estimated {formatCost(view.estimatedCostUsd)}</span>
          )}
        </span>
      </div>
      <div
        className={s.bar}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-label="Cells done"
        data-testid="progress-bar"
      >
        <span
          className={`${s.barFill} ${view.status === 'running' ? s.barLive : ''}`}
          style={{ width: `${(share * 100).toFixed(2)}%` }}
        />
      </div>
      {capShare !== null && (
        <div className={s.capBar} title="Cost so far against the cap" aria-hidden>
          <span style={{ width: `${(capShare * 100).toFixed(2)}%` }} />
        </div>
      )}
    </section>
  );
}
