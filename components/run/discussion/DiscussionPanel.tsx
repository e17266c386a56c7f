'use client';
// The drawer's Discussion tab: everything written about the run, newest first: each thread (on a node or on the run
// itself) and each label, with a link to where it was written (its node selected, its step on screen, the comment
// highlighted); a filter (everything, comments, labels, one label by its tally) and, for whoever may discuss the run,
// a box for a comment on the run as a whole (the `c` key focuses it when no node is selected). A `?comment=` link
// opens this tab with its comment highlighted; one that points at no comment of the run says so.
// Not responsible for the node's own section (NodeDiscussion, in the inspector) nor for reading (useDiscussion).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { NodeLabel } from '@/lib/contract/discussion';
import {
  ALL_ENTRIES,
  discussionEntries,
  labelTally,
  writtenWhen,
  type DiscussionEntry,
  type EntryFilter,
} from '@/lib/store/index';
import { useTRPC } from '@/lib/trpc/index';
import { usePageView, usePageViewApi } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import { CommentForm } from './CommentForm';
import { CommentThread } from './CommentThread';
import { commentBoxId } from './NodeDiscussion';
import { showWriting, type WritingPlace } from './show';
import { useLabelChoices } from './useDiscussion';
import { useDiscussionRights, useNow } from './useDiscussionRights';
import { useAddComment } from './useDiscussionWrites';
import styles from './Discussion.module.css';

const SHOW: { value: EntryFilter['show']; label: string }[] = [
  { value: 'all', label: 'All' },
  { value: 'comments', label: 'Comments' },
  { value: 'labels', label: 'Labels' },
];

export function DiscussionPanel({ runId }: { runId: string }) {
  const rights = useDiscussionRights();
  const discussion = useRunStore((s) => s.discussion);
  const choices = useLabelChoices();
  const [filter, setFilter] = useState<EntryFilter>(ALL_ENTRIES);
  const entries = discussionEntries(discussion, filter).reverse();
  const tally = labelTally(discussion.labels, choices).filter((t) => t.count > 0);
  const now = useNow();
  const add = useAddComment(runId);
  const nothing = discussion.comments.length === 0 && discussion.labels.length === 0;
  return (
    <section className={styles.panel} data-testid="discussion-panel" aria-label="Discussion">
      <LinkNote runId={runId} />
      {rights.write && (
        <CommentForm
          id={commentBoxId(null)}
          placeholder="Comment on the run…"
          submitLabel="Comment"
          pending={add.isPending}
          serverError={add.error?.message ?? null}
          testId="run-comment-form"
          onSubmit={(text, done) => add.mutate({ nodeId: null, text }, { onSuccess: done })}
        />
      )}
      {!nothing && (
        <div className={styles.filters}>
          <div className={styles.segments} role="group" aria-label="Show">
            {SHOW.map((s) => (
              <button
                key={s.value}
                type="button"
                className={styles.segment}
                aria-pressed={filter.show === s.value && filter.label === null}
                onClick={() => setFilter({ show: s.value, label: null })}
                data-testid={`discussion-show-${s.value}`}
              >
                {s.label}
              </button>
            ))}
          </div>
          {tally.map((t) => (
            <button
              key={t.name}
              type="button"
              className={styles.tally}
              aria-pressed={filter.label === t.name}
              title={`Only "${t.name}" (${t.count} node${t.count === 1 ? '' : 's'})`}
              onClick={() => setFilter(filter.label === t.name ? ALL_ENTRIES : { show: 'labels', label: t.name })}
              data-testid="discussion-tally"
              data-label={t.name}
            >
              {t.name} <b>{t.count}</b>
            </button>
          ))}
        </div>
      )}
      {nothing ? (
        <p className={styles.empty} data-testid="discussion-empty">
          Nothing written yet. Select a node to comment on it or label it
          {choices.length > 0 ? ` (keys 1–${choices.length})` : ''}; a comment here is on the run as a whole.
        </p>
      ) : entries.length === 0 ? (
        <p className={styles.empty}>Nothing of that kind.</p>
      ) : (
        <ol className={styles.entries} data-testid="discussion-list">
          {entries.map((entry) => (
            <Entry key={entryKey(entry)} runId={runId} entry={entry} now={now} />
          ))}
        </ol>
      )}
    </section>
  );
}

const entryKey = (entry: DiscussionEntry) => (entry.kind === 'thread' ? entry.thread.first.id : entry.label.id);

function Entry({ runId, entry, now }: { runId: string; entry: DiscussionEntry; now: number }) {
  if (entry.kind === 'label') return <LabelEntry label={entry.label} now={now} />;
  const { first } = entry.thread;
  return (
    <li className={styles.entry} data-testid="discussion-entry" data-kind="thread" data-node-id={first.nodeId ?? ''}>
      <CommentThread
        runId={runId}
        thread={entry.thread}
        now={now}
        head={<Place place={{ nodeId: first.nodeId, step: first.step, commentId: first.id }} />}
      />
    </li>
  );
}

function LabelEntry({ label, now }: { label: NodeLabel; now: number }) {
  return (
    <li
      className={`${styles.entry} ${styles.labelEntry}`}
      data-testid="discussion-entry"
      data-kind="label"
      data-node-id={label.nodeId}
    >
      <span className={styles.tag}>{label.label}</span>
      <Place place={{ nodeId: label.nodeId, step: label.step }} />
      <span className={styles.meta}>
        {label.author.name} · {writtenWhen(label.createdAt, new Date(now))}
      </span>
      {label.note && <span className={styles.note}>{label.note}</span>}
    </li>
  );
}

/** Where it was written: a link that selects the node at the step (and highlights the comment). */
function Place({ place }: { place: WritingPlace }) {
  const store = useRunStoreApi();
  const pageView = usePageViewApi();
  const selected = useRunStore((s) => place.nodeId !== null && s.selectedNodeId === place.nodeId);
  return (
    <button
      type="button"
      className={styles.place}
      data-selected={selected || undefined}
      onClick={() => showWriting(store.getState(), pageView.getState(), place)}
      title={`Show ${place.nodeId ?? 'the run'} at step ${place.step}`}
      data-testid="discussion-place"
    >
      <span className={place.nodeId === null ? styles.placeRun : styles.placeNode}>{place.nodeId ?? 'run'}</span>
      <span className={styles.placeStep}>step {place.step}</span>
    </button>
  );
}

/** A `?comment=` link whose comment the run does not have (deleted, or another run's) says so, once it is known. */
function LinkNote({ runId }: { runId: string }) {
  const trpc = useTRPC();
  const highlighted = usePageView((s) => s.highlightedComment);
  const comments = useQuery({ ...trpc.comment.list.queryOptions({ runId }), staleTime: Infinity });
  if (highlighted === null || !comments.data) return null;
  const found = comments.data.find((c) => c.id === highlighted);
  if (found && !found.deleted) return null;
  return (
    <p className={styles.linkNote} role="status" data-testid="discussion-link-note">
      {found ? 'The linked comment was deleted.' : 'The linked comment is not in this run (it may have been deleted).'}
    </p>
  );
}
