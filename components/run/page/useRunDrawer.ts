'use client';
// The run page's side drawer state (open, tab, width), remembered in localStorage across runs and reloads, and
// whether the window is wide enough for the drawer to dock beside the canvas. Both are external stores, read with
// useSyncExternalStore (the server renders the defaults: open, docked). Not responsible for drawing the drawer.
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import {
  clampDrawerWidth,
  DEFAULT_DRAWER,
  DRAWER_DOCK_MIN_VIEWPORT,
  DRAWER_STORAGE_KEY,
  type DrawerState,
  type DrawerTab,
  isDrawerOpen,
  parseDrawer,
  serializeDrawer,
} from '@/lib/store/index';

/** The ids the keyboard and the drawer share to move focus. */
export const DRAWER_ID = 'run-drawer';
export const DRAWER_TOGGLE_ID = 'run-drawer-toggle';
export const drawerPanelId = (tab: DrawerTab) => `run-drawer-panel-${tab}`;

const listeners = new Set<() => void>();
let cached: { raw: string | null; state: DrawerState } = { raw: null, state: DEFAULT_DRAWER };
/** Where the state lives when localStorage refuses writes (private modes, quotas). */
let memoryRaw: string | null = null;

function readRaw(): string | null {
  try {
    return window.localStorage.getItem(DRAWER_STORAGE_KEY);
  } catch {
    return null; // storage disabled: the defaults, and changes last as long as the page
  }
}

function snapshot(): DrawerState {
  const raw = memoryRaw ?? readRaw();
  if (raw !== cached.raw) cached = { raw, state: parseDrawer(raw) };
  return cached.state;
}

function write(next: DrawerState) {
  const raw = serializeDrawer(next);
  try {
    window.localStorage.setItem(DRAWER_STORAGE_KEY, raw);
    memoryRaw = null;
  } catch {
    memoryRaw = raw;
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // another tab of the app changed it
  const onStorage = (event: StorageEvent) => {
    if (event.key === DRAWER_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

const DOCK_QUERY = `(min-width: ${DRAWER_DOCK_MIN_VIEWPORT}px)`;

function subscribeDock(listener: () => void) {
  const query = window.matchMedia(DOCK_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

export interface RunDrawer {
  open: boolean;
  /** The person has opened or closed it (otherwise it follows the window). */
  chosen: boolean;
  tab: DrawerTab;
  /** null: the default width for the window. */
  width: number | null;
  /** The window is wide enough for the drawer to sit beside the canvas; otherwise it overlays it. */
  docked: boolean;
  setOpen: (open: boolean) => void;
  toggle: () => void;
  /** Opens the drawer on this tab. */
  show: (tab: DrawerTab) => void;
  setWidth: (width: number | null) => void;
}

export function useRunDrawer(): RunDrawer {
  const state = useSyncExternalStore(subscribe, snapshot, () => DEFAULT_DRAWER);
  const docked = useSyncExternalStore(
    subscribeDock,
    () => window.matchMedia(DOCK_QUERY).matches,
    () => true,
  );
  const open = isDrawerOpen(state, docked);
  // each action reads the newest state, so a key pressed twice in one frame toggles twice
  const update = useCallback((change: (s: DrawerState, isOpen: boolean) => Partial<DrawerState>) => {
    const current = snapshot();
    const isOpen = isDrawerOpen(current, window.matchMedia(DOCK_QUERY).matches);
    write({ ...current, ...change(current, isOpen) });
  }, []);
  const setOpen = useCallback((next: boolean) => update(() => ({ open: next })), [update]);
  const toggle = useCallback(() => update((_, isOpen) => ({ open: !isOpen })), [update]);
  const show = useCallback((tab: DrawerTab) => update(() => ({ open: true, tab })), [update]);
  const setWidth = useCallback(
    (width: number | null) => update(() => ({ width: width === null ? null : clampDrawerWidth(width) })),
    [update],
  );
  return useMemo(
    () => ({
      open,
      chosen: state.open !== null,
      tab: state.tab,
      width: state.width,
      docked,
      setOpen,
      toggle,
      show,
      setWidth,
    }),
    [open, state.open, state.tab, state.width, docked, setOpen, toggle, show, setWidth],
  );
}
