'use client';
// The run's header, one row at any width: status, what is searched, where the search is (live figures), the run's
// model and strategy, the connection, links, and the commands (pause, resume, step, abort). The figures and
// settings show as many as fit, in order of importance, and the rest wrap out of sight (RunLayout.module.css); all
// of them, and the links on a narrow window, are in the "more" panel. Status, task and the commands never leave.
// A finished code run offers its verified patch as a download (code/PublicOutput.tsx).
// Commands, Share and Export show only for whoever may use them (RunAccess.tsx); a command that cannot be asked now
// is disabled with its reason in its title (useSteering.ts), and a search Arborist does not run says so (its mark,
// its own config, the last command asked of its client, or that steering is unavailable).
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { budgetNote, formatCost, formatDuration, formatSpend } from '@/lib/contract/format';
import { parseCodeOutput } from '@/lib/contract/code';
import { taskLabel } from '@/lib/contract/tasks';
import { hasEnded } from '@/lib/contract/run-status';
import { configSummary, elapsedMs, pausesOf, runStatus, steerBlock } from '@/lib/store/index';
import { useTRPC } from '@/lib/trpc/index';
import { useBenchProject } from '../code/BenchRequest';
import { PatchDownload } from '../code/PublicOutput';
import { ExportButton } from './ExportButton';
import { ExternalBadge } from './ExternalBadge';
import { ImportedBadge } from './ImportedBadge';
import { useSession } from '@/components/session/useSession';
import { useRunAccess } from '../page/RunAccess';
import { ShareDialog } from './ShareDialog';
import { RunCommandNote, SteeringUnavailable } from '../steering/SteerCommands';
import { CopyLinkButton, RunRelations } from './RunLinks';
import { useRunStore } from '../page/RunStoreContext';
import type { RunCommands } from '../steering/useRunCommands';
import { useSteering } from '../steering/useSteering';
import type { ConnectionState, RunConnection } from '../page/useRunEvents';
import layout from '../page/RunLayout.module.css';

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  live: 'live',
  reconnecting: 'reconnecting…',
  ended: 'complete',
  error: 'disconnected',
};

/**
 * The run's record, and its status: the run's (runStatus), never how much of its log the page has folded so far.
 * The record is read once: the stream says every change of status after it (the run's lifecycle is in its log). It
 * is read again only when the stream ends without the log's end, which the row then explains (a run whose database
 * refused its run.failed, a deleted run). No timer polls the server.
 */
export function useRunStatus(runId: string, streamEndedUnexplained: boolean) {
  const trpc = useTRPC();
  // commands act on the run as it is now, whatever step the screen shows
  const liveStatus = useRunStore((s) => s.liveStatus);
  const liveSeq = useRunStore((s) => s.lastSeq);
  const record = useQuery({
    ...trpc.run.byId.queryOptions({ id: runId }),
    retry: (count, error) => !['NOT_FOUND', 'FORBIDDEN', 'UNAUTHORIZED'].includes(error.data?.code ?? '') && count < 2,
  });
  // a finished run's page starts from its last tree: its stream ends at once, with nothing to bring
  const unexplained = streamEndedUnexplained && !hasEnded(liveStatus);
  const { refetch } = record;
  useEffect(() => {
    if (unexplained) void refetch();
  }, [unexplained, refetch]);
  const run = record.data ?? null;
  const status = runStatus(run, liveStatus === null ? null : { status: liveStatus, lastSeq: liveSeq });
  const loadError = record.error
    ? {
        notFound: record.error.data?.code === 'NOT_FOUND',
        // a share link opens its one run; a viewer's session may have ended: the server's words say which
        refused: record.error.data?.code === 'FORBIDDEN' || record.error.data?.code === 'UNAUTHORIZED',
        message: record.error.message,
      }
    : null;
  return { status, run, loadError };
}

type RunRecord = ReturnType<typeof useRunStatus>['run'];

/** Now, every second while `ticking`: what a running run's clock reads against. */
function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    // at once (the clock may have been stopped a while), then every second
    const first = setTimeout(() => setNow(Date.now()), 0);
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [ticking]);
  return now;
}

/**
 * The run's elapsed time (run-clock.ts): from the record's start to its finish, or to the step on screen, or now while
 * it runs; its pauses left out, as far as the page has the log (the history, then the stream).
 */
function useRunElapsed(run: RunRecord, status: string): string {
  const treeStartedAt = useRunStore((s) => s.tree.startedAt);
  const treeFinishedAt = useRunStore((s) => s.tree.finishedAt);
  const viewSeq = useRunStore((s) => s.viewSeq);
  // looking at a past step: the span ends at that step's time
  const viewTs = useRunStore((s) => (s.viewSeq !== null ? (s.events[s.viewSeq - 1]?.ts ?? null) : null));
  const eventCount = useRunStore((s) => s.eventCount);
  const events = useRunStore((s) => s.events);
  // the pauses up to the end of the span; recomputed when the log grows (the array grows in place)
  const pauses = useMemo(
    () => pausesOf(events, viewSeq ?? eventCount),
    // `events` grows in place: eventCount says when
    [events, eventCount, viewSeq],
  );
  const startedAt = run?.startedAt ? new Date(run.startedAt).getTime() : treeStartedAt;
  const finishedAt = run?.finishedAt ? new Date(run.finishedAt).getTime() : treeFinishedAt;
  const ended = hasEnded(status);
  // a paused run whose pause the page has not read yet: its record changed when it paused
  const pausedAt = status === 'paused' && pauses.pausedSince === null && run ? new Date(run.updatedAt).getTime() : null;
  const endAt = viewSeq !== null ? viewTs : ended ? finishedAt : pausedAt;
  const now = useNow(viewSeq === null && status === 'running');
  const ms = elapsedMs({ startedAt, endAt, pauses }, now);
  return ms === null ? '—' : formatDuration(ms);
}

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
  const taskId = useRunStore((s) => s.tree.taskId);
  // a code run on a benchmark project is named by the project's title (its goal, "project: bench/<id>", says little)
  const bench = useBenchProject(taskId, goal);
  const stats = useRunStore((s) => s.tree.stats);
  const config = useRunStore((s) => s.tree.config);
  const viewSeq = useRunStore((s) => s.viewSeq);
  const finishReason = useRunStore((s) => s.tree.finishReason);
  const finishDetail = useRunStore((s) => s.tree.finishDetail);
  const failure = useRunStore((s) => s.tree.failure);
  const lastSeq = useRunStore((s) => s.lastSeq);
  // stopped by one of its breakpoints, not by a person (the banner over the canvas says which)
  const atBreakpoint = useRunStore((s) => s.liveStatus === 'paused' && s.liveHit !== null);
  useRunStore((s) => s.version); // stats are updated in place
  const elapsed = useRunElapsed(run, status);
  const allowed = useRunAccess();
  const steering = useSteering();
  const externalConfig = useRunStore((s) => s.tree.external?.config ?? null);
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
  const resumable = status === 'paused' || status === 'interrupted';
  const model = run?.modelLabel === 'simulated' ? 'simulated (offline)' : (run?.modelLabel ?? '…');
  const task = run ? taskLabel(run.taskId) : '';
  // a search Arborist does not run has its own config; the engine's is then only the defaults
  const configTitle = externalConfig
    ? `its own config: ${configSummary(externalConfig)}`
    : `depth ${config.maxDepth} · branch factor ${config.branchFactor} · beam width ${config.beamWidth} · threshold ${config.confidenceThreshold} · stop at ${config.terminationConfidence} · node cap ${config.maxTotalNodes}`;
  const configShort = externalConfig
    ? shorten(configSummary(externalConfig), 48)
    : `${config.explorationStrategy} · d${config.maxDepth} · b${config.branchFactor} · w${config.beamWidth} · t${config.confidenceThreshold}`;
  const toggleKind = resumable ? 'resume' : 'pause';
  const toggleWhy = steering.why(toggleKind);
  const stepWhy = steering.why('step');
  // while the run runs, Step waits for the pause only for a moment: aria-disabled keeps the focus on it
  const stepSoon = status === 'running' && steerBlock('step', { ...steering.context, status: 'paused' }) === null;
  const abortWhy = steering.why('abort');

  // in the order they leave the row when it is short of room (the last first)
  const figures: HeaderStat[] = [
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

  return (
    <header className={`run-header ${layout.header}`} data-testid="run-header" data-run-id={runId}>
      <div className={layout.row}>
        <div className={layout.title}>
          <span className={`badge st-${status}`} data-testid="run-status">
            {status === 'paused' && atBreakpoint ? 'paused at a breakpoint' : status}
          </span>
          <h1 title={goal || run?.goal} data-testid="run-title">
            {bench?.title ?? (goal || run?.goal || 'Run')}
          </h1>
          <ImportedBadge tag={run?.importTag} />
          <ExternalBadge />
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
          <span className={layout.setting} title={configTitle}>
            {configShort}
          </span>
          <span className={layout.setting}>{task}</span>
        </div>
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
          {allowed.steer && <RunCommandNote />}
          {allowed.steer && steering.unavailable && <SteeringUnavailable reason={steering.unavailable} />}
          {allowed.steer && !steering.unavailable && (
            <>
              {/* One button that turns from Pause into Resume and back, never disabled while its command is on the way
              (a disabled button drops the focus on the page): focus stays on it, so space or Enter goes on working */}
              <button
                className={`btn${resumable ? ' btn-primary' : ''}`}
                disabled={toggleWhy !== null}
                aria-disabled={commands.busy || undefined}
                onClick={() => {
                  if (commands.busy) return;
                  if (resumable) commands.resume();
                  else commands.pause();
                }}
                title={withWhy(resumable ? 'Resume (space)' : 'Pause (space)', toggleWhy)}
              >
                {resumable ? 'Resume' : 'Pause'}
              </button>
              {/* off while the step runs (the run is running then), but only for the moment: aria-disabled keeps the
              focus on it, so s, space or Enter can take the next step */}
              <button
                className="btn"
                aria-disabled={commands.busy || stepWhy !== null || undefined}
                disabled={stepWhy !== null && !stepSoon}
                onClick={() => {
                  if (!commands.busy && stepWhy === null) commands.step();
                }}
                title={withWhy('One step (s)', stepWhy)}
              >
                Step
              </button>
              <button
                className="btn btn-danger"
                disabled={commands.busy || abortWhy !== null}
                onClick={commands.abort}
                title={withWhy('Abort the run', abortWhy)}
              >
                Abort
              </button>
            </>
          )}
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
      {sharing && <ShareDialog runId={runId} onClose={() => setSharing(false)} />}
    </header>
  );
}

/** A control's title, and why it is off when it is. */
function withWhy(title: string, why: string | null): string {
  return why ? `${title}: ${why}` : title;
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

/** A "more" button and the panel it opens: closes on Escape (focus back on the button) and on a click outside. */
function MoreMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    panel.current?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!panel.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);
  return (
    <>
      <button
        ref={button}
        type="button"
        className={`btn btn-icon${open ? ' btn-on' : ''}`}
        aria-expanded={open}
        aria-controls={id}
        aria-label="More about this run"
        title="More: the run's settings, every figure, links"
        onClick={() => setOpen(!open)}
        data-testid="run-more"
      >
        <svg viewBox="0 0 16 16" aria-hidden="true" className={layout.icon}>
          <circle cx="3" cy="8" r="1.5" />
          <circle cx="8" cy="8" r="1.5" />
          <circle cx="13" cy="8" r="1.5" />
        </svg>
      </button>
      {open && (
        <div
          ref={panel}
          id={id}
          className={layout.more}
          role="dialog"
          aria-label="More about this run"
          tabIndex={-1}
          data-testid="run-more-panel"
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Escape closes this panel only; it does not also clear the canvas's selection
            event.stopPropagation();
            setOpen(false);
            button.current?.focus();
          }}
        >
          {children}
        </div>
      )}
    </>
  );
}
