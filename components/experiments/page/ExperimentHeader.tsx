'use client';
/**
 * The experiment's header: its name, status (and why it stopped early), task, dataset and version, when it was made;
 * pause, resume and abort as its status allows (for whoever may create runs), Copy link, Share (a read-only link, on
 * a team server, for its maker and admins), and the CSV and JSON
 * downloads (lib/experiments' export of what is on screen, as a Blob: no server route).
 * Not responsible for the figures or the cells.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { CopyText } from '@/components/shared/CopyText';
import { useSession } from '@/components/session/useSession';
import { canShareExperiment } from '@/lib/contract/access';
import type { ExperimentView } from '@/lib/contract/experiments';
import { taskLabel } from '@/lib/contract/tasks';
import { experimentCsv, experimentFileName, experimentJson } from '@/lib/experiments/index';
import { pagePermissions } from '@/lib/store/index';
import { useTRPC } from '@/lib/trpc/index';
import { ExperimentShareDialog } from './ExperimentShareDialog';
import s from './ExperimentView.module.css';

function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const STOP_NOTES = { aborted: 'aborted before every cell ran', 'cost-cap': 'stopped at its cost cap' } as const;

export function ExperimentHeader({ view }: { view: ExperimentView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { who } = useSession();
  const canSteer = pagePermissions(who).createRuns;
  // local mode has no Share: whoever reaches a local server may already see everything
  const canShare = who !== null && who.kind === 'user' && canShareExperiment(who, view);
  const [sharing, setSharing] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.experiment.pathKey() });
  const pause = useMutation(trpc.experiment.pause.mutationOptions({ onSettled: refresh }));
  const resume = useMutation(trpc.experiment.resume.mutationOptions({ onSettled: refresh }));
  const abort = useMutation(trpc.experiment.abort.mutationOptions({ onSettled: refresh }));
  const busy = pause.isPending || resume.isPending || abort.isPending;
  const failure = pause.error ?? resume.error ?? abort.error;
  const ended = view.status === 'finished' || view.status === 'aborted';
  return (
    <header className={`panel ${s.header}`} data-testid="experiment-header">
      <div className={s.headerMain}>
        <p className={s.crumbs}>
          <Link href="/experiments">Experiments</Link> /
        </p>
        <h1 className={s.title} data-testid="experiment-name">
          {view.name}
        </h1>
        <p className={s.meta}>
          <span
            className={`badge st-${view.status === 'aborted' ? 'failed' : view.status}`}
            data-testid="experiment-status"
          >
            {view.status}
          </span>
          {view.stopReason && <span className={s.note}>{STOP_NOTES[view.stopReason]}</span>}
          <span>{taskLabel(view.taskId)}</span>
          <span title={`dataset ${view.dataset.id}`}>
            {view.dataset.name} <span className={s.muted}>v{view.dataset.version}</span> · {view.dataset.itemCount}{' '}
            items
          </span>
          <span className={s.muted}>
            {view.configurations.length} configurations × {view.repetitions} repetition
            {view.repetitions === 1 ? '' : 's'}
          </span>
          <span className={s.muted} title={new Date(view.createdAt).toLocaleString()}>
            made {new Date(view.createdAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
          </span>
        </p>
      </div>
      <div className={s.actions}>
        {canSteer && view.status === 'running' && (
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => pause.mutate({ id: view.id })}
            data-testid="experiment-pause"
          >
            Pause
          </button>
        )}
        {canSteer && view.status === 'paused' && (
          <button
            type="button"
            className="btn"
            disabled={busy}
            onClick={() => resume.mutate({ id: view.id })}
            data-testid="experiment-resume"
          >
            Resume
          </button>
        )}
        {canSteer && !ended && (
          <button
            type="button"
            className="btn btn-danger"
            disabled={busy}
            onClick={() =>
              window.confirm('Abort the experiment? Cells not yet run are skipped.') && abort.mutate({ id: view.id })
            }
            data-testid="experiment-abort"
          >
            Abort
          </button>
        )}
        <CopyText text={() => window.location.href} label="Copy link" testId="experiment-copy-link" />
        {canShare && (
          <button type="button" className="btn" onClick={() => setSharing(true)} data-testid="experiment-share">
            Share
          </button>
        )}
        {sharing && <ExperimentShareDialog experimentId={view.id} onClose={() => setSharing(false)} />}
        <button
          type="button"
          className="btn"
          onClick={() => download(experimentCsv(view), experimentFileName(view.name, 'csv'), 'text/csv')}
          data-testid="download-csv"
        >
          CSV
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => download(experimentJson(view), experimentFileName(view.name, 'json'), 'application/json')}
          data-testid="download-json"
        >
          JSON
        </button>
        {failure && (
          <span className="field-error" role="alert">
            {failure.message}
          </span>
        )}
      </div>
    </header>
  );
}
