'use client';
// The run's header, one row at any width: status, what is searched, where the search is (live figures), the run's
// model and strategy, the connection, links, and the commands (pause, resume, step, abort). The figures and
// settings show as many as fit, in order of importance, and the rest wrap out of sight (RunLayout.module.css); all
// of them, and the links on a narrow window, are in the "more" panel. Status, task and the commands never leave.
// A finished code run offers its verified patch as a download (code/PublicOutput.tsx).
// Commands, Share and Export show only for whoever may use them (RunAccess.tsx); a command that cannot be asked now
// is disabled with its reason in its title (useSteering.ts), and a search Arborist does not run says so (its mark,
// its own config, the last command asked of its client, or that steering is unavailable). A Monte Carlo tree search
// shows its own settings in place of the beam's (iterations begun / budget, c, rollout depth, backup, best by).
// Not responsible for the settings' words (lib/layout mctsSummary) nor for running the commands.
import { useState, type ReactNode } from 'react';
import { budgetNote, formatCost, formatSpend } from '@/lib/contract/format';
import { parseCodeOutput } from '@/lib/contract/code';
import { taskLabel } from '@/lib/contract/tasks';
import type { ToTConfig, ToTStats } from '@/lib/engine/index';
import { configSummary } from '@/lib/store/index';
import { mctsSummary } from '@/lib/layout/index';
import { useSession } from '@/components/session/useSession';
import { useBenchProject } from '../code/BenchRequest';
import { PatchDownload } from '../code/PublicOutput';
import { useRunAccess } from '../page/RunAccess';
import layout from '../page/RunLayout.module.css';
import { useRunStore } from '../page/RunStoreContext';
import type { ConnectionState, RunConnection } from '../page/useRunEvents';
import type { RunCommands } from '../steering/useRunCommands';
import { CallsInFlight } from './CallsInFlight';
import { ExportButton } from './ExportButton';
import { ExternalBadge } from './ExternalBadge';
import { TraceBadge } from './TraceBadge';
import { ImportedBadge } from './ImportedBadge';
import { MoreMenu } from './MoreMenu';
import { RunCommandButtons } from './RunCommandButtons';
import { CopyLinkButton, RunRelations } from './RunLinks';
import { ShareDialog } from './ShareDialog';
import { useRunElapsed, type RunRecord } from './useRunStatus';

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  ended: 'complete',
  error: 'disconnected',
};

interface HeaderStat {
  key: string;
  label: string;
  title?: string;
  value: ReactNode;
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
  useRunStore((s) => s.version); // stats are updated in place
  const elapsed = useRunElapsed(run, status);
  const allowed = useRunAccess();
  const externalConfig = useRunStore((s) => s.tree.external?.config ?? null);
  // a string per form, so the header re-renders when an iteration begins, not on every event
  const mctsShort = useRunStore((s) => mctsSummary(s.tree));
  const mctsLong = useRunStore((s) => mctsSummary(s.tree, 'long'));
  const [sharing, setSharing] = useState(false);
  // a finished code run's verified patch, to download from the header (the whole output is the root's, inspector)
  const patch = useRunStore((s) =>
    s.tree.taskId === 'code' && s.tree.status === 'finished' && s.tree.output !== null
      ? (parseCodeOutput(s.tree.output)?.patch ?? null)
      : null,
  );
  // local mode has no one to share with: whoever reaches the server may already do everything
  const { mode } = useSession();
  const canShare = allowed.share && mode === 'team';
  const model = run?.modelLabel === 'simulated' ? 'simulated (offline)' : (run?.modelLabel ?? '…');
  const task = run ? taskLabel(run.taskId) : '';
  // a search Arborist does not run has its own config; the engine's is then only the defaults
  const configTitle = externalConfig
    ? `its own config: ${configSummary(externalConfig)}`
    : mctsLong !== null
      ? `${mctsLong} · depth ${config.maxDepth} · branch factor ${config.branchFactor} · threshold ${config.confidenceThreshold} · stop at ${config.terminationConfidence} · node cap ${config.maxTotalNodes}`
      : `depth ${config.maxDepth} · branch factor ${config.branchFactor} · beam width ${config.beamWidth} · threshold ${config.confidenceThreshold} · stop at ${config.terminationConfidence} · node cap ${config.maxTotalNodes}`;
  const configShort = externalConfig
    ? shorten(configSummary(externalConfig), 48)
    : mctsShort !== null
      ? `mcts · ${mctsShort} · d${config.maxDepth} · b${config.branchFactor}`
      : `${config.explorationStrategy} · d${config.maxDepth} · b${config.branchFactor} · w${config.beamWidth} · t${config.confidenceThreshold}`;
  const figures = headerFigures(stats, config, elapsed);

  return (
    <header className={`run-header ${layout.header}`} data-testid="run-header" data-run-id={runId}>
      <div className={layout.row}>
        <RunTitle run={run} status={status} connection={connection.state} />
        {/* what fits of the figures, then the run's settings; the rest wraps out of sight (all are in "more") */}
        <div className={layout.info} data-testid="run-stats">
          <span className={layout.infoStart} />
          {figures.map((f) => (
            <span key={f.key} title={f.title}>
              {f.label} {f.value}
            </span>
          ))}
          <span className={layout.setting} title="the model answering this run">
            model: {model}
          </span>
          <span className={layout.setting} title={configTitle} data-testid="run-config-short">
            {configShort}
          </span>
          <span className={layout.setting}>{task}</span>
        </div>
        <ConnectionBadge connection={connection} />
        <div className={layout.controls}>
          <div className={layout.links}>
            <RunLinksGroup runId={runId} run={run} />
          </div>
          {commands.error && (
            <span className={`field-error ${layout.commandError}`} role="alert" title={commands.error}>
              {commands.error}
            </span>
          )}
          {patch !== null && <PatchDownload runId={runId} patch={patch} testId="header-patch-download" />}
          {canShare && (
            <button
              type="button"
              className="btn btn-sm"
              onClick={() => setSharing(true)}
              title="Make a read-only link to this run for someone without an account"
              data-testid="share-run"
            >
              Share
            </button>
          )}
          {allowed.steer && <RunCommandButtons status={status} commands={commands} />}
          <MoreMenu>
            <section>
              <h2>Run</h2>
              <dl className={layout.moreFacts}>
                <dt>goal</dt>
                <dd>{goal || run?.goal || '—'}</dd>
                <dt>task</dt>
                <dd>{task || '—'}</dd>
                <dt>model</dt>
                <dd>{model}</dd>
                <dt>search</dt>
                <dd>{externalConfig ? configTitle : `${config.explorationStrategy} · ${configTitle}`}</dd>
                <dt>stream</dt>
                <dd>{CONNECTION_LABELS[connection.state]}</dd>
              </dl>
            </section>
            <section>
              <h2>Figures</h2>
              <div className={layout.moreStats}>
                {figures.map((f) => (
                  <div key={f.key} title={f.title}>
                    {f.label} {f.key === 'explored' ? <b>{`${stats.exploredNodes}/${stats.totalNodes}`}</b> : f.value}
                  </div>
                ))}
              </div>
            </section>
            <section className={layout.moreLinks}>
              <RunLinksGroup runId={runId} run={run} />
            </section>
          </MoreMenu>
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
      <RunStopNotice run={run} status={status} />
      {sharing && <ShareDialog runId={runId} onClose={() => setSharing(false)} />}
    </header>
  );
}

/**
 * The status badge with the calls in flight while it runs, the run's name, its marks (imported, external) and the
 * step on screen when travelling.
 */
function RunTitle({ run, status, connection }: { run: RunRecord; status: string; connection: ConnectionState }) {
  const goal = useRunStore((s) => s.tree.goal);
  const taskId = useRunStore((s) => s.tree.taskId);
  // a code run on a benchmark project is named by the project's title (its goal, "project: bench/<id>", says little)
  const bench = useBenchProject(taskId, goal);
  const viewSeq = useRunStore((s) => s.viewSeq);
  const lastSeq = useRunStore((s) => s.lastSeq);
  // stopped by one of its breakpoints, not by a person (the banner over the canvas says which)
  const atBreakpoint = useRunStore((s) => s.liveStatus === 'paused' && s.liveHit !== null);
  return (
    <div className={layout.title}>
      <span className={`badge st-${status}`} data-testid="run-status">
        {status === 'paused' && atBreakpoint ? 'paused at a breakpoint' : status}
      </span>
      <CallsInFlight status={status} connection={connection} />
      <h1 title={goal || run?.goal} data-testid="run-title">
        {bench?.title ?? (goal || run?.goal || 'Run')}
      </h1>
      <ImportedBadge tag={run?.importTag} />
      <ExternalBadge />
      <TraceBadge />
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
  );
}

/** The stream's state, with a retry when it broke. */
function ConnectionBadge({ connection }: { connection: RunConnection }) {
  return (
    <span
      className={`conn conn-${connection.state} ${layout.conn}`}
      data-testid="connection"
      title={connection.error ?? `stream: ${CONNECTION_LABELS[connection.state]}`}
    >
      <span className={layout.connLabel}>{CONNECTION_LABELS[connection.state]}</span>
      {connection.state === 'error' && (
        <button className="btn btn-sm" onClick={connection.retry}>
          Retry
        </button>
      )}
    </span>
  );
}

/** Why the run stopped, when it was not by finishing: its budget, a failing model backend, a failure. */
function RunStopNotice({ run, status }: { run: RunRecord; status: string }) {
  const finishReason = useRunStore((s) => s.tree.finishReason);
  const finishDetail = useRunStore((s) => s.tree.finishDetail);
  const failure = useRunStore((s) => s.tree.failure);
  return (
    <>
      {finishReason === 'budget' && (
        <p className={layout.notice} role="status" data-testid="run-budget">
          Stopped: {finishDetail}
        </p>
      )}
      {(finishReason === 'error' || (status === 'failed' && (failure ?? run?.error))) && (
        <p className={layout.alert} role="alert" data-testid="run-error">
          {finishReason === 'error'
            ? `The model backend kept failing, so the run stopped: ${finishDetail}`
            : `The run failed: ${failure ?? run?.error}`}
        </p>
      )}
    </>
  );
}

/** The header's figures, in the order they leave the row when it is short of room (the last first). */
function headerFigures(stats: ToTStats, config: ToTConfig, elapsed: string): HeaderStat[] {
  return [
    {
      key: 'explored',
      label: 'explored',
      title: 'nodes executed / nodes created',
      value: (
        <>
          <b data-testid="stat-explored">{stats.exploredNodes}</b>/<b data-testid="stat-total">{stats.totalNodes}</b>
        </>
      ),
    },
    {
      key: 'cost',
      label: 'cost',
      // the cap, and whether it can apply at all (a model with no price cannot be capped)
      title: budgetNote(config.maxCostUsd, stats) ?? undefined,
      value: (
        // the one cost formatter: a run on a model with no price reads "unpriced", never "$0.0000"
        <>
          <b>{formatSpend(stats)}</b>
          {config.maxCostUsd != null && (
            <span data-testid="stat-cost-cap">
              {stats.unpricedCalls > 0 ? ' · cap n/a (no price)' : ` of ${formatCost(config.maxCostUsd)}`}
            </span>
          )}
        </>
      ),
    },
    { key: 'elapsed', label: 'elapsed', value: <b data-testid="run-elapsed">{elapsed}</b> },
    {
      key: 'tokens',
      label: 'tokens',
      value: <b>{stats.tokenUsage.totalTokens.toLocaleString('en-US')}</b>,
    },
    { key: 'depth', label: 'depth', value: <b>{stats.maxDepthReached}</b> },
    { key: 'backtracks', label: 'backtracks', value: <b>{stats.backtrackCount}</b> },
    {
      key: 'calls',
      label: 'calls',
      title: "the executor's own calls (generate, evaluate, synthesize) / all calls",
      value: (
        <>
          <b>{stats.llmCalls}</b>/<b>{stats.modelCalls}</b>
        </>
      ),
    },
  ];
}

function shorten(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function RunLinksGroup({ runId, run }: { runId: string; run: RunRecord }) {
  // an export holds the whole log, prompts and all: only for whoever may read them
  const allowed = useRunAccess();
  return (
    <>
      {run && <RunRelations runId={runId} parentRunId={run.parentRunId} parentNodeId={run.parentNodeId} />}
      <CopyLinkButton />
      {allowed.readPrompts && <ExportButton runId={runId} />}
    </>
  );
}
