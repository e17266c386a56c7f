'use client';
// What the inspector's MCTS sections share (MctsStats.tsx, MctsLastSelection.tsx, MctsValueHistory.tsx): a labelled
// figure (fact), a figure as text, a node id
// as a button that selects the node, and the note that the history up to the step is still arriving.
// Not responsible for the sections themselves.
import { formatQ } from '@/lib/layout/index';
import { useRunStore } from '../page/RunStoreContext';
import styles from './Inspector.module.css';

/** A Q, UCT or value as the inspector writes it; a dash for none. */
export const num = (value: number | null) => (value === null ? '—' : formatQ(value));

/** One labelled figure of a section's list (a <dl>'s row), its value as text. */
export function fact(label: string, value: string, testId: string, title?: string) {
  return (
    <div className={styles.fact} title={title}>
      <dt>{label}</dt>
      <dd>
        <span className={styles.num} data-testid={testId}>
          {value}
        </span>
      </dd>
    </div>
  );
}

export function IdButton({ nodeId }: { nodeId: string }) {
  const select = useRunStore((s) => s.select);
  return (
    <button type="button" className={styles.linkButton} onClick={() => select(nodeId)} title={`Select ${nodeId}`}>
      {nodeId}
    </button>
  );
}

export function LoadingNote({ loading }: { loading: boolean }) {
  return loading ? (
    <p className={styles.muted} data-testid="inspector-mcts-loading">
      Loading history… (earlier events are still arriving)
    </p>
  ) : null;
}
