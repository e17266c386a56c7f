'use client';
/**
 * How a person likes the canvas laid out (orientation, tree or layer view), remembered in localStorage across runs
 * and tabs. Read with useSyncExternalStore, so the server render and the first client render agree (defaults) and
 * the saved choice applies right after.
 * Not responsible for per-page view state (run-store.ts, page-view.ts).
 */
import { useSyncExternalStore } from 'react';
import type { LayoutMode, Orientation } from '@/lib/layout/index';

export interface CanvasPrefs {
  orientation: Orientation;
  mode: LayoutMode;
}

const KEY = 'arborist.canvas';
const DEFAULTS: CanvasPrefs = { orientation: 'tb', mode: 'tree' };
const listeners = new Set<() => void>();
let cached: { raw: string | null; prefs: CanvasPrefs } = { raw: null, prefs: DEFAULTS };

/** The prefs now, for code outside a render (an event handler, an effect). */
export function readCanvasPrefs(): CanvasPrefs {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(KEY);
  } catch {
    return cached.prefs; // storage blocked: keep what this tab chose
  }
  if (raw === cached.raw) return cached.prefs;
  let parsed: Partial<CanvasPrefs> = {};
  try {
    parsed = raw ? (JSON.parse(raw) as Partial<CanvasPrefs>) : {};
  } catch {
    parsed = {};
  }
  const prefs: CanvasPrefs = {
    orientation: parsed.orientation === 'lr' ? 'lr' : 'tb',
    mode: parsed.mode === 'layers' ? 'layers' : 'tree',
  };
  cached = { raw, prefs };
  return prefs;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function useCanvasPrefs(): CanvasPrefs {
  return useSyncExternalStore(subscribe, readCanvasPrefs, () => DEFAULTS);
}

export function setCanvasPrefs(patch: Partial<CanvasPrefs>) {
  const next = { ...readCanvasPrefs(), ...patch };
  const raw = JSON.stringify(next);
  try {
    window.localStorage.setItem(KEY, raw);
    cached = { raw, prefs: next };
  } catch {
    cached = { raw: cached.raw, prefs: next };
  }
  listeners.forEach((l) => l());
}
