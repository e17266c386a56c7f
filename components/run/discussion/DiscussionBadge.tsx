'use client';
// The badge a node people have discussed wears on its card and its pill, at its top-right corner: its comments and
// its labels counted, the labels' names in its title. Each card reads only its own node's entry, as two numbers and
// a string, so a new comment re-renders only the card it is on (the canvas may hold 16k cards: O(1) each).
// Not responsible for the card (canvas/ThoughtNodeCard) nor for counting (lib/store's indexDiscussion).
import { memo } from 'react';
import { discussionWords } from '@/lib/store/index';
import { useRunStore } from '../page/RunStoreContext';
import styles from './Discussion.module.css';

function DiscussionBadgeImpl({ nodeId, pill = false }: { nodeId: string; pill?: boolean }) {
  const comments = useRunStore((s) => s.discussion.byNode.get(nodeId)?.comments ?? 0);
  // one string (a label per line), so the selector's value is equal while the node's labels are
  const names = useRunStore((s) => s.discussion.byNode.get(nodeId)?.labels.join('\n') ?? '');
  const labelCount = names === '' ? 0 : names.split('\n').length;
  if (comments === 0 && labelCount === 0) return null;
  const words = discussionWords(comments, labelCount);
  const labels = names.replaceAll('\n', ', ');
  return (
    <span
      className={pill ? `${styles.badge} ${styles.badgePill}` : styles.badge}
      data-testid="discussion-badge"
      data-comments={comments}
      data-labels={labelCount}
      title={labels ? `${words}: ${labels}` : words}
      aria-label={labels ? `${words}: ${labels}` : words}
    >
      {comments > 0 && (
        <span className={styles.badgePart}>
          <CommentIcon />
          {comments}
        </span>
      )}
      {labelCount > 0 && (
        <span className={styles.badgePart}>
          <LabelIcon />
          {labelCount}
        </span>
      )}
    </span>
  );
}

export const DiscussionBadge = memo(DiscussionBadgeImpl);

export function CommentIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={className ?? styles.icon}>
      <path d="M2.5 3.5h11v7.5h-6l-3 2.5V11h-2z" />
    </svg>
  );
}

export function LabelIcon({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 16 16" aria-hidden="true" className={className ?? styles.icon}>
      <path d="M2.5 2.5h5.5l5.5 5.5-5.5 5.5-5.5-5.5z" />
      <circle cx="5.5" cy="5.5" r="0.9" />
    </svg>
  );
}
