/**
 * The tree the whole-tree views draw (the canvas's layout, the overview, a branch's and a summary's totals), with
 * the marks the log puts on it (the best node, the last backtrack: they change with it), paced while a live run
 * grows. Each of those walks the whole tree, 80-150 ms at 18k nodes on a 2-core machine, and a live run changes the
 * tree every frame: rebuilt per change they took every frame, and React, which restarts a deferred render whenever
 * its input changes again, finished them only when they had waited long enough to be run at once. So a change that
 * only grows the live tree is shown at most every PACE_PER_BUILD times the last build's cost (at most MAX_PACE_MS):
 * a small tree still every frame, a big one a few times a second. Anything else (a seek, back to live, the history's
 * pages) is shown at once.
 * Not responsible for deferring (the views' hooks do) nor for measuring a build (the canvas model memo reports it).
 */
import { createStore } from 'zustand/vanilla';
import type { ThoughtTree } from '../engine/index';
import type { RunStore, RunViewState } from './run-store';
import { realTimerClock, type TimerClock } from './timer-clock';

/** The tree and what the log marks on it (the best node, the last backtrack), as the run store had them. */
export interface ShownTree extends Pick<RunViewState, 'bestNodeId' | 'lastBacktrack'> {
  tree: ThoughtTree;
  /** The run store's version when it was taken: the signal for the whole-tree views. */
  version: number;
}

/** How many builds' worth of time a growing tree waits between two shown versions (3 of 4 frames left free). */
export const PACE_PER_BUILD = 4;
/** The longest a grown tree waits to be shown. */
export const MAX_PACE_MS = 1000;

export function createShownTree(run: RunStore, clock: TimerClock = realTimerClock) {
  const take = (): ShownTree => {
    const { tree, version, bestNodeId, lastBacktrack } = run.getState();
    return { tree, version, bestNodeId, lastBacktrack };
  };
  const shown = createStore<ShownTree>()(take);
  let buildMs = 0;
  let shownAt = -Infinity;
  let timer: unknown = null;

  const show = () => {
    timer = null;
    shownAt = clock.now();
    shown.setState(take(), true);
  };
  const follow = () => {
    const s = run.getState();
    const held = shown.getState();
    if (s.tree === held.tree && s.version === held.version) return;
    // the live tree grows in place: same object, the live end on screen
    const grown = s.tree === held.tree && s.viewSeq === null;
    if (!grown) {
      if (timer !== null) clock.clearTimeout(timer);
      show();
      return;
    }
    if (timer !== null) return; // the version due is taken when the timer fires
    const wait = shownAt + Math.min(MAX_PACE_MS, PACE_PER_BUILD * buildMs) - clock.now();
    if (wait <= 0) show();
    else timer = clock.setTimeout(show, wait);
  };

  return {
    ...shown,
    /** Follows the run store until the returned stop is called (a page's effect). */
    start(): () => void {
      follow();
      const unsubscribe = run.subscribe(follow);
      return () => {
        unsubscribe();
        if (timer !== null) clock.clearTimeout(timer);
        timer = null;
      };
    },
    /** What the last whole-tree build took, in ms: the pace follows it. */
    reportBuild(ms: number) {
      buildMs = ms;
    },
  };
}

export type ShownTreeStore = ReturnType<typeof createShownTree>;
