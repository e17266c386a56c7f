'use client';
// One comment: its author, when (a link to it), the step it was written at (a click shows that step), whether it was
// edited, its text, and for whoever may: Reply, Copy link, Edit (its author) and Delete (its author or an admin, after
// asking). The text is a person's: rendered as text, never as HTML. A deleted first with replies reads as a stub. The
// comment a link (or the Discussion tab) points at is highlighted and brought into view.
// Not responsible for the thread (CommentThread) nor for the rules (useDiscussionRights).
import { useEffect, useRef, useState } from 'react';
import type { RunComment } from '@/lib/contract/discussion';
import { commentLink, writtenWhen } from '@/lib/store/index';
import { usePageView, usePageViewApi } from '../page/PageViewContext';
import { useRunStoreApi } from '../page/RunStoreContext';
import { CommentForm } from './CommentForm';
import { reveal } from './reveal';
import { showWriting } from './show';
import { useDiscussionRights } from './useDiscussionRights';
import { useDeleteComment, useEditComment } from './useDiscussionWrites';
import styles from './Discussion.module.css';

export function CommentItem({
  runId,
  comment,
  now,
  onReply,
}: {
  runId: string;
  comment: RunComment;
  now: number;
  onReply?: () => void;
}) {
  const rights = useDiscussionRights();
  const [mode, setMode] = useState<'read' | 'edit' | 'delete'>('read');
  const edit = useEditComment(runId);
  const remove = useDeleteComment(runId);
  const store = useRunStoreApi();
  const pageView = usePageViewApi();
  const highlighted = usePageView((s) => s.highlightedComment === comment.id);
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    // a link (or the Discussion tab) pointed here: bring it into view, wherever the list has scrolled
    if (highlighted && ref.current) reveal(ref.current);
  }, [highlighted]);

  const canEdit = !comment.deleted && rights.mayChange(comment, 'edit');
  const canDelete = !comment.deleted && rights.mayChange(comment, 'delete');
  const link = commentLink('', runId, comment.id);
  const go = () =>
    showWriting(store.getState(), pageView.getState(), {
      nodeId: comment.nodeId,
      step: comment.step,
      commentId: comment.id,
    });

  return (
    <article
      ref={ref}
      className={styles.comment}
      data-testid="comment"
      data-comment-id={comment.id}
      data-highlighted={highlighted || undefined}
      data-deleted={comment.deleted || undefined}
      aria-label={`Comment by ${comment.author.name}`}
    >
      <header className={styles.commentHead}>
        <span className={styles.author} data-testid="comment-author">
          {comment.author.name}
        </span>
        <a
          className={styles.when}
          href={link}
          title={`${comment.createdAt.toLocaleString()}: a link to this comment`}
          onClick={(event) => {
            event.preventDefault();
            go();
          }}
        >
          {writtenWhen(comment.createdAt, new Date(now))}
        </a>
        <button
          type="button"
          className={styles.stepLink}
          onClick={go}
          title={`Written while step ${comment.step} was on screen: show that step`}
          data-testid="comment-step"
        >
          step {comment.step}
        </button>
        {comment.editedAt && (
          <span className={styles.edited} title={`Edited ${comment.editedAt.toLocaleString()}`}>
            edited
          </span>
        )}
      </header>
      {mode === 'edit' ? (
        <CommentForm
          initial={comment.text}
          placeholder="Edit the comment"
          submitLabel="Save"
          autoFocus
          pending={edit.isPending}
          serverError={edit.error?.message ?? null}
          testId="edit-form"
          onCancel={() => {
            edit.reset();
            setMode('read');
          }}
          onSubmit={(text) => edit.mutate({ id: comment.id, text }, { onSuccess: () => setMode('read') })}
        />
      ) : (
        <p className={styles.text} data-testid="comment-text">
          {comment.deleted ? <span className={styles.gone}>This comment was deleted.</span> : comment.text}
        </p>
      )}
      {mode === 'delete' ? (
        <div className={styles.confirm} role="group" aria-label="Delete this comment?">
          <span>Delete this comment?</span>
          <button
            type="button"
            className="btn btn-sm btn-danger"
            disabled={remove.isPending}
            onClick={() => remove.mutate({ id: comment.id }, { onSuccess: () => setMode('read') })}
            data-testid="comment-delete-confirm"
          >
            Delete
          </button>
          <button
            type="button"
            className="btn btn-sm"
            onClick={() => {
              remove.reset();
              setMode('read');
            }}
          >
            Keep
          </button>
          {remove.error && (
            <span className={styles.error} role="alert" data-testid="comment-error">
              {remove.error.message}
            </span>
          )}
        </div>
      ) : (
        mode === 'read' &&
        !comment.deleted && (
          <div className={styles.actions}>
            {onReply && (
              <button type="button" className={styles.action} onClick={onReply} data-testid="comment-reply">
                Reply
              </button>
            )}
            <CopyLink path={link} />
            {canEdit && (
              <button
                type="button"
                className={styles.action}
                onClick={() => setMode('edit')}
                data-testid="comment-edit"
              >
                Edit
              </button>
            )}
            {canDelete && (
              <button
                type="button"
                className={styles.action}
                onClick={() => setMode('delete')}
                data-testid="comment-delete"
              >
                Delete
              </button>
            )}
          </div>
        )
      )}
    </article>
  );
}

/** Copies the comment's address (this server's origin and the path); offers it to copy by hand where refused. */
function CopyLink({ path }: { path: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={styles.action}
      data-testid="comment-copy-link"
      data-link={path}
      title="Copy a link that opens the run at this comment"
      onClick={async () => {
        const url = `${window.location.origin}${path}`;
        try {
          await navigator.clipboard.writeText(url);
        } catch {
          window.prompt('Copy this link', url);
        }
        setCopied(true);
        setTimeout(() => setCopied(false), 1_500);
      }}
    >
      {copied ? 'Copied' : 'Copy link'}
    </button>
  );
}
