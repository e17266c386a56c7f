'use client';
/**
 * The experiment page: experiment.byId polled every second while it runs (React Query's refetchInterval, no loop
 * of our own), and the parts that show it. Loading, missing and error states are designed.
 * Not responsible for the parts themselves (the files beside it) nor for the figures (the server's, lib/experiments).
 */
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/lib/trpc/index';
import { CellGrid } from './CellGrid';
import { CompareConfigurations } from './CompareConfigurations';
import { ConfigurationTable } from './ConfigurationTable';
import { ExperimentHeader } from './ExperimentHeader';
import { ExperimentProgress } from './ExperimentProgress';
import { SuccessCostChart } from './SuccessCostChart';
import s from './ExperimentView.module.css';

const RUNNING_POLL_MS = 1_000;

export function ExperimentView({ experimentId }: { experimentId: string }) {
  const trpc = useTRPC();
  const experiment = useQuery({
    ...trpc.experiment.byId.queryOptions({ id: experimentId }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? RUNNING_POLL_MS : false),
  });
  if (experiment.isPending) {
    return (
      <main className={`page ${s.page}`} aria-busy="true">
        <p className="empty">Loading the experiment…</p>
      </main>
    );
  }
  if (experiment.isError) {
    const missing = experiment.error.data?.code === 'NOT_FOUND';
    return (
      <main className={`page ${s.page}`}>
        <div className="panel panel-body" role="alert" data-testid="experiment-error">
          <h1 className={s.missingTitle}>{missing ? 'No such experiment' : 'Could not load the experiment'}</h1>
          <p>{missing ? `Nothing is stored under ${experimentId}.` : experiment.error.message}</p>
          <Link className="btn" href="/experiments">
            All experiments
          </Link>
        </div>
      </main>
    );
  }
  const view = experiment.data;
  return (
    <main className={`page ${s.page}`} data-testid="experiment-page" data-status={view.status}>
      <ExperimentHeader view={view} />
      <ExperimentProgress view={view} />
      <section className="panel" aria-labelledby="figures-heading">
        <div className="panel-head">
          <h2 id="figures-heading">Configurations</h2>
          <span className="field-hint">success rate with its 95% interval (Wilson); means per ended cell</span>
        </div>
        <ConfigurationTable configurations={view.configurations} />
      </section>
      <div className={s.twoColumns}>
        <section className="panel" aria-labelledby="chart-heading">
          <div className="panel-head">
            <h2 id="chart-heading">Success against cost</h2>
          </div>
          <div className="panel-body">
            <SuccessCostChart configurations={view.configurations} />
          </div>
        </section>
        <CompareConfigurations view={view} />
      </div>
      <CellGrid view={view} />
    </main>
  );
}
