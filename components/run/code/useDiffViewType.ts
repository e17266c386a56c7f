'use client';
// Which way the diff views show a change, unified or split, remembered in localStorage across runs and reloads, and
// the same in every diff view of the page (one external store, read with useSyncExternalStore; the server renders
// unified). Not responsible for drawing the diff (DiffView.tsx).
import { useCallback, useSyncExternalStore } from 'react';
import type { ViewType } from 'react-diff-view';

const STORAGE_KEY = 'arborist.diffView';
const listeners = new Set<() => void>();
/** Where the choice lives when localStorage refuses writes (private modes, quotas). */
let memory: ViewType | null = null;

function snapshot(): ViewType {
  if (memory) return memory;
  try {
    return window.localStorage.getItem(STORAGE_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    return 'unified';
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // another tab of the app changed it
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useDiffViewType(): [ViewType, (next: ViewType) => void] {
  const viewType = useSyncExternalStore(subscribe, snapshot, () => 'unified' as const);
  const set = useCallback((next: ViewType) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
      memory = null;
    } catch {
      memory = next;
    }
    for (const listener of listeners) listener();
  }, []);
  return [viewType, set];
}
