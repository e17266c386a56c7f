/**
 * A row's discussion badge: how many comments and labels the run has, quiet (muted, small) and only when it has
 * some; the words are lib/forms runs-list.ts `discussionText`.
 * Not responsible for the counts (run.list brings them with each run) nor for the discussion itself (the run page).
 */
import type { RunDiscussionCounts } from '@/lib/contract/run-list';
import { discussionText } from '@/lib/forms/index';
import s from './RunsTable.module.css';

function CommentIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M2.5 3.5h11v7h-6l-3 2.5v-2.5h-2z" strokeLinejoin="round" />
    </svg>
  );
}

function LabelIcon() {
  return (
    <svg width="12" height="12" viewBox="0 0 16 16" aria-hidden fill="none" stroke="currentColor" strokeWidth="1.5">
      <path d="M2.5 2.5h5.5l5.5 5.5-5.5 5.5-5.5-5.5z" strokeLinejoin="round" />
      <circle cx="5.5" cy="5.5" r="1" fill="currentColor" stroke="none" />
    </svg>
  );
}

export function RunDiscussion({ counts }: { counts: RunDiscussionCounts }) {
  const text = discussionText(counts);
  if (text === null) return null;
  return (
    <span className={s.discussion} title={text} aria-label={text} role="img" data-testid="run-row-discussion">
      {counts.comments > 0 && (
        <span className={s.discussionPart}>
          <CommentIcon />
          {counts.comments}
        </span>
      )}
      {counts.labels > 0 && (
        <span className={s.discussionPart}>
          <LabelIcon />
          {counts.labels}
        </span>
      )}
    </span>
  );
}
