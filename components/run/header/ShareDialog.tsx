'use client';
// "Share": a read-only link to this run for someone without an account. Pinned, if the person likes, to the step
// on screen and the selected node (ticked when there is one); an expiry in days; whole prompts and export only when
// ticked. Create shows the full URL with Copy; below, the run's links (who made each, what it pins, when it
// expires, whether it carries prompts, its state) with Copy and Revoke. Escape or a click outside closes it.
// Not responsible for who may share (RunAccess.tsx) nor for signing links (the server's shares router).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { parseShareDays, SHARE_DAYS } from '@/lib/forms/index';
import { useTRPC } from '@/lib/trpc/index';
import { MadeShareLink, ShareDaysField, ShareLinkTable } from '../../shared/ShareLinks';
import { useRunStore } from '../page/RunStoreContext';
import { useDialogKeys } from '../../shared/useDialogKeys';

export function ShareDialog({ runId, onClose }: { runId: string; onClose: () => void }) {
  useDialogKeys(onClose, { pageKeysInert: true });
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.shares.list.queryKey({ runId }) });
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-labelledby="share-title" onClick={onClose}>
      <div className="overlay-card share-dialog" onClick={(e) => e.stopPropagation()} data-testid="share-dialog">
        <div className="panel-head">
          <h2 id="share-title">Share this run, read only</h2>
          <button type="button" className="btn btn-sm" onClick={onClose}>
            Close
          </button>
        </div>
        <ShareForm runId={runId} onMade={invalidate} />
        <ShareLinks runId={runId} onRevoked={invalidate} />
      </div>
    </div>
  );
}

/** What a new link pins (the step on screen, the selected node), how long it lasts, whether it carries prompts. */
function ShareForm({ runId, onMade }: { runId: string; onMade: () => void }) {
  const trpc = useTRPC();
  // what is on screen: a past step (or the latest one) and the selected node
  const viewSeq = useRunStore((s) => s.viewSeq);
  const lastSeq = useRunStore((s) => s.lastSeq);
  const selected = useRunStore((s) => s.selectedNodeId);
  const step = viewSeq ?? lastSeq;
  const [pinStep, setPinStep] = useState(viewSeq !== null);
  const [pinNode, setPinNode] = useState(selected !== null);
  const [days, setDays] = useState(String(SHARE_DAYS.default));
  const [allowPrompts, setAllowPrompts] = useState(false);
  const parsedDays = parseShareDays(days);
  const create = useMutation(trpc.shares.create.mutationOptions({ onSettled: onMade }));

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!('days' in parsedDays)) return;
    create.mutate({
      runId,
      step: pinStep && step > 0 ? step : null,
      nodeId: pinNode ? selected : null,
      expiresInDays: parsedDays.days,
      allowPrompts,
    });
  }

  return (
    <form className="panel-body share-body" onSubmit={submit}>
      <p className="field-hint">
        Whoever opens the link sees this run without an account, and cannot change it. Steering, forking and the other
        runs stay with your team.
      </p>
      <fieldset className="share-pins">
        <legend>Open it at</legend>
        <label className="check">
          <input
            type="checkbox"
            checked={pinStep}
            disabled={step === 0}
            onChange={(e) => setPinStep(e.target.checked)}
            data-testid="share-pin-step"
            autoFocus
          />
          step {step}
          {viewSeq === null ? ' (the latest so far)' : ' (the step on screen)'}
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={pinNode && selected !== null}
            disabled={selected === null}
            onChange={(e) => setPinNode(e.target.checked)}
            data-testid="share-pin-node"
          />
          {selected === null ? (
            'a node (select one on the canvas first)'
          ) : (
            <>
              node <code>{selected}</code> selected
            </>
          )}
        </label>
      </fieldset>
      <div className="share-row">
        <ShareDaysField id="share-days" days={days} parsed={parsedDays} onChange={setDays} />
        <label className="check share-prompts">
          <input
            type="checkbox"
            checked={allowPrompts}
            onChange={(e) => setAllowPrompts(e.target.checked)}
            data-testid="share-allow-prompts"
          />
          include whole prompts and export
        </label>
      </div>
      {create.error && (
        <p className="field-error" role="alert">
          {create.error.message}
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
  );
}

/** The run's links: who made each, what it pins, when it expires, its state; Copy and Revoke while active. */
function ShareLinks({ runId, onRevoked }: { runId: string; onRevoked: () => void }) {
  const trpc = useTRPC();
  // a link's state (expired) is read against the time the dialog opened
  const [now] = useState(() => Date.now());
  const links = useQuery(trpc.shares.list.queryOptions({ runId }));
  const revoke = useMutation(trpc.shares.revoke.mutationOptions({ onSettled: onRevoked }));
  return (
    <div className="share-list">
      <h3>Links to this run</h3>
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
          extra={{
            columns: ['opens at', 'prompts'],
            cells: (link) => (
              <>
                <td>
                  {[link.step !== null && `step ${link.step}`, link.nodeId !== null && link.nodeId]
                    .filter(Boolean)
                    .join(' · ') || 'latest'}
                </td>
                <td>{link.allowPrompts ? 'yes' : 'no'}</td>
              </>
            ),
          }}
          revoking={revoke.isPending}
          onRevoke={(id) => revoke.mutate({ id })}
        />
      )}
      {revoke.error && (
        <p className="field-error" role="alert">
          {revoke.error.message}
        </p>
      )}
    </div>
  );
}
