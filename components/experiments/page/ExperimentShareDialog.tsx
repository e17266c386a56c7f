'use client';
/**
 * "Share" on a team server: a read-only link to this experiment for someone without an account (its page and the
 * runs that are its cells, no whole prompts, no export), with an expiry in days; below, its links with who made each,
 * when each expires and its state, Copy and Revoke. Escape or a click outside closes it.
 * Not responsible for who may share (lib/contract/access.ts canShareExperiment) nor for signing links (the server).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { CopyText } from '@/components/shared/CopyText';
import { ListTable } from '@/components/shared/ListTable';
import { useDialogKeys } from '@/components/shared/useDialogKeys';
import { parseShareDays, SHARE_DAYS, shareLinkState } from '@/lib/forms/index';
import { useTRPC } from '@/lib/trpc/index';

const fullUrl = (path: string) => `${window.location.origin}${path}`;

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
            <div className="field">
              <label htmlFor="experiment-share-days">Expires after (days)</label>
              <input
                id="experiment-share-days"
                type="number"
                min={SHARE_DAYS.min}
                max={SHARE_DAYS.max}
                value={days}
                autoFocus
                aria-invalid={!('days' in parsedDays) || undefined}
                aria-describedby="experiment-share-days-hint"
                onChange={(e) => setDays(e.target.value)}
                data-testid="share-days"
              />
              <span className={'days' in parsedDays ? 'field-hint' : 'field-error'} id="experiment-share-days-hint">
                {'days' in parsedDays ? `${SHARE_DAYS.min} to ${SHARE_DAYS.max}` : parsedDays.error}
              </span>
            </div>
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
          {create.data && (
            <div className="share-made" data-testid="share-made">
              <input
                className="input mono"
                readOnly
                value={fullUrl(create.data.path)}
                aria-label="The new link"
                data-testid="share-url"
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyText text={fullUrl(create.data.path)} testId="share-copy" />
            </div>
          )}
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
            <ListTable columns={['made by', 'expires', 'status']} testId="share-links">
              {links.data.map((link) => {
                const state = shareLinkState(link, now);
                return (
                  <tr key={link.id} data-testid="share-link" data-state={state}>
                    <td>{link.createdByName}</td>
                    <td title={new Date(link.expiresAt).toLocaleString()}>
                      {new Date(link.expiresAt).toLocaleDateString()}
                    </td>
                    <td>
                      <span className={`share-state share-${state}`} data-testid="share-link-state">
                        {state}
                      </span>
                    </td>
                    <td>
                      {state === 'active' && (
                        <div className="share-actions">
                          <CopyText text={fullUrl(link.path)} testId="share-link-copy" small />
                          <button
                            type="button"
                            className="btn btn-sm btn-danger"
                            disabled={revoke.isPending}
                            onClick={() => revoke.mutate({ id: link.id })}
                            data-testid="share-revoke"
                          >
                            Revoke
                          </button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </ListTable>
          )}
        </div>
      </div>
    </div>
  );
}
