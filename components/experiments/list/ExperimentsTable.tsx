'use client';
/**
 * The experiments list (experiment.list, newest first): name, task, dataset, configurations, progress, cost, status
 * and age, polled every few seconds while one of them runs. Loading, empty and error states are designed.
 * Not responsible for starting one (form/NewExperimentForm.tsx) or its figures (page/).
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { ExperimentListItem } from '@/lib/contract/experiments';
import { formatCost } from '@/lib/contract/format';
import { taskLabel } from '@/lib/contract/tasks';
import { useTRPC } from '@/lib/trpc/index';
import s from './ExperimentsTable.module.css';

const ACTIVE_POLL_MS = 2_000;
const IDLE_POLL_MS = 15_000;

function Row({ experiment: e }: { experiment: ExperimentListItem }) {
  const share = e.cells > 0 ? e.done / e.cells : 0;
  const created = new Date(e.createdAt);
  return (
    <tr data-testid="experiment-row" data-status={e.status}>
      <td className={s.name}>
        <Link href={`/experiments/${encodeURIComponent(e.id)}`} title={e.name}>
          {e.name}
        </Link>
      </td>
      <td className={s.muted}>{taskLabel(e.taskId)}</td>
      <td className={s.clip} title={e.datasetName}>
        {e.datasetName}
      </td>
      <td className={s.clip} title={e.configurations.join(' · ')}>
        {e.configurations.join(' · ')}
      </td>
      <td>
        <span className={s.progress} title={`${e.done} of ${e.cells} cells done`}>
          <span className={s.track} aria-hidden>
            <span className={s.fill} style={{ width: `${(share * 100).toFixed(1)}%` }} />
          </span>
          <span className={s.num}>
            {e.done}/{e.cells}
          </span>
        </span>
      </td>
      <td className={s.num}>{formatCost(e.costUsd)}</td>
      <td>
        <span className={`badge st-${e.status === 'aborted' ? 'failed' : e.status}`}>{e.status}</span>
      </td>
      <td className={s.muted} title={created.toLocaleString()}>
        {created.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
      </td>
    </tr>
  );
}

export function ExperimentsTable() {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.experiment.list.queryOptions(),
    refetchInterval: (query) => (query.state.data?.some((e) => e.status === 'running') ? ACTIVE_POLL_MS : IDLE_POLL_MS),
  });
  return (
    <section className="panel" aria-labelledby="experiments-heading" data-testid="experiments-panel">
      <div className="panel-head">
        <h2 id="experiments-heading">Experiments</h2>
        {list.data && <span className="field-hint">{list.data.length} in all</span>}
      </div>
      {list.isError ? (
        <p className="error-box" role="alert" style={{ margin: 16 }}>
          Could not load the experiments: {list.error.message}{' '}
          <button type="button" className="btn" onClick={() => void list.refetch()}>
            Retry
          </button>
        </p>
      ) : !list.data ? (
        <p className="empty" aria-busy="true">
          Loading experiments…
        </p>
      ) : list.data.length === 0 ? (
        <p className="empty" data-testid="experiments-empty">
          No experiments yet: start one with the form above.
        </p>
      ) : (
        <div className={s.scroll}>
          <table className={s.table}>
            <thead>
              <tr>
                <th className={s.colName}>Name</th>
                <th className={s.colTask}>Task</th>
                <th className={s.colDataset}>Dataset</th>
                <th>Configurations</th>
                <th className={s.colProgress}>Progress</th>
                <th className={`${s.colCost} ${s.num}`}>Cost</th>
                <th className={s.colStatus}>Status</th>
                <th className={s.colCreated}>Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((e) => (
                <Row key={e.id} experiment={e} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
