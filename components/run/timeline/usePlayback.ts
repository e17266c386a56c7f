'use client';
// The timeline's player, as a hook: while `playing`, it shows one search step (or one event) after another at the
// run's own pace times the speed, and stops at the end. It keeps to its schedule (playhead): when drawing a step takes
// longer than the step's share of the time, steps are passed over, so a 30k-event run plays in its scheduled time. A
// step the history has not reached yet waits for it, and so does the next step for the canvas to have drawn this one
// (the canvas follows the store deferred: without waiting, each step would restart its build and it would draw few). The head remembers when the step on screen was due; a scrub
// while playing starts it again there.
// Not responsible for the controls (Timeline.tsx) nor for the schedule's arithmetic (lib/store/timeline.ts, playhead).
import { useEffect, useRef } from 'react';
import { playhead, type MomentIndex, type PlayUnit } from '@/lib/store/index';
import { usePageView } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';

export function usePlayback(
  playing: boolean,
  {
    speed,
    unit,
    moments,
    go,
    stop,
  }: { speed: number; unit: PlayUnit; moments: MomentIndex; go: (seq: number | null) => void; stop: () => void },
) {
  const store = useRunStoreApi();
  const shown = useRunStore((s) => s.viewSeq ?? s.lastSeq);
  const eventCount = useRunStore((s) => s.eventCount);
  const drawnSeq = usePageView((s) => s.drawnSeq);
  // no canvas drawing (null), or it has drawn the step on screen
  const drawn = drawnSeq === null || drawnSeq === shown;
  const head = useRef<{ seq: number; since: number } | null>(null);
  useEffect(() => {
    if (!playing) {
      head.current = null;
      return;
    }
    if (!drawn) return; // runs again when the canvas has drawn it
    const state = store.getState();
    const from = state.viewSeq ?? state.lastSeq;
    if (head.current?.seq !== from) head.current = { seq: from, since: performance.now() };
    const anchor = head.current;
    let timer = 0;
    // never from inside this effect: a step whose time has come moves on after the frame that shows this one (a
    // synchronous seek here would re-render into this effect again, without end when drawing falls behind)
    const tick = () => {
      const at = playhead(store.getState().events, moments, anchor.seq, anchor.since, performance.now(), unit, speed);
      if (at.seq !== anchor.seq) {
        head.current = { seq: at.seq, since: at.since };
        const end = at.seq >= store.getState().lastSeq;
        // at the end, playback is over: a later scrub back must not set it playing again
        if (end) stop();
        go(end ? null : at.seq); // re-renders: the effect runs again from there
      } else if (at.dueAt !== null) timer = window.setTimeout(tick, at.dueAt - performance.now());
      else anchor.since = performance.now(); // waiting for the history: the schedule starts again when it arrives
    };
    const frame = requestAnimationFrame(tick);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `shown`, `eventCount` and `drawn` move the player on
  }, [playing, shown, speed, unit, eventCount, drawn, store, moments]);
}
