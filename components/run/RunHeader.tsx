'use client';
// The run's header: what is searched, on which model, where the search is (live stats), the connection, and the
// commands (pause, resume, step, abort).
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/lib/trpc/client';
import { useRunStore } from './RunStoreContext';
import type { ConnectionState } from './useRunEvents';

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  ended: 'stream ended',
  error: 'disconnected',
};

export function RunHeader({
  runId,
  connection,
  onRetry,
}: {
  runId: string;
  connection: ConnectionState;
  onRetry: () => void;
}) {
  const trpc = useTRPC();
  const treeStatus = useRunStore((s) => (s.tree.lastSeq > 0 ? s.tree.status : null));
  const goal = useRunStore((s) => s.tree.goal);
  const stats = useRunStore((s) => s.tree.stats);
  const config = useRunStore((s) => s.tree.config);
  useRunStore((s) => s.version); // stats are updated in place
  const record = useQuery({
    ...trpc.run.byId.queryOptions({ id: runId }),
    refetchInterval: (q) => (q.state.data?.status === 'finished' || q.state.data?.status === 'failed' ? false : 3_000),
  });
  const run = record.data;
  const status =
    run &&
    (run.status === 'queued' || run.status === 'interrupted' || run.status === 'failed') &&
    treeStatus !== 'finished'
      ? run.status
      : (treeStatus ?? run?.status ?? 'queued');

  const pause = useMutation(trpc.run.pause.mutationOptions());
  const resume = useMutation(trpc.run.resume.mutationOptions());
  const step = useMutation(trpc.run.step.mutationOptions());
  const abort = useMutation(trpc.run.abort.mutationOptions());
  const error = [pause, resume, step, abort].find((m) => m.error)?.error?.message;
  const busy = [pause, resume, step, abort].some((m) => m.isPending);

  return (
    <div className="run-header" data-testid="run-header">
      <div className="run-title">
        <span className={`badge st-${status}`} data-testid="run-status">
          {status}
        </span>
        <h1 title={goal || run?.goal}>{goal || run?.goal || 'Run'}</h1>
      </div>
      <div className="run-meta">
        <span>{run?.taskId === 'game24' ? 'Game of 24' : run?.taskId}</span>
        <span>model: {run?.modelLabel === 'simulated' ? 'simulated (offline)' : run?.modelLabel}</span>
        <span>{config.explorationStrategy}</span>
      </div>
      <div className="run-stats" data-testid="run-stats">
        <span>
          explored <b data-testid="stat-explored">{stats.exploredNodes}</b>/<b>{stats.totalNodes}</b>
        </span>
        <span>
          depth <b>{stats.maxDepthReached}</b>
        </span>
        <span>
          backtracks <b>{stats.backtrackCount}</b>
        </span>
        <span>
          calls <b>{stats.modelCalls}</b>
        </span>
        <span>
          tokens <b>{stats.tokenUsage.totalTokens.toLocaleString()}</b>
        </span>
        <span>
          cost <b>${stats.cost.toFixed(4)}</b>
        </span>
      </div>
      <span className={`conn conn-${connection}`} data-testid="connection">
        {CONNECTION_LABELS[connection]}
        {connection === 'error' && (
          <button className="btn" onClick={onRetry}>
            Retry
          </button>
        )}
      </span>
      <div className="run-controls">
        {error && <span className="field-error">{error}</span>}
        {status === 'paused' || status === 'interrupted' ? (
          <button className="btn btn-primary" disabled={busy} onClick={() => resume.mutate({ id: runId })}>
            Resume
          </button>
        ) : (
          <button className="btn" disabled={busy || status !== 'running'} onClick={() => pause.mutate({ id: runId })}>
            Pause
          </button>
        )}
        <button className="btn" disabled={busy || status !== 'paused'} onClick={() => step.mutate({ id: runId })}>
          Step
        </button>
        <button
          className="btn btn-danger"
          disabled={busy || !['running', 'paused', 'queued'].includes(status)}
          onClick={() => abort.mutate({ id: runId })}
        >
          Abort
        </button>
      </div>
    </div>
  );
}
