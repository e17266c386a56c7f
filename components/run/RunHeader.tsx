'use client';
// The run's header: what is searched, on which model, with which strategy and config, where the search is (live
// stats and elapsed time), the connection with a retry, and the commands (pause, resume, step, abort).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTRPC } from '@/lib/trpc/client';
import { ExportButton } from './ExportButton';
import { CopyLinkButton, RunRelations } from './RunLinks';
import { useRunStore } from './RunStoreContext';
import type { RunCommands } from './useRunCommands';
import type { ConnectionState, RunConnection } from './useRunEvents';

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  ended: 'complete',
  error: 'disconnected',
};

/** The run's record, and its status: the folded log's once there is one, the record's before (queued) and after a crash. */
export function useRunStatus(runId: string) {
  const trpc = useTRPC();
  // commands act on the run as it is now, whatever step the screen shows
  const treeStatus = useRunStore((s) => s.liveStatus);
  const record = useQuery({
    ...trpc.run.byId.queryOptions({ id: runId }),
    refetchInterval: (q) =>
      q.state.error || ['finished', 'failed'].includes(q.state.data?.status ?? '') ? false : 3_000,
    retry: (count, error) => error.data?.code !== 'NOT_FOUND' && count < 2,
  });
  const run = record.data ?? null;
  const status =
    run && ['queued', 'interrupted', 'failed'].includes(run.status) && treeStatus !== 'finished'
      ? run.status
      : (treeStatus ?? run?.status ?? 'loading');
  const loadError = record.error
    ? { notFound: record.error.data?.code === 'NOT_FOUND', message: record.error.message }
    : null;
  return { status, run, loadError };
}

type RunRecord = ReturnType<typeof useRunStatus>['run'];

function useElapsed(startedAt: number | null, endAt: number | null, live: boolean): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [live]);
  if (!startedAt) return '—';
  const ms = Math.max(0, (endAt ?? now) - startedAt);
  return ms < 60_000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function RunHeader({
  runId,
  run,
  status,
  connection,
  commands,
  onHelp,
}: {
  runId: string;
  run: RunRecord;
  status: string;
  connection: RunConnection;
  commands: RunCommands;
  onHelp: () => void;
}) {
  const goal = useRunStore((s) => s.tree.goal);
  const stats = useRunStore((s) => s.tree.stats);
  const config = useRunStore((s) => s.tree.config);
  const startedAt = useRunStore((s) => s.tree.startedAt);
  const finishedAt = useRunStore((s) => s.tree.finishedAt);
  const viewSeq = useRunStore((s) => s.viewSeq);
  const finishReason = useRunStore((s) => s.tree.finishReason);
  const finishDetail = useRunStore((s) => s.tree.finishDetail);
  const lastSeq = useRunStore((s) => s.lastSeq);
  // looking at a past step: the time is that step's
  const viewTs = useRunStore((s) => (s.viewSeq !== null ? (s.events[s.viewSeq - 1]?.ts ?? s.tree.startedAt) : null));
  useRunStore((s) => s.version); // stats are updated in place
  const elapsed = useElapsed(
    startedAt,
    viewTs ?? finishedAt,
    viewTs === null && (status === 'running' || status === 'paused'),
  );
  const model = run?.modelLabel === 'simulated' ? 'simulated (offline)' : (run?.modelLabel ?? '…');
  const unpriced = stats.unpricedCalls > 0 ? ` + ${stats.unpricedCalls} unpriced` : '';

  return (
    <div className="run-header" data-testid="run-header" data-run-id={runId}>
      <div className="run-title">
        <span className={`badge st-${status}`} data-testid="run-status">
          {status}
        </span>
        <h1 title={goal || run?.goal}>{goal || run?.goal || 'Run'}</h1>
        {viewSeq !== null && (
          <span
            className="badge st-paused"
            data-testid="time-travel"
            title="The page shows the run as it was at this step"
          >
            at step {viewSeq} of {lastSeq}
          </span>
        )}
      </div>
      <div className="run-meta">
        <span>{run ? (run.taskId === 'game24' ? 'Game of 24' : 'Open goal') : ''}</span>
        <span title="the model answering this run">model: {model}</span>
        <span
          title={`depth ${config.maxDepth} · branch factor ${config.branchFactor} · beam width ${config.beamWidth} · threshold ${config.confidenceThreshold} · stop at ${config.terminationConfidence} · node cap ${config.maxTotalNodes}`}
        >
          {config.explorationStrategy} · d{config.maxDepth} · b{config.branchFactor} · w{config.beamWidth} · t
          {config.confidenceThreshold}
        </span>
      </div>
      <div className="run-stats" data-testid="run-stats">
        <span title="nodes executed / nodes created">
          explored <b data-testid="stat-explored">{stats.exploredNodes}</b>/
          <b data-testid="stat-total">{stats.totalNodes}</b>
        </span>
        <span>
          depth <b>{stats.maxDepthReached}</b>
        </span>
        <span>
          backtracks <b>{stats.backtrackCount}</b>
        </span>
        <span title="the executor's own calls (generate, evaluate, synthesize) / all calls">
          calls <b>{stats.llmCalls}</b>/<b>{stats.modelCalls}</b>
        </span>
        <span>
          tokens <b>{stats.tokenUsage.totalTokens.toLocaleString('en-US')}</b>
        </span>
        <span>
          cost <b>${stats.cost.toFixed(4)}</b>
          {unpriced}
        </span>
        <span>
          elapsed <b>{elapsed}</b>
        </span>
      </div>
      <span className={`conn conn-${connection.state}`} data-testid="connection" title={connection.error ?? undefined}>
        {CONNECTION_LABELS[connection.state]}
        {connection.state === 'error' && (
          <button className="btn btn-sm" onClick={connection.retry}>
            Retry
          </button>
        )}
      </span>
      {(finishReason === 'error' || (status === 'failed' && run?.error)) && (
        <p className="run-alert" role="alert" data-testid="run-error">
          {finishReason === 'error'
            ? `The model backend kept failing, so the run stopped: ${finishDetail}`
            : `The run failed: ${run?.error}`}
        </p>
      )}
      <div className="run-controls">
        {run && <RunRelations runId={runId} parentRunId={run.parentRunId} parentNodeId={run.parentNodeId} />}
        <CopyLinkButton />
        <ExportButton runId={runId} />
        {commands.error && (
          <span className="field-error" role="alert">
            {commands.error}
          </span>
        )}
        {status === 'paused' || status === 'interrupted' ? (
          <button className="btn btn-primary" disabled={commands.busy} onClick={commands.resume} title="Resume (space)">
            Resume
          </button>
        ) : (
          <button
            className="btn"
            disabled={commands.busy || status !== 'running'}
            onClick={commands.pause}
            title="Pause (space)"
          >
            Pause
          </button>
        )}
        <button
          className="btn"
          disabled={commands.busy || status !== 'paused'}
          onClick={commands.step}
          title="One step (s)"
        >
          Step
        </button>
        <button
          className="btn btn-danger"
          disabled={commands.busy || !['running', 'paused', 'queued'].includes(status)}
          onClick={commands.abort}
        >
          Abort
        </button>
        <button
          className="btn btn-icon"
          onClick={onHelp}
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts"
        >
          ?
        </button>
      </div>
    </div>
  );
}
