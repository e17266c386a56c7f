'use client';
// The breakpoint hits along the timeline: a small marker over the marks at each hit's step, in the breakpoint colour
// (apart from the moments' colours), titled with the breakpoint and the hit's own sentence; a click shows that step
// with its node selected. Hits closer than a marker's width share one (its title counts them), so a run with
// thousands of hits draws a few hundred markers at most. The keyboard way to them is F8 / Shift F8 and the buttons.
// Not responsible for finding hits (the run store) nor for the other marks (Timeline.tsx).
import { useMemo } from 'react';
import { describeCondition } from '@/lib/contract/breakpoints';
import { hitMarkers, type HitMarker } from '@/lib/store/index';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import { showHit } from '../breakpoints/useBreakpoints';
import styles from './Timeline.module.css';

/** Markers across the whole width at most (one per 0.25% of it). */
const SLOTS = 400;

function title(marker: HitMarker): string {
  const { hit, seq } = marker.first;
  const head = `Breakpoint ${hit.breakpointId} (${describeCondition(hit.condition)}) at step ${seq}: ${hit.detail}`;
  return marker.count > 1 ? `${head} · and ${marker.count - 1} more hits here` : head;
}

export function HitMarks() {
  const marks = useRunStore((s) => s.hits.marks);
  const total = useRunStore((s) => Math.max(s.lastSeq, s.eventCount));
  const shown = useRunStore((s) => s.viewSeq ?? s.lastSeq);
  const store = useRunStoreApi();
  const markers = useMemo(() => hitMarkers(marks, total, SLOTS), [marks, total]);
  if (markers.length === 0) return null;
  return (
    <div className={styles.hits} data-testid="hit-marks" data-count={marks.length}>
      {markers.map((m) => (
        <span
          key={m.first.seq}
          className={styles.hit}
          style={{ left: `calc(1px + (100% - 2px) * ${m.at})` }}
          data-current={m.first.seq === shown || undefined}
          title={title(m)}
          aria-hidden="true"
          onClick={() => showHit(store.getState(), m.first)}
          data-testid="hit-mark"
          data-seq={m.first.seq}
          data-count={m.count}
        />
      ))}
    </div>
  );
}
