'use client';
// The one text box of the discussion: a new comment (on a node or the run), a reply, an edit. Checked against the
// contract's own rule before it is sent (empty, too long: the same words the server would answer), then sent; the
// server's refusal (a missing node, a deleted run, no right to write) is shown beside it in its words. What the
// person typed is kept until the write went through. Ctrl/Cmd+Enter sends, Escape cancels a reply or an edit.
// Not responsible for the write itself (the caller's mutation) nor for who may write (the caller leaves it out).
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { commentTextSchema, MAX_COMMENT_CHARS } from '@/lib/contract/discussion';
import { focusAndReveal } from './reveal';
import styles from './Discussion.module.css';

/** From this many characters on, the box counts them. */
const COUNT_FROM = MAX_COMMENT_CHARS - 1_000;

export function CommentForm({
  id,
  initial = '',
  placeholder,
  submitLabel,
  pending,
  serverError,
  onSubmit,
  onCancel,
  autoFocus,
  testId = 'comment-form',
}: {
  /** The text box's id (the `c` key focuses a node's or the run's box by it). */
  id?: string;
  initial?: string;
  placeholder: string;
  submitLabel: string;
  pending: boolean;
  /** The server's refusal of the last send. */
  serverError: string | null;
  /** Sends the text; `done` empties the box once the server took it. */
  onSubmit: (text: string, done: () => void) => void;
  onCancel?: () => void;
  autoFocus?: boolean;
  testId?: string;
}) {
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const ownId = useId();
  const boxId = id ?? `comment-${ownId}`;
  const error = problem ?? serverError;
  const box = useRef<HTMLTextAreaElement>(null);
  // focused as it opens (a reply, an edit) without the browser's scroll, which would move the page's frame
  useEffect(() => {
    if (autoFocus && box.current) focusAndReveal(box.current);
  }, [autoFocus]);

  const send = () => {
    const checked = commentTextSchema.safeParse(text);
    if (!checked.success) {
      setProblem(`text: ${checked.error.issues[0]?.message ?? 'not a comment'}`);
      return;
    }
    setProblem(null);
    onSubmit(checked.data, () => setText(''));
  };
  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (!pending) send();
    } else if (event.key === 'Escape' && onCancel) {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  };

  return (
    <form className={styles.form} onSubmit={onFormSubmit} data-testid={testId}>
      <textarea
        id={boxId}
        className={styles.box}
        value={text}
        placeholder={placeholder}
        aria-label={placeholder}
        aria-invalid={error !== null || undefined}
        aria-describedby={error ? `${boxId}-error` : undefined}
        rows={2}
        ref={box}
        onChange={(e) => {
          setText(e.target.value);
          if (problem) setProblem(null);
        }}
        onKeyDown={onKeyDown}
        data-testid="comment-box"
      />
      {error && (
        <p className={styles.error} id={`${boxId}-error`} role="alert" data-testid="comment-error">
          {error}
        </p>
      )}
      <div className={styles.formFoot}>
        <span className={styles.hint}>
          {text.length >= COUNT_FROM ? (
            <span data-over={text.length > MAX_COMMENT_CHARS || undefined} className={styles.count}>
              {text.length.toLocaleString('en-US')} / {MAX_COMMENT_CHARS.toLocaleString('en-US')}
            </span>
          ) : (
            <>
              <kbd>Ctrl</kbd> <kbd>Enter</kbd> to send
            </>
          )}
        </span>
        {onCancel && (
          <button type="button" className="btn btn-sm" onClick={onCancel} data-testid="comment-cancel">
            Cancel
          </button>
        )}
        <button type="submit" className="btn btn-sm btn-primary" disabled={pending} data-testid="comment-submit">
          {pending ? 'Sending…' : submitLabel}
        </button>
      </div>
    </form>
  );
}
