'use client';
// The run's breakpoints as the page works with them: the list to show, whether this person may change it and why
// not, and one way to change it. A running run's list is the live tree's (a change sends the whole list to the
// server, shown at once until the log has it); once the run has ended, the list is the page's own query over the
// history (the store's local list, started from the run's own, never sent).
// Also the jump to the next or previous hit, shared by the timeline, the panel and the keys.
// Not responsible for the rules (lib/store breakpointsBlock) nor for the hits (the run store).
import { useCallback, useState } from 'react';
import type { Breakpoint } from '@/lib/contract/breakpoints';
import {
  adjacentHit,
  breakpointsBlock,
  nextHitOf,
  disableAll,
  type HitMark,
  runToHere,
  type RunViewState,
} from '@/lib/store/index';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import type { RunCommands } from '../steering/useRunCommands';
import { useSteering } from '../steering/useSteering';

export interface BreakpointsView {
  /** live: the run's own list, sent; query: an ended run's list, kept on this page. */
  mode: 'live' | 'query';
  list: readonly Breakpoint[];
  /** Why the list cannot be changed here, or null. */
  readOnly: string | null;
  /** Replaces the list; false when it was refused (the reason is in `error`). */
  change: (list: readonly Breakpoint[]) => Promise<boolean>;
  /** "Run to here" on a node, resuming a paused run. */
  runTo: (nodeId: string) => Promise<void>;
  /** Every breakpoint off, then resume. */
  resumeWithout: () => Promise<void>;
  error: string | null;
}

export function useBreakpoints(commands: RunCommands): BreakpointsView {
  const store = useRunStoreApi();
  const ended = useRunStore((s) => s.liveStatus === 'finished');
  const liveList = useRunStore((s) => s.liveBreakpoints);
  const local = useRunStore((s) => s.localBreakpoints);
  const steering = useSteering();
  // a list sent and not yet in the log: shown until the live list changes (breakpoints.set arrives) or it fails
  const [sent, setSent] = useState<{ basis: readonly Breakpoint[]; list: readonly Breakpoint[] } | null>(null);
  const mode = ended ? 'query' : 'live';
  const list = ended ? (local ?? liveList) : sent && sent.basis === liveList ? sent.list : liveList;
  const readOnly = ended ? null : breakpointsBlock(steering.context);
  const { setBreakpoints, resume } = commands;

  const change = useCallback(
    async (next: readonly Breakpoint[]) => {
      if (ended) {
        store.getState().setLocalBreakpoints(next);
        return true;
      }
      if (readOnly) return false;
      setSent({ basis: store.getState().liveBreakpoints, list: next });
      try {
        await setBreakpoints(next);
        return true;
      } catch {
        setSent(null);
        return false;
      }
    },
    [ended, readOnly, store, setBreakpoints],
  );

  const status = steering.context.status;
  const runTo = useCallback(
    async (nodeId: string) => {
      if (await change(runToHere(list, nodeId))) if (status === 'paused') resume();
    },
    [change, list, status, resume],
  );
  const resumeWithout = useCallback(async () => {
    if (await change(disableAll(list))) resume();
  }, [change, list, resume]);

  return { mode, list, readOnly, change, runTo, resumeWithout, error: ended ? null : commands.breakpointsError };
}

/** Shows the step of a hit with its node selected (the timeline, the panel, the keys). */
export function showHit(state: RunViewState, mark: HitMark) {
  state.setView({ followLive: false });
  state.seek(mark.seq);
  if (mark.hit.nodeId) state.select(mark.hit.nodeId);
}

/** The next (+1) or previous (-1) hit from the step on screen, shown; false when there is none that way. */
export function jumpToHit(state: RunViewState, direction: 1 | -1): boolean {
  const mark = adjacentHit(state.hits.marks, state.viewSeq ?? state.lastSeq, direction);
  if (mark) showHit(state, mark);
  return mark !== null;
}

/**
 * Moves the step on screen to the next (+1) or previous (-1) hit and selects its node; `can` says whether there is
 * one that way from the step on screen.
 */
export function useHitJump() {
  const store = useRunStoreApi();
  const marks = useRunStore((s) => s.hits.marks);
  const shown = useRunStore((s) => s.viewSeq ?? s.lastSeq);
  const go = useCallback((mark: HitMark) => showHit(store.getState(), mark), [store]);
  const jump = useCallback((direction: 1 | -1) => void jumpToHit(store.getState(), direction), [store]);
  const nextOf = useCallback(
    (breakpointId: string) => {
      const state = store.getState();
      const mark = nextHitOf(state.hits.marks, state.viewSeq ?? state.lastSeq, breakpointId);
      if (mark) showHit(state, mark);
    },
    [store],
  );
  return {
    jump,
    go,
    nextOf,
    can: (direction: 1 | -1) => adjacentHit(marks, shown, direction) !== null,
    count: marks.length,
  };
}
