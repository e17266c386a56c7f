'use client';
// The canvas's elements and layout, derived where they are read: the canvas draws them, the overview outlines the
// view with the layout, the framing (fit.ts) frames from it. Each reader derives it from the same inputs (the run
// store, the page view's collapse choice, the canvas prefs) through the page's memo, so it is built once per tree
// version and view, and never copied into a store.
// Not responsible for building (lib/layout/canvas-elements.ts) nor for keeping element objects stable (RunCanvas).
import { useCallback, useDeferredValue, useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { canvasViewOf, type CanvasLayout, type CanvasModel } from '@/lib/layout/index';
import { useCanvasModelMemo, usePageView, usePageViewApi } from '../page/PageViewContext';
import { useRunStore, useRunStoreApi, useShownTreeApi } from '../page/RunStoreContext';
import { readCanvasPrefs, useCanvasPrefs } from './prefs';

/**
 * The canvas's model for what is on screen; re-renders the caller when the tree or a view choice changes. Paced while
 * a big live tree grows and deferred (as useShownTree, from the same paced tree): the build walks the whole tree, so
 * it follows the step in a render React may interrupt, and the model says which seq it was built for.
 */
export function useCanvasModel(): CanvasModel {
  const memo = useCanvasModelMemo();
  const shown = useStore(useShownTreeApi());
  const choices = useRunStore(
    useShallow((s) => ({
      selectedNodeId: s.selectedNodeId,
      foldDeadEnds: s.foldDeadEnds,
      showDropped: s.showDropped,
      openFolds: s.openFolds,
    })),
  );
  const run = useDeferredValue(useMemo(() => ({ ...shown, ...choices }), [shown, choices]));
  const collapseChoice = usePageView((s) => s.collapseChoice);
  const prefs = useCanvasPrefs();
  return memo(run.tree, run.version, canvasViewOf(run, collapseChoice, prefs));
}

/** The layout as of now (the paced tree's, as drawn), for a handler or an effect (no re-render when it changes). */
export function useCanvasLayoutNow(): () => CanvasLayout {
  const memo = useCanvasModelMemo();
  const runStore = useRunStoreApi();
  const shownTree = useShownTreeApi();
  const pageView = usePageViewApi();
  return useCallback(() => {
    const shown = shownTree.getState();
    const view = canvasViewOf(
      { ...runStore.getState(), ...shown },
      pageView.getState().collapseChoice,
      readCanvasPrefs(),
    );
    return memo(shown.tree, shown.version, view).layout;
  }, [memo, runStore, shownTree, pageView]);
}
