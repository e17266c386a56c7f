'use client';
// The inspector's Discussion section for the selected node: its labels (NodeLabels), its threads (CommentThread) and,
// for whoever may discuss the run, the box for a new comment on it (the `c` key focuses it: commentBoxId). Written at
// the step on screen. A reader sees what was written, and no box.
// Not responsible for the section's frame (the inspector's Section) nor for the run's own comments (DiscussionPanel).
import { discussionWords, threadsOf } from '@/lib/store/index';
import { useRunStore } from '../page/RunStoreContext';
import { CommentForm } from './CommentForm';
import { CommentThread } from './CommentThread';
import { NodeLabels } from './NodeLabels';
import { useDiscussionRights, useNow } from './useDiscussionRights';
import { useAddComment } from './useDiscussionWrites';
import styles from './Discussion.module.css';

/** The id of the text box for a new comment on a node (null: on the run, in the Discussion tab). */
export const commentBoxId = (nodeId: string | null) =>
  nodeId === null ? 'discussion-run-comment' : `discussion-comment-${nodeId}`;

export function NodeDiscussion({ runId, nodeId }: { runId: string; nodeId: string }) {
  const rights = useDiscussionRights();
  const discussion = useRunStore((s) => s.discussion);
  const threads = threadsOf(discussion, nodeId);
  const now = useNow();
  const add = useAddComment(runId);
  return (
    <div className={styles.node} data-testid="node-discussion" data-node-id={nodeId}>
      <NodeLabels runId={runId} nodeId={nodeId} />
      {threads.length > 0 && (
        <div className={styles.threads}>
          {threads.map((thread) => (
            <CommentThread key={thread.first.id} runId={runId} thread={thread} now={now} />
          ))}
        </div>
      )}
      {rights.write ? (
        <CommentForm
          id={commentBoxId(nodeId)}
          placeholder={`Comment on ${nodeId}…`}
          submitLabel="Comment"
          pending={add.isPending}
          serverError={add.error?.message ?? null}
          onSubmit={(text, done) => add.mutate({ nodeId, text }, { onSuccess: done })}
        />
      ) : (
        threads.length === 0 && <p className={styles.empty}>No comments on this node.</p>
      )}
    </div>
  );
}

/** The section's aside: "2 comments · 1 label", or nothing. */
export function NodeDiscussionSummary({ nodeId }: { nodeId: string }) {
  const comments = useRunStore((s) => s.discussion.byNode.get(nodeId)?.comments ?? 0);
  const labels = useRunStore((s) => s.discussion.byNode.get(nodeId)?.labels.length ?? 0);
  return discussionWords(comments, labels) || null;
}
