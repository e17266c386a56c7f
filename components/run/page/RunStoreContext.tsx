'use client';
// One run store per run page, handed down by context with the tree its whole-tree views draw
// (lib/store/shown-tree.ts: the store's tree, paced while a big live run grows); components read them through
// selectors only.
import { createContext, useContext, useDeferredValue, useEffect, useMemo, type ReactNode } from 'react';
import { useStore } from 'zustand';
import {
  createShownTree,
  type RunStore,
  type RunViewState,
  type ShownTree,
  type ShownTreeStore,
} from '@/lib/store/index';

const RunStoreContext = createContext<{ store: RunStore; shown: ShownTreeStore } | null>(null);

export function RunStoreProvider({ store, children }: { store: RunStore; children: ReactNode }) {
  const value = useMemo(() => ({ store, shown: createShownTree(store) }), [store]);
  useEffect(() => value.shown.start(), [value]);
  return <RunStoreContext.Provider value={value}>{children}</RunStoreContext.Provider>;
}

function useRunStoreContext() {
  const value = useContext(RunStoreContext);
  if (!value) throw new Error('useRunStore must be used inside a RunStoreProvider');
  return value;
}

export function useRunStoreApi(): RunStore {
  return useRunStoreContext().store;
}

/** The paced tree's store, for the canvas model (which also reports what a build cost to it). */
export function useShownTreeApi(): ShownTreeStore {
  return useRunStoreContext().shown;
}

export function useRunStore<T>(selector: (state: RunViewState) => T): T {
  return useStore(useRunStoreApi(), selector);
}

/**
 * The tree on screen and its version, as the whole-tree views draw it (the canvas, the overview, a branch's totals):
 * paced while a big live tree grows (shown-tree.ts), and deferred, so a seek or a new event first updates what is
 * cheap (the timeline, the header, the inspector) in the frame after the input, and the views that walk the whole
 * tree follow in a render React may interrupt when the next step comes (a held arrow key, playback). At 100k events
 * one such build is ~100 ms (npm run bench:ui).
 */
export function useShownTree(): ShownTree {
  return useDeferredValue(useStore(useShownTreeApi()));
}
