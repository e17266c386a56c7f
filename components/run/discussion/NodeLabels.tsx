'use client';
// A node's labels: for whoever may discuss the run, the server's label set as toggle chips (each with its key, 1 to 9:
// a click or the key puts it on the selected node or takes it off); under them each label on the node with who put
// it there, at which step, and its note, which its setter may write or change. A reader sees the labels on the node
// only. A refusal (another person's label, a label the server does not have) is shown in the server's words.
// Not responsible for the keys (useDiscussionKeys) nor for the write (useDiscussionWrites).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MAX_LABEL_NOTE_CHARS, type NodeLabel } from '@/lib/contract/discussion';
import { useSession } from '@/components/session/useSession';
import { labelsOn, labelToggle } from '@/lib/store/index';
import { useRunStore } from '../page/RunStoreContext';
import { useDiscussionRights } from './useDiscussionRights';
import { useLabelChoices } from './useDiscussion';
import { useLabelProblem, useLabelWrite } from './useDiscussionWrites';
import { focusAndReveal } from './reveal';
import styles from './Discussion.module.css';

export function NodeLabels({ runId, nodeId }: { runId: string; nodeId: string }) {
  const rights = useDiscussionRights();
  const { who } = useSession();
  const choices = useLabelChoices();
  const discussion = useRunStore((s) => s.discussion);
  const on = labelsOn(discussion, nodeId);
  const write = useLabelWrite(runId);
  const problem = useLabelProblem(runId, nodeId);
  if (!rights.write && on.size === 0) return null;
  return (
    <div className={styles.labels} data-testid="node-labels">
      {rights.write && (
        <div className={styles.chips} role="group" aria-label={`Labels for ${nodeId}`}>
          {choices.map((choice) => {
            const there = on.get(choice.name);
            const theirs = there !== undefined && labelToggle(who, there) === 'set';
            return (
              <button
                key={choice.name}
                type="button"
                className={styles.chip}
                aria-pressed={there !== undefined}
                data-theirs={theirs || undefined}
                data-testid="label-chip"
                data-label={choice.name}
                title={
                  there
                    ? `${theirs ? `Put there by ${there.author.name}` : 'Take it off'} (key ${choice.key})`
                    : `Put "${choice.name}" on ${nodeId} (key ${choice.key})`
                }
                onClick={() => write.mutate({ do: labelToggle(who, there), nodeId, label: choice.name })}
              >
                <kbd className={styles.chipKey}>{choice.key}</kbd>
                {choice.name}
              </button>
            );
          })}
        </div>
      )}
      {problem && (
        <p className={styles.error} role="alert" data-testid="label-error">
          {problem}
        </p>
      )}
      {on.size > 0 && (
        <ul className={styles.labelList}>
          {[...on.values()].map((label) => (
            <LabelLine key={label.id} runId={runId} label={label} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** One label on the node: its name, who and when, its note, and the note's editor for its setter. */
function LabelLine({ runId, label }: { runId: string; label: NodeLabel }) {
  const rights = useDiscussionRights();
  const [editing, setEditing] = useState(false);
  const [note, setNote] = useState(label.note ?? '');
  const write = useLabelWrite(runId);
  const mine = rights.mayChange(label, 'edit');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (editing && input.current) focusAndReveal(input.current);
  }, [editing]);
  const save = (event: FormEvent) => {
    event.preventDefault();
    write.mutate(
      { do: 'set', nodeId: label.nodeId, label: label.label, note: note.trim() || null },
      { onSuccess: () => setEditing(false) },
    );
  };
  return (
    <li className={styles.labelLine} data-testid="node-label" data-label={label.label}>
      <span className={styles.tag}>{label.label}</span>
      <span className={styles.meta}>
        {label.author.name} · step {label.step}
      </span>
      {mine && !editing && (
        <button
          type="button"
          className={styles.action}
          onClick={() => {
            setNote(label.note ?? '');
            setEditing(true);
          }}
          data-testid="label-note-edit"
        >
          {label.note ? 'Edit note' : 'Add note'}
        </button>
      )}
      {editing ? (
        <form className={styles.noteForm} onSubmit={save}>
          <input
            className={`input ${styles.noteInput}`}
            value={note}
            maxLength={MAX_LABEL_NOTE_CHARS}
            placeholder="A short note (why)"
            aria-label={`Note on "${label.label}"`}
            ref={input}
            onChange={(e) => setNote(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.stopPropagation();
                setEditing(false);
              }
            }}
            data-testid="label-note-input"
          />
          <button type="submit" className="btn btn-sm btn-primary" disabled={write.isPending}>
            Save
          </button>
        </form>
      ) : (
        label.note && (
          <span className={styles.note} data-testid="label-note">
            {label.note}
          </span>
        )
      )}
    </li>
  );
}
