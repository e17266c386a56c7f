/**
 * The run page's side drawer as a person left it (open or not, which tab, how wide), kept in localStorage so the
 * page opens the way they work. Pure: parsing, clamping and the defaults for a window width; no React, no DOM.
 * Not responsible for reading or writing localStorage (components/run/page/useRunDrawer.ts) nor for drawing the drawer.
 */

export type DrawerTab = 'inspector' | 'events' | 'breakpoints' | 'discussion';

const TABS: readonly DrawerTab[] = ['inspector', 'events', 'breakpoints', 'discussion'];

export interface DrawerState {
  /** null: never chosen, so open where the drawer docks beside the canvas and closed where it would cover it. */
  open: boolean | null;
  tab: DrawerTab;
  /** Width in CSS pixels; null: the default for the window (CSS computes it). */
  width: number | null;
}

export const DRAWER_STORAGE_KEY = 'arborist.run-drawer';
/** Below this window width the open drawer overlays the canvas instead of taking columns from it. */
export const DRAWER_DOCK_MIN_VIEWPORT = 1000;
export const DRAWER_MIN_WIDTH = 300;
export const DRAWER_MAX_WIDTH = 1000;

export const DEFAULT_DRAWER: DrawerState = { open: null, tab: 'inspector', width: null };

export function clampDrawerWidth(width: number): number {
  return Math.round(Math.min(DRAWER_MAX_WIDTH, Math.max(DRAWER_MIN_WIDTH, width)));
}

/** Whatever is stored (nothing, another version's shape, a hand-edited value) becomes a valid state. */
export function parseDrawer(raw: string | null): DrawerState {
  if (!raw) return DEFAULT_DRAWER;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return DEFAULT_DRAWER;
  }
  if (!value || typeof value !== 'object') return DEFAULT_DRAWER;
  const v = value as Record<string, unknown>;
  return {
    open: typeof v.open === 'boolean' ? v.open : null,
    tab: TABS.find((tab) => tab === v.tab) ?? 'inspector',
    width: typeof v.width === 'number' && Number.isFinite(v.width) ? clampDrawerWidth(v.width) : null,
  };
}

export function serializeDrawer(state: DrawerState): string {
  return JSON.stringify(state);
}

/** Is the drawer open now: the person's choice, else open where it docks (a wide window). */
export function isDrawerOpen(state: DrawerState, docks: boolean): boolean {
  return state.open ?? docks;
}

/** The width a drag to clientX gives, for a drawer whose right edge is at rightEdge (it grows leftwards). */
export function widthFromDrag(rightEdge: number, clientX: number): number {
  return clampDrawerWidth(rightEdge - clientX);
}
