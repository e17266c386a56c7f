'use client';
// The timeline under the canvas: one mark per event, coloured by kind, a scrubber over the whole log, steps back
// and forward by one event or one search iteration, jumps to the previous or next backtrack, prune or command,
// play at 0.5x to 10x, and "back to live" while a run is still going. Everything else on the page shows the
// step the timeline is on (the store's seek).
import { useEffect, useRef, useState } from 'react';
import { type JumpTarget, jump, momentKind, playDelay, type MomentKind } from '@/lib/store/timeline';
import { useRunStore, useRunStoreApi } from '../RunStoreContext';
import styles from './Timeline.module.css';

const COLORS: Record<MomentKind, string> = {
  expansion: '--st-running',
  prune: '--st-dropped',
  backtrack: '--st-pruned',
  verified: '--st-verified',
  failed: '--st-failed',
  command: '--best',
  step: '--border-strong',
  other: '--border',
};
const TALL = new Set<MomentKind>(['backtrack', 'command', 'failed']);
const SPEEDS = [0.5, 1, 2, 5, 10];

/** Draws a mark per event on a canvas (thousands of events stay cheap); redrawn when the log or the size changes. */
function TimelineMarks() {
  const canvas = useRef<HTMLCanvasElement>(null);
  const events = useRunStore((s) => s.events);
  const count = useRunStore((s) => s.eventCount); // the log grows in place
  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const draw = () => {
      const width = el.clientWidth;
      const height = el.clientHeight;
      const ratio = window.devicePixelRatio || 1;
      el.width = Math.max(1, Math.floor(width * ratio));
      el.height = Math.max(1, Math.floor(height * ratio));
      const ctx = el.getContext('2d');
      if (!ctx) return;
      ctx.scale(ratio, ratio);
      ctx.clearRect(0, 0, width, height);
      const style = getComputedStyle(el);
      const n = events.length;
      for (const event of events) {
        const kind = momentKind(event);
        if (kind === 'other') continue;
        const x = n <= 1 ? 0 : ((event.seq - 1) / (n - 1)) * (width - 2) + 1;
        const h = TALL.has(kind) ? height : kind === 'step' ? height * 0.35 : height * 0.6;
        ctx.fillStyle = style.getPropertyValue(COLORS[kind]).trim() || '#888';
        ctx.fillRect(Math.round(x), height - h, 1.5, h);
      }
    };
    draw();
    const observer = new ResizeObserver(draw);
    observer.observe(el);
    return () => observer.disconnect();
  }, [events, count]);
  return <canvas ref={canvas} className={styles.marks} aria-hidden="true" />;
}

export function Timeline() {
  const store = useRunStoreApi();
  const lastSeq = useRunStore((s) => s.lastSeq);
  const viewSeq = useRunStore((s) => s.viewSeq);
  const live = useRunStore((s) => s.liveStatus !== 'finished');
  const [playRequested, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [jumpKind, setJumpKind] = useState<JumpTarget>('backtrack');
  const shown = viewSeq ?? lastSeq;
  // playback ends by itself at the end of the log
  const playing = playRequested && viewSeq !== null;

  const go = (seq: number | null) => {
    store.getState().setView({ followLive: false });
    store.getState().seek(seq);
  };
  const jumpTo = (target: JumpTarget, direction: 1 | -1) => {
    const seq = jump(store.getState().events, store.getState().viewSeq ?? store.getState().lastSeq, target, direction);
    if (seq !== null) go(seq);
  };

  // Playing shows one event after another at the run's own pace times the speed, and stops at the end.
  useEffect(() => {
    if (!playing) return;
    const state = store.getState();
    const from = state.viewSeq ?? state.lastSeq;
    const timer = setTimeout(
      () => go(from + 1 >= store.getState().lastSeq ? null : from + 1),
      playDelay(state.events, from, speed),
    );
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `shown` moves the player one event at a time
  }, [playing, shown, speed, store]);

  const atStart = shown <= 0;
  const atEnd = viewSeq === null;
  return (
    <div className={styles.timeline} data-testid="timeline">
      <div className={styles.controls}>
        <button
          className="btn btn-sm"
          onClick={() => jumpTo('iteration', -1)}
          disabled={atStart}
          title="Back one search step ([)"
        >
          |◀
        </button>
        <button
          className="btn btn-sm"
          onClick={() => jumpTo('event', -1)}
          disabled={atStart}
          title="Back one event (,)"
          data-testid="timeline-back"
        >
          ◀
        </button>
        <button
          className="btn btn-sm"
          onClick={() => {
            if (!playing && atEnd) go(0);
            setPlaying(!playing);
          }}
          disabled={lastSeq === 0}
          title={playing ? 'Pause playback' : 'Play from here'}
          data-testid="timeline-play"
        >
          {playing ? '❚❚' : '▶ play'}
        </button>
        <select
          className={`input ${styles.select}`}
          value={speed}
          onChange={(e) => setSpeed(Number(e.target.value))}
          aria-label="Playback speed"
        >
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}x
            </option>
          ))}
        </select>
        <button
          className="btn btn-sm"
          onClick={() => jumpTo('event', 1)}
          disabled={atEnd}
          title="Forward one event (.)"
          data-testid="timeline-forward"
        >
          ▶
        </button>
        <button
          className="btn btn-sm"
          onClick={() => jumpTo('iteration', 1)}
          disabled={atEnd}
          title="Forward one search step (])"
        >
          ▶|
        </button>
        <span className={styles.divider} />
        <button
          className="btn btn-sm"
          onClick={() => jumpTo(jumpKind, -1)}
          disabled={atStart}
          title={`Previous ${jumpKind}`}
          data-testid="jump-prev"
        >
          ⤺
        </button>
        <select
          className={`input ${styles.select}`}
          value={jumpKind}
          onChange={(e) => setJumpKind(e.target.value as JumpTarget)}
          aria-label="Jump to"
          data-testid="jump-kind"
        >
          <option value="backtrack">backtrack</option>
          <option value="prune">prune</option>
          <option value="command">person's command</option>
        </select>
        <button
          className="btn btn-sm"
          onClick={() => jumpTo(jumpKind, 1)}
          disabled={atEnd}
          title={`Next ${jumpKind}`}
          data-testid="jump-next"
        >
          ⤻
        </button>
        <span className={styles.position} data-testid="timeline-position">
          step <b>{shown}</b> / {lastSeq}
        </span>
        {!atEnd && (
          <button className="btn btn-sm btn-primary" onClick={() => go(null)} data-testid="back-to-live">
            {live ? 'Back to live' : 'Go to end'}
          </button>
        )}
      </div>
      <div className={styles.track}>
        <TimelineMarks />
        <input
          type="range"
          className={styles.scrubber}
          min={0}
          max={Math.max(lastSeq, 1)}
          step={1}
          value={shown}
          onChange={(e) => go(Number(e.target.value) >= lastSeq ? null : Number(e.target.value))}
          aria-label="Step of the run"
          data-testid="scrubber"
        />
      </div>
    </div>
  );
}
