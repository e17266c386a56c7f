'use client';
// The inspector: everything about the selected node (its thought, action, result, verification, scores, dropped
// candidates, failure, model calls, times, usage, family) and the person's commands on it (prune, expand again).
// For the root, the run itself: goal, task, config, stats and the output. With nothing selected, how to select.
// Reads the selected node alone from the store (a new object exactly when that node changed) and a node's events
// by seq. Not responsible for the canvas, the event log, or applying commands (the server and the engine).
import { useRunStore } from '../page/RunStoreContext';
import { NodeDetails } from './NodeDetails';
import styles from './Inspector.module.css';

export function Inspector({ runId }: { runId: string }) {
  const selectedId = useRunStore((s) => s.selectedNodeId);
  const viewSeq = useRunStore((s) => s.viewSeq);
  const node = useRunStore((s) => (s.selectedNodeId ? s.tree.nodes[s.selectedNodeId] : undefined));
  return (
    <aside className={styles.inspector} data-testid="inspector" aria-label="Inspector">
      {node ? (
        <NodeDetails key={node.id} runId={runId} node={node} />
      ) : (
        <EmptyState missing={selectedId !== null && node === undefined ? selectedId : null} step={viewSeq} />
      )}
    </aside>
  );
}

function EmptyState({ missing, step }: { missing: string | null; step: number | null }) {
  // at a past step a node of the run may simply not be made yet; at the latest step it is not in the run at all
  const title = missing
    ? step !== null
      ? `${missing} is not in the tree yet at step ${step}`
      : `No node ${missing} in this run`
    : 'Nothing selected';
  return (
    <div className={styles.empty} data-testid="inspector-empty">
      <svg className={styles.emptyIcon} viewBox="0 0 48 48" aria-hidden="true">
        <circle cx="24" cy="9" r="5" />
        <circle cx="11" cy="38" r="5" />
        <circle cx="37" cy="38" r="5" />
        <path d="M24 14v8M24 22 11 33M24 22l13 11" />
      </svg>
      <p className={styles.emptyTitle}>{title}</p>
      <p className={styles.emptyText}>Select a node on the canvas, or use the arrow keys</p>
      <dl className={styles.keys}>
        <dt>
          <kbd>↑</kbd>
        </dt>
        <dd>parent</dd>
        <dt>
          <kbd>↓</kbd>
        </dt>
        <dd>first child</dd>
        <dt>
          <kbd>←</kbd> <kbd>→</kbd>
        </dt>
        <dd>siblings</dd>
      </dl>
    </div>
  );
}
