'use client';
// The run's relations and sharing: "copy link" (the URL holds the step and node on screen), the experiment cell it is
// (a way back to the experiment's page), where a fork came from, the forks made from this run, and compare.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useTRPC } from '@/lib/trpc/index';
import { CopyText } from '../../shared/CopyText';

export function CopyLinkButton() {
  return (
    <CopyText
      text={() => window.location.href}
      label="Copy link"
      title="Copy a link to this run at the step and node on screen"
      testId="copy-link"
      small
    />
  );
}

export function RunRelations({
  runId,
  parentRunId,
  parentNodeId,
}: {
  runId: string;
  parentRunId: string | null;
  parentNodeId: string | null;
}) {
  const trpc = useTRPC();
  const forks = useQuery(trpc.run.forks.queryOptions({ id: runId }));
  const cell = useQuery(trpc.experiment.ofRun.queryOptions({ runId }));
  return (
    <span className="run-relations">
      {cell.data && (
        <Link
          href={`/experiments/${cell.data.experimentId}`}
          data-testid="experiment-cell"
          title={`${cell.data.name}: item ${cell.data.item + 1}, ${cell.data.configurationLabel}, repetition ${cell.data.repetition + 1}`}
        >
          experiment cell · item {cell.data.item + 1} · {cell.data.configurationLabel}
        </Link>
      )}
      {parentRunId && (
        <>
          <Link href={`/runs/${parentRunId}${parentNodeId ? `?node=${parentNodeId}` : ''}`} data-testid="forked-from">
            forked from {parentNodeId ?? 'a run'}
          </Link>
          <Link className="btn btn-sm" href={`/compare?a=${parentRunId}&b=${runId}`}>
            Compare with parent
          </Link>
        </>
      )}
      {forks.data && forks.data.length > 0 && (
        <details className="forks-menu" data-testid="forks">
          <summary className="btn btn-sm">
            {forks.data.length} fork{forks.data.length === 1 ? '' : 's'}
          </summary>
          <ul>
            {forks.data.map((f) => (
              <li key={f.id}>
                <Link href={`/runs/${f.id}`}>
                  from {f.parentNodeId} · {f.config.explorationStrategy} · {f.status}
                  {f.verified ? ' · ✓ solved' : ''}
                </Link>{' '}
                <Link href={`/compare?a=${runId}&b=${f.id}`} className="field-hint">
                  compare
                </Link>
              </li>
            ))}
          </ul>
        </details>
      )}
    </span>
  );
}
