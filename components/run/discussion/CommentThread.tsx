'use client';
// One thread: its first comment and its replies (one level: a reply to a reply joins the thread, so Reply on any of
// them answers the first), and the reply box while a person writes one.
// Not responsible for one comment (CommentItem) nor for which threads are listed (NodeDiscussion, DiscussionPanel).
import { useState, type ReactNode } from 'react';
import type { CommentThread as Thread } from '@/lib/store/index';
import { CommentItem } from './CommentItem';
import { CommentForm } from './CommentForm';
import { useDiscussionRights } from './useDiscussionRights';
import { useAddComment } from './useDiscussionWrites';
import styles from './Discussion.module.css';

export function CommentThread({
  runId,
  thread,
  now,
  head,
}: {
  runId: string;
  thread: Thread;
  now: number;
  /** Drawn across the thread's top (the Discussion tab: where it was written). */
  head?: ReactNode;
}) {
  const rights = useDiscussionRights();
  const [replying, setReplying] = useState(false);
  const add = useAddComment(runId);
  const reply = rights.write ? () => setReplying(true) : undefined;
  return (
    <div className={styles.thread} data-testid="comment-thread" data-thread-id={thread.first.id}>
      {head && <div className={styles.threadHead}>{head}</div>}
      <CommentItem runId={runId} comment={thread.first} now={now} onReply={reply} />
      {thread.replies.length > 0 && (
        <div className={styles.replies}>
          {thread.replies.map((r) => (
            <CommentItem key={r.id} runId={runId} comment={r} now={now} onReply={reply} />
          ))}
        </div>
      )}
      {replying && (
        <div className={styles.replyForm}>
          <CommentForm
            placeholder={`Reply to ${thread.first.deleted ? 'this thread' : thread.first.author.name}…`}
            submitLabel="Reply"
            autoFocus
            pending={add.isPending}
            serverError={add.error?.message ?? null}
            testId="reply-form"
            onCancel={() => {
              add.reset();
              setReplying(false);
            }}
            onSubmit={(text, done) =>
              add.mutate(
                { nodeId: thread.first.nodeId, text, replyTo: thread.first.id },
                {
                  onSuccess: () => {
                    done();
                    setReplying(false);
                  },
                },
              )
            }
          />
        </div>
      )}
    </div>
  );
}
