import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DRAWER,
  DRAWER_MAX_WIDTH,
  DRAWER_MIN_WIDTH,
  isDrawerOpen,
  parseDrawer,
  serializeDrawer,
  widthFromDrag,
} from './run-drawer';

describe('parseDrawer', () => {
  it('gives the default for nothing stored, broken JSON or another shape', () => {
    expect(parseDrawer(null)).toEqual(DEFAULT_DRAWER);
    expect(parseDrawer('{oops')).toEqual(DEFAULT_DRAWER);
    expect(parseDrawer('42')).toEqual(DEFAULT_DRAWER);
    expect(parseDrawer('null')).toEqual(DEFAULT_DRAWER);
  });

  it('reads back what was written', () => {
    const state = { open: false, tab: 'events', width: 512 } as const;
    expect(parseDrawer(serializeDrawer(state))).toEqual(state);
    const breakpoints = { open: true, tab: 'breakpoints', width: null } as const;
    expect(parseDrawer(serializeDrawer(breakpoints))).toEqual(breakpoints);
    const discussion = { open: true, tab: 'discussion', width: 400 } as const;
    expect(parseDrawer(serializeDrawer(discussion))).toEqual(discussion);
  });

  it('keeps a stored width inside the bounds and drops a value that is not a width', () => {
    expect(parseDrawer('{"width": 20}').width).toBe(DRAWER_MIN_WIDTH);
    expect(parseDrawer('{"width": 99999}').width).toBe(DRAWER_MAX_WIDTH);
    expect(parseDrawer('{"width": "wide"}').width).toBeNull();
    expect(parseDrawer('{"tab": "somewhere", "open": "yes"}')).toEqual(DEFAULT_DRAWER);
  });
});

describe('isDrawerOpen', () => {
  it('follows the window until a person chooses, then their choice', () => {
    expect(isDrawerOpen(DEFAULT_DRAWER, true)).toBe(true);
    expect(isDrawerOpen(DEFAULT_DRAWER, false)).toBe(false);
    expect(isDrawerOpen({ ...DEFAULT_DRAWER, open: false }, true)).toBe(false);
    expect(isDrawerOpen({ ...DEFAULT_DRAWER, open: true }, false)).toBe(true);
  });
});

describe('widthFromDrag', () => {
  it('grows the drawer as its left edge is dragged left, within the bounds', () => {
    expect(widthFromDrag(1280, 880)).toBe(400);
    expect(widthFromDrag(1280, 1200)).toBe(DRAWER_MIN_WIDTH);
    expect(widthFromDrag(3000, 0)).toBe(DRAWER_MAX_WIDTH);
  });
});
