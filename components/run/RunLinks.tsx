'use client';
// The run's relations and sharing: "copy link" (the URL holds the step and node on screen), where a fork came
// from, the forks made from this run, and compare.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useState } from 'react';
import { useTRPC } from '@/lib/trpc/index';

export function CopyLinkButton() {
  const [copied, setCopied] = useState(false);
  return (
    <button
      className="btn btn-sm"
      data-testid="copy-link"
      title="Copy a link to this run at the step and node on screen"
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(window.location.href);
        } catch {
          // clipboard refused (http, permissions): select the address instead
          window.prompt('Copy this link', window.location.href);
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1_500);
      }}
    >
      {copied ? 'Copied' : 'Copy link'}
    </button>
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
  return (
    <span className="run-relations">
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
