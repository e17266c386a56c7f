'use client';
// One page-view store per run page (search, the canvas's layout, focus requests), handed down by context beside
// the run store; components read it through selectors only.
import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { PageViewState, PageViewStore } from '@/lib/store/index';

const PageViewContext = createContext<PageViewStore | null>(null);

export function PageViewProvider({ store, children }: { store: PageViewStore; children: ReactNode }) {
  return <PageViewContext.Provider value={store}>{children}</PageViewContext.Provider>;
}

export function usePageViewApi(): PageViewStore {
  const store = useContext(PageViewContext);
  if (!store) throw new Error('usePageView must be used inside a PageViewProvider');
  return store;
}

export function usePageView<T>(selector: (state: PageViewState) => T): T {
  return useStore(usePageViewApi(), selector);
}
