'use client';
// One page-view store per run page (search, the collapse choice, focus requests), handed down by context beside
// the run store, with the page's canvas-model memo (lib/layout/canvas-layout.ts: the canvas's layout, derived once
// per tree version and view for every reader). Components read the store through selectors only.
import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createCanvasModelMemo, type CanvasModelMemo } from '@/lib/layout/index';
import type { PageViewState, PageViewStore } from '@/lib/store/index';
import { useShownTreeApi } from './RunStoreContext';

const PageViewContext = createContext<{ store: PageViewStore; canvasModel: CanvasModelMemo } | null>(null);

export function PageViewProvider({ store, children }: { store: PageViewStore; children: ReactNode }) {
  const shownTree = useShownTreeApi();
  // the pace of a growing tree follows what a build of it costs
  const [canvasModel] = useState(() => createCanvasModelMemo(undefined, (ms) => shownTree.reportBuild(ms)));
  const value = useMemo(() => ({ store, canvasModel }), [store, canvasModel]);
  return <PageViewContext.Provider value={value}>{children}</PageViewContext.Provider>;
}

function usePageViewContext() {
  const value = useContext(PageViewContext);
  if (!value) throw new Error('usePageView must be used inside a PageViewProvider');
  return value;
}

export function usePageViewApi(): PageViewStore {
  return usePageViewContext().store;
}

/** The page's memo of the canvas's elements and layout (read through canvas/useCanvasModel.ts). */
export function useCanvasModelMemo(): CanvasModelMemo {
  return usePageViewContext().canvasModel;
}

export function usePageView<T>(selector: (state: PageViewState) => T): T {
  return useStore(usePageViewApi(), selector);
}
