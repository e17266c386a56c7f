'use client';
// The canvas's elements and layout, derived where they are read: the canvas draws them, the overview outlines the
// view with the layout, the framing (fit.ts) frames from it. Each reader derives it from the same inputs (the run
// store, the page view's collapse choice, the canvas prefs) through the page's memo, so it is built once per tree
// version and view, and never copied into a store.
// Not responsible for building (lib/layout/canvas-elements.ts) nor for keeping element objects stable (RunCanvas).
import { useCallback, useDeferredValue } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { canvasViewOf, type CanvasLayout, type CanvasModel } from '@/lib/layout/index';
import { useCanvasModelMemo, usePageView, usePageViewApi } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi } from '../page/RunStoreContext';
import { readCanvasPrefs, useCanvasPrefs } from './prefs';

/**
 * The canvas's model for what is on screen; re-renders the caller when the tree or a view choice changes. Deferred
 * (as useShownTree): the build walks the whole tree, so it follows the step in a render React may interrupt, and
 * the model says which seq it was built for.
 */
export function useCanvasModel(): CanvasModel {
  const memo = useCanvasModelMemo();
  const current = useRunStore(
    useShallow((s) => ({
      version: s.version,
      tree: s.tree,
      selectedNodeId: s.selectedNodeId,
      bestNodeId: s.bestNodeId,
      lastBacktrack: s.lastBacktrack,
      foldDeadEnds: s.foldDeadEnds,
      showDropped: s.showDropped,
      openFolds: s.openFolds,
    })),
  );
  const run = useDeferredValue(current);
  const collapseChoice = usePageView((s) => s.collapseChoice);
  const prefs = useCanvasPrefs();
  return memo(run.tree, run.version, canvasViewOf(run, collapseChoice, prefs));
}

/** The layout as of now, for an event handler or an effect (no re-render when it changes). */
export function useCanvasLayoutNow(): () => CanvasLayout {
  const memo = useCanvasModelMemo();
  const runStore = useRunStoreApi();
  const pageView = usePageViewApi();
  return useCallback(() => {
    const run = runStore.getState();
    return memo(run.tree, run.version, canvasViewOf(run, pageView.getState().collapseChoice, readCanvasPrefs())).layout;
  }, [memo, runStore, pageView]);
}
