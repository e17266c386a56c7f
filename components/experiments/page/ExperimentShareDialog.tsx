'use client';
/**
 * "Share" on a team server: a read-only link to this experiment for someone without an account (its page and the
 * runs that are its cells, no whole prompts, no export), with an expiry in days; below, its links with who made each,
 * when each expires and its state, Copy and Revoke. Escape or a click outside closes it.
 * Not responsible for who may share (lib/contract/access.ts canShareExperiment) nor for signing links (the server).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { MadeShareLink, ShareDaysField, ShareLinkTable } from '@/components/shared/ShareLinks';
import { useDialogKeys } from '@/components/shared/useDialogKeys';
import { parseShareDays, SHARE_DAYS } from '@/lib/forms/index';
import { useTRPC } from '@/lib/trpc/index';

export function ExperimentShareDialog({ experimentId, onClose }: { experimentId: string; onClose: () => void }) {
  useDialogKeys(onClose, { pageKeysInert: true });
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const listKey = trpc.shares.listForExperiment.queryKey({ experimentId });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: listKey });
  const [days, setDays] = useState(String(SHARE_DAYS.default));
  const parsedDays = parseShareDays(days);
  const create = useMutation(trpc.shares.createForExperiment.mutationOptions({ onSettled: invalidate }));
  const [now] = useState(() => Date.now());
  const links = useQuery(trpc.shares.listForExperiment.queryOptions({ experimentId }));
  const revoke = useMutation(trpc.shares.revoke.mutationOptions({ onSettled: invalidate }));

  function submit(event: FormEvent) {
    event.preventDefault();
    if ('days' in parsedDays) create.mutate({ experimentId, expiresInDays: parsedDays.days });
  }

  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-labelledby="experiment-share-title" onClick={onClose}>
      <div className="overlay-card share-dialog" onClick={(e) => e.stopPropagation()} data-testid="share-dialog">
        <div className="panel-head">
          <h2 id="experiment-share-title">Share this experiment, read only</h2>
          <button type="button" className="btn btn-sm" onClick={onClose}>
            Close
          </button>
        </div>
        <form className="panel-body share-body" onSubmit={submit}>
          <p className="field-hint">
            Whoever opens the link sees this experiment and the runs of its cells without an account, and cannot change
            them. Whole prompts, export, steering and the other runs stay with your team.
          </p>
          <div className="share-row">
            <ShareDaysField id="experiment-share-days" days={days} parsed={parsedDays} onChange={setDays} autoFocus />
          </div>
          {(create.error ?? revoke.error) && (
            <p className="field-error" role="alert">
              {(create.error ?? revoke.error)!.message}
            </p>
          )}
          <div className="share-foot">
            <button
              type="submit"
              className="btn btn-primary"
              disabled={create.isPending || !('days' in parsedDays)}
              data-testid="share-create"
            >
              {create.isPending ? 'Creating…' : 'Create link'}
            </button>
          </div>
          {create.data && <MadeShareLink path={create.data.path} />}
        </form>
        <div className="share-list">
          <h3>Links to this experiment</h3>
          {links.isPending ? (
            <p className="field-hint">Loading…</p>
          ) : links.isError ? (
            <p className="field-error">{links.error.message}</p>
          ) : links.data.length === 0 ? (
            <p className="field-hint">None yet.</p>
          ) : (
            <ShareLinkTable
              links={links.data}
              now={now}
              revoking={revoke.isPending}
              onRevoke={(id) => revoke.mutate({ id })}
            />
          )}
        </div>
      </div>
    </div>
  );
}
