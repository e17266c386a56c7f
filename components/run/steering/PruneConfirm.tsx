'use client';
// Asks before a keyboard prune of a branch of more than a few nodes (lib/store/prune.ts says why: a prune cannot be
// undone). Escape or Cancel keeps the branch; Prune sends the command. While it asks, the page's keys are inert (a
// second slip must not act), and focus starts on Cancel and goes back where it was. Not responsible for the prune.
import { useDialogKeys } from '../../shared/useDialogKeys';

export function PruneConfirm({
  nodeId,
  reach,
  onPrune,
  onCancel,
}: {
  nodeId: string;
  reach: number;
  onPrune: () => void;
  onCancel: () => void;
}) {
  useDialogKeys(onCancel, { pageKeysInert: true });
  return (
    <div
      className="overlay"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="prune-confirm-title"
      onClick={onCancel}
      data-testid="prune-confirm"
    >
      <div className="overlay-card prune-confirm" tabIndex={-1} onClick={(e) => e.stopPropagation()}>
        <h2 id="prune-confirm-title">
          Prune {nodeId} and its branch ({reach} nodes)?
        </h2>
        <p>A prune cannot be undone: the search never runs these nodes again.</p>
        <div className="run-missing-actions">
          <button className="btn btn-danger" onClick={onPrune}>
            Prune {reach} nodes
          </button>
          <button className="btn" onClick={onCancel} autoFocus>
            Cancel
          </button>
        </div>
      </div>
    </div>
  );
}
