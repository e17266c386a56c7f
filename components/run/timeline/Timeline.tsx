'use client';
// The timeline under the canvas: the run's density per pixel column (events counted by kind, a small stacked
// histogram with backtracks, commands and the selected node's events marked on top, and a hover saying exactly what
// a column holds: TimelineMarks.tsx), a scrubber over the whole run, steps back and forward by one event or one
// search step, and for a Monte Carlo tree search by one iteration (IterationControls.tsx), jumps to the previous or
// next backtrack, prune or command (each button off when there is nothing that way), play by search step, iteration
// or event at 0.5x to 10x, and "back to live" while a run is still going. Breakpoint hits are marked over the marks
// (HitMarks.tsx), and the steps comments and labels were written at in a lane of their own (discussion/
// DiscussionMarks.tsx); while there are any hits, the jumps go from hit to hit (selecting each hit's node) until the person
// picks another kind. Everything else on the page shows the step the timeline is on (the store's seek). While a long
// run's history is still arriving, steps before it cannot be shown and the position says so.
// Not responsible for counting or drawing the density (lib/store's timeline-density.ts, draw-density.ts).
import { useState } from 'react';
import { type JumpTarget, MomentIndex, type PlayUnit } from '@/lib/store/index';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import { useHitJump } from '../breakpoints/useBreakpoints';
import { DiscussionMarks } from '../discussion/DiscussionMarks';
import { HitMarks } from './HitMarks';
import { IterationControls, useIsMcts } from './IterationControls';
import { TimelineMarks } from './TimelineMarks';
import { usePlayback } from './usePlayback';
import styles from './Timeline.module.css';

const SPEEDS = [0.5, 1, 2, 5, 10];

/** What the jump buttons go to: a kind of moment, or a breakpoint hit (the run store's hits). */
type JumpKind = Exclude<JumpTarget, 'event' | 'step' | 'iteration'> | 'hit';

export function Timeline() {
  const store = useRunStoreApi();
  const lastSeq = useRunStore((s) => s.lastSeq);
  const viewSeq = useRunStore((s) => s.viewSeq);
  const live = useRunStore((s) => s.liveStatus !== 'finished');
  const events = useRunStore((s) => s.events);
  const eventCount = useRunStore((s) => s.eventCount);
  // a long run's history arrives after its tree: steps before it cannot be shown yet
  const loadingHistory = eventCount < lastSeq;
  // where each kind of moment is: read as the log grows (it only reads what it has not), asked on every render
  const [moments] = useState(() => new MomentIndex());
  moments.read(events, eventCount);
  const mcts = useIsMcts(moments);
  const [playRequested, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [chosenUnit, setUnit] = useState<PlayUnit>('step');
  // by iteration is offered for a Monte Carlo tree search only
  const unit: PlayUnit = chosenUnit === 'iteration' && !mcts ? 'step' : chosenUnit;
  // null: not chosen, so breakpoint hits while there are any (what a person who set a breakpoint jumps to), else
  // backtracks
  const [chosenKind, setJumpKind] = useState<JumpKind | null>(null);
  const hits = useHitJump();
  const jumpKind: JumpKind = chosenKind ?? (hits.count > 0 ? 'hit' : 'backtrack');
  const shown = viewSeq ?? lastSeq;
  // playback ends at the end of the log (and stops if the person goes live)
  const playing = playRequested && viewSeq !== null;
  const target = (kind: JumpTarget, direction: 1 | -1) => moments.jump(shown, kind, direction);
  const canJump = (direction: 1 | -1) =>
    jumpKind === 'hit' ? hits.can(direction) : target(jumpKind, direction) !== null;
  const jumpBy = (direction: 1 | -1) => {
    if (jumpKind === 'hit') hits.jump(direction);
    else jumpTo(jumpKind, direction);
  };

  const go = (seq: number | null) => {
    store.getState().setView({ followLive: false });
    store.getState().seek(seq);
  };
  const jumpTo = (kind: JumpTarget, direction: 1 | -1) => {
    const seq = target(kind, direction);
    if (seq !== null) go(seq);
  };

  usePlayback(playing, { speed, unit, moments, go, stop: () => setPlaying(false) });

  const atEnd = viewSeq === null;
  return (
    <div className={styles.timeline} data-testid="timeline">
      <div className={styles.controls}>
        <button
          className="btn btn-sm"
          onClick={() => jumpTo('step', -1)}
          disabled={target('step', -1) === null}
          title="Back one search step ([)"
        >
          |◀
        </button>
        <button
          className="btn btn-sm"
          onClick={() => jumpTo('event', -1)}
          disabled={target('event', -1) === null}
          title="Back one event (,)"
          data-testid="timeline-back"
        >
          ◀
        </button>
        <PlayControls
          playing={playing}
          onPlay={() => {
            if (!playing && atEnd) go(0);
            setPlaying(!playing);
          }}
          disabled={lastSeq === 0}
          unit={unit}
          onUnit={setUnit}
          mcts={mcts}
          speed={speed}
          onSpeed={setSpeed}
        />
        <button
          className="btn btn-sm"
          onClick={() => jumpTo('event', 1)}
          disabled={target('event', 1) === null}
          title="Forward one event (.)"
          data-testid="timeline-forward"
        >
          ▶
        </button>
        <button
          className="btn btn-sm"
          onClick={() => jumpTo('step', 1)}
          disabled={target('step', 1) === null}
          title="Forward one search step (])"
        >
          ▶|
        </button>
        <span className={styles.divider} />
        {mcts && <IterationControls target={(direction) => target('iteration', direction)} go={go} />}
        <JumpControls
          jumpKind={jumpKind}
          onJumpKind={setJumpKind}
          hitsOnOffer={hits.count > 0 || jumpKind === 'hit'}
          canJump={canJump}
          jumpBy={jumpBy}
        />
        <span className={styles.position} data-testid="timeline-position">
          step <b>{shown}</b> / {lastSeq}
          {loadingHistory && (
            <span className={styles.loading} data-testid="timeline-loading">
              {' '}
              · loading history…
            </span>
          )}
        </span>
        {!atEnd && (
          <button
            className="btn btn-sm btn-primary"
            onClick={() => {
              setPlaying(false);
              go(null);
            }}
            data-testid="back-to-live"
          >
            {live ? 'Back to live' : 'Go to end'}
          </button>
        )}
      </div>
      <HitMarks />
      <DiscussionMarks />
      <TimelineMarks>
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
      </TimelineMarks>
    </div>
  );
}

/** Play and pause, and what one tick shows at which speed. */
function PlayControls({
  playing,
  onPlay,
  disabled,
  unit,
  onUnit,
  mcts,
  speed,
  onSpeed,
}: {
  playing: boolean;
  onPlay: () => void;
  disabled: boolean;
  unit: PlayUnit;
  onUnit: (unit: PlayUnit) => void;
  mcts: boolean;
  speed: number;
  onSpeed: (speed: number) => void;
}) {
  return (
    <>
      <button
        className="btn btn-sm"
        onClick={onPlay}
        disabled={disabled}
        title={playing ? 'Pause playback' : 'Play from here'}
        data-testid="timeline-play"
      >
        {playing ? '❚❚' : '▶ play'}
      </button>
      <select
        className={`input ${styles.select}`}
        value={unit}
        onChange={(e) => onUnit(e.target.value as PlayUnit)}
        aria-label="Play by"
        title="What one tick of playback shows: a whole search step (one expansion), an MCTS iteration or one event"
        data-testid="play-unit"
      >
        <option value="step">by step</option>
        {mcts && <option value="iteration">by iteration</option>}
        <option value="event">by event</option>
      </select>
      <select
        className={`input ${styles.select}`}
        value={speed}
        onChange={(e) => onSpeed(Number(e.target.value))}
        aria-label="Playback speed"
      >
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}x
          </option>
        ))}
      </select>
    </>
  );
}

/** The jumps: previous and next moment of the chosen kind (a breakpoint hit, a backtrack, a prune, a command). */
function JumpControls({
  jumpKind,
  onJumpKind,
  hitsOnOffer,
  canJump,
  jumpBy,
}: {
  jumpKind: JumpKind;
  onJumpKind: (kind: JumpKind) => void;
  hitsOnOffer: boolean;
  canJump: (direction: 1 | -1) => boolean;
  jumpBy: (direction: 1 | -1) => void;
}) {
  const jumpWords = jumpKind === 'hit' ? 'breakpoint hit' : jumpKind;
  return (
    <>
      <button
        className={`btn btn-sm${jumpKind === 'hit' ? ` ${styles.hitNav}` : ''}`}
        onClick={() => jumpBy(-1)}
        disabled={!canJump(-1)}
        title={`Previous ${jumpWords}${jumpKind === 'hit' ? ' (Shift F8)' : ''}`}
        aria-label={`Previous ${jumpWords}`}
        data-testid="jump-prev"
      >
        ⤺
      </button>
      <select
        className={`input ${styles.select}`}
        value={jumpKind}
        onChange={(e) => onJumpKind(e.target.value as JumpKind)}
        aria-label="Jump to"
        data-testid="jump-kind"
      >
        {hitsOnOffer && <option value="hit">breakpoint hit</option>}
        <option value="backtrack">backtrack</option>
        <option value="prune">prune</option>
        <option value="command">person's command</option>
      </select>
      <button
        className={`btn btn-sm${jumpKind === 'hit' ? ` ${styles.hitNav}` : ''}`}
        onClick={() => jumpBy(1)}
        disabled={!canJump(1)}
        title={`Next ${jumpWords}${jumpKind === 'hit' ? ' (F8)' : ''}`}
        aria-label={`Next ${jumpWords}`}
        data-testid="jump-next"
      >
        ⤻
      </button>
    </>
  );
}
