'use client';
// The timeline's track: the density of the run's events per pixel column on a canvas (draw-density.ts), the
// scrubber it is given as children laid over it, and a hover that says exactly what the column under the pointer
// holds (its seq range, its count per kind, how many are the selected node's). Follows the run store by
// subscription, not by rendering: new events, the selection, a resize or the theme redraw at most once a frame, and
// React never re-renders this for them; the tooltip is a DOM node written with textContent only.
// Not responsible for counting (lib/store's MomentDensity, countBetween) nor for the scrubber's behaviour (Timeline).
import { useEffect, useRef, type ReactNode } from 'react';
import { eventNodeIds } from '@/lib/event-log/index';
import type { ExplorationEvent } from '@/lib/contract/events';
import {
  columnAt,
  countBetween,
  describeRange,
  MatchingSeqs,
  MomentDensity,
  type DensityColumns,
} from '@/lib/store/index';
import { useRunStoreApi } from '../page/RunStoreContext';
import { COLUMN_X0, densityColours, drawDensity, type DensityColours } from './draw-density';
import styles from './Timeline.module.css';

/** The events the log's "selected node only" filter shows (lib/event-log's eventNodeIds), so the counts agree. */
const aboutNode = (id: string) => (event: ExplorationEvent) => eventNodeIds(event).includes(id);

export function TimelineMarks({ children }: { children: ReactNode }) {
  const track = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const store = useRunStoreApi();
  useEffect(() => {
    const wrapper = track.current;
    const el = canvas.current;
    const tipEl = tip.current;
    if (!wrapper || !el || !tipEl) return;
    const density = new MomentDensity();
    const selected = new MatchingSeqs();
    let selectedId: string | null = null;
    let size = { width: 0, height: 0 };
    let columns: DensityColumns | null = null;
    let pointerX: number | null = null; // over the track, in the canvas's CSS pixels
    let frame = 0;
    let colours: DensityColours | null = null; // read on the first draw and after a theme change

    const draw = () => {
      frame = 0;
      const { events, eventCount, lastSeq, selectedNodeId } = store.getState();
      density.read(events, eventCount);
      if (selectedNodeId !== selectedId) {
        selectedId = selectedNodeId;
        selected.reset(selectedNodeId === null ? null : aboutNode(selectedNodeId));
      }
      selected.read(events, eventCount);
      // the whole run's span (lastSeq), so marks stay put while older history is still arriving
      columns = density.columns(Math.max(1, Math.floor(size.width) - 2), Math.max(lastSeq, eventCount));
      let mine: Uint8Array | null = null;
      if (selectedId !== null) {
        mine = new Uint8Array(columns.width);
        for (const seq of selected.seqs) mine[columnAt(columns.from, seq)] = 1;
      }
      colours ??= densityColours(el);
      drawDensity(el, size, colours, columns, mine);
      if (pointerX !== null) showTip(); // the column under a still pointer may hold more now
    };
    const request = () => {
      if (!frame) frame = requestAnimationFrame(draw);
    };

    const hideTip = () => {
      tipEl.hidden = true;
    };
    const showTip = () => {
      if (!columns || pointerX === null || columns.width === 0) return hideTip();
      const x = Math.min(columns.width - 1, Math.max(0, Math.floor(pointerX) - COLUMN_X0));
      const from = columns.from[x] as number;
      const to = columns.to[x] as number;
      if (to < from) return hideTip();
      const { events, selectedNodeId, hits } = store.getState();
      const isMine = selectedNodeId === null ? undefined : aboutNode(selectedNodeId);
      const range = countBetween(events, from, to, { isMine, hits: hits.marks });
      // textContent only: node ids and counts are data, never markup
      tipEl.textContent = describeRange(range, selectedNodeId, events.length).join('\n');
      // for tests and tools: the exact range and counts the words say (e2e compares them with the log's rows)
      Object.assign(tipEl.dataset, {
        from: String(from),
        to: String(to),
        total: String(range.total),
        counts: JSON.stringify(range.counts),
        types: JSON.stringify(range.types),
        hits: String(range.hits),
      });
      if (range.mine === null) delete tipEl.dataset.mine;
      else tipEl.dataset.mine = String(range.mine);
      tipEl.hidden = false;
      // kept inside the track: centred on the column, pushed in at either end
      const room = wrapper.clientWidth - tipEl.offsetWidth;
      tipEl.style.left = `${Math.max(0, Math.min(room, x + COLUMN_X0 - tipEl.offsetWidth / 2))}px`;
    };
    // on the wrapper, not the canvas: the scrubber lies over the canvas and takes the pointer (and its clicks)
    const onMove = (e: PointerEvent) => {
      pointerX = e.clientX - el.getBoundingClientRect().left;
      showTip();
    };
    const onLeave = () => {
      pointerX = null;
      hideTip();
    };
    wrapper.addEventListener('pointermove', onMove);
    wrapper.addEventListener('pointerleave', onLeave);

    const observer = new ResizeObserver(([entry]) => {
      if (!entry) return;
      size = { width: entry.contentRect.width, height: entry.contentRect.height };
      request();
    });
    observer.observe(el);
    const unsubscribe = store.subscribe((s, previous) => {
      if (s.eventCount !== previous.eventCount || s.lastSeq !== previous.lastSeq) request();
      else if (s.selectedNodeId !== previous.selectedNodeId) request();
    });
    // the theme (light or dark) changes the colours: the system's scheme, or an explicit data-theme on <html>
    const retheme = () => {
      colours = null;
      request();
    };
    const media = window.matchMedia('(prefers-color-scheme: dark)');
    media.addEventListener('change', retheme);
    const themes = new MutationObserver(retheme);
    themes.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    return () => {
      wrapper.removeEventListener('pointermove', onMove);
      wrapper.removeEventListener('pointerleave', onLeave);
      observer.disconnect();
      unsubscribe();
      media.removeEventListener('change', retheme);
      themes.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [store]);
  return (
    <div ref={track} className={styles.track}>
      <canvas ref={canvas} className={styles.marks} aria-hidden="true" data-testid="timeline-density" />
      {children}
      <div ref={tip} className={styles.densityTip} role="tooltip" hidden data-testid="timeline-density-tip" />
    </div>
  );
}
