'use client';
// The discussion along the timeline: a small marker at each step something was written at (a comment: a round dot;
// only labels: a diamond), over the density in their own lane, titled with what was written there; a click shows that
// step with the node selected (and the comment highlighted). Marks closer than a marker's width share one, so a long
// discussion draws a few hundred markers at most.
// Not responsible for the marks' steps (lib/store's indexDiscussion) nor for the timeline (timeline/Timeline.tsx).
import { useMemo } from 'react';
import { describeMarker, discussionMarkers } from '@/lib/store/index';
import { usePageViewApi } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import { showWriting } from './show';
import styles from './Discussion.module.css';

/** Markers across the whole width at most (one per 0.25% of it), as for breakpoint hits. */
const SLOTS = 400;

export function DiscussionMarks() {
  const marks = useRunStore((s) => s.discussion.marks);
  const total = useRunStore((s) => Math.max(s.lastSeq, s.eventCount));
  const shown = useRunStore((s) => s.viewSeq ?? s.lastSeq);
  const store = useRunStoreApi();
  const pageView = usePageViewApi();
  const markers = useMemo(() => discussionMarkers(marks, total, SLOTS), [marks, total]);
  if (markers.length === 0) return null;
  return (
    <div className={styles.marks} data-testid="discussion-marks" data-count={marks.length}>
      {markers.map((m) => (
        <span
          key={`${m.first.kind}-${m.first.id}`}
          className={styles.mark}
          style={{ left: `calc(1px + (100% - 2px) * ${m.at})` }}
          data-current={m.first.step === shown || undefined}
          data-labels-only={m.comments === 0 || undefined}
          title={describeMarker(m)}
          aria-hidden="true"
          onClick={() =>
            showWriting(store.getState(), pageView.getState(), {
              nodeId: m.first.nodeId,
              step: m.first.step,
              commentId: m.first.kind === 'comment' ? m.first.id : null,
            })
          }
          data-testid="discussion-mark"
          data-step={m.first.step}
          data-comments={m.comments}
          data-labels={m.labels}
        />
      ))}
    </div>
  );
}
