'use client';
// One run store per run page, handed down by context; components read it through selectors only.
import { createContext, useContext, useDeferredValue, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import type { RunStore, RunViewState } from '@/lib/store/index';

const RunStoreContext = createContext<RunStore | null>(null);

export function RunStoreProvider({ store, children }: { store: RunStore; children: ReactNode }) {
  return <RunStoreContext.Provider value={store}>{children}</RunStoreContext.Provider>;
}

export function useRunStoreApi(): RunStore {
  const store = useContext(RunStoreContext);
  if (!store) throw new Error('useRunStore must be used inside a RunStoreProvider');
  return store;
}

export function useRunStore<T>(selector: (state: RunViewState) => T): T {
  return useStore(useRunStoreApi(), selector);
}

/**
 * The tree on screen and its version, as the whole-tree views draw it (the canvas, the overview, a branch's totals):
 * deferred, so a seek or a new event first updates what is cheap (the timeline, the header, the inspector) in the
 * frame after the input, and the views that walk the whole tree follow in a render React may interrupt when the
 * next step comes (a held arrow key, playback). At 100k events one such build is ~100 ms (npm run bench:ui).
 */
export function useShownTree(): { tree: RunViewState['tree']; version: number } {
  const current = useRunStore(useShallow((s) => ({ tree: s.tree, version: s.version })));
  return useDeferredValue(current);
}
