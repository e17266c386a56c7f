'use client';
// One run store per run page, handed down by context; components read it through selectors only.
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
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
