import { describe, expect, it } from 'vitest';
import { pickInWindow, windowAround, windowServes } from './element-window';
import { viewRect } from './fit';

describe('pickInWindow', () => {
  // a root over a child in view and one 50,000 px to the right; a grandchild far below the right one
  const positions = new Map([
    ['root', { x: 0, y: 0 }],
    ['near', { x: 100, y: 300 }],
    ['right', { x: 50_000, y: 300 }],
    ['deep', { x: 50_000, y: 9_000 }],
  ]);
  const links = [
    ['root', 'near'],
    ['root', 'right'],
    ['right', 'deep'],
  ] as const;
  const window = { x: -500, y: -500, width: 2_000, height: 1_500 };

  it('picks what is in the window, in the layout’s order, and not what is far from it', () => {
    const picked = pickInWindow(positions, links, window);
    expect(picked.links).toEqual([
      ['root', 'near'],
      ['root', 'right'],
    ]);
    expect(picked.itemIds).toEqual(['root', 'near', 'right']);
  });

  it('keeps a line that crosses the window between two ends outside it, with both ends', () => {
    // a view between root and right, above neither: only the line's box meets it
    const between = { x: 20_000, y: 0, width: 2_000, height: 1_000 };
    const picked = pickInWindow(positions, links, between);
    expect(picked.links).toEqual([['root', 'right']]);
    expect(picked.itemIds).toEqual(['root', 'right']);
  });

  it('picks everything when the window holds the whole tree', () => {
    const all = pickInWindow(positions, links, { x: -1, y: -1, width: 60_000, height: 10_000 });
    expect(all.itemIds).toHaveLength(4);
    expect(all.links).toHaveLength(3);
  });
});

describe('the window around the view', () => {
  const view = viewRect({ x: -1_000, y: -500, zoom: 0.5 }, 1280, 720);

  it('is what the pane shows in flow coordinates, grown by a pane on every side', () => {
    expect(view).toEqual({ x: 2_000, y: 1_000, width: 2_560, height: 1_440 });
    expect(windowAround(view)).toEqual({ x: -560, y: -440, width: 7_680, height: 4_320 });
  });

  it('serves a pan that stays inside it, and not one that leaves it', () => {
    const window = windowAround(view);
    expect(windowServes(window, { ...view, x: view.x + view.width * 0.9 })).toBe(true);
    expect(windowServes(window, { ...view, x: view.x + view.width * 1.1 })).toBe(false);
    expect(windowServes(window, { ...view, y: view.y - view.height * 1.1 })).toBe(false);
  });

  it('is narrowed again once the view has zoomed far into it, and widened when it zooms out', () => {
    const window = windowAround(view);
    const zoomedIn = (factor: number) =>
      viewRect({ x: -1_000 * factor, y: -500 * factor, zoom: 0.5 * factor }, 1280, 720);
    expect(windowServes(window, zoomedIn(1.5))).toBe(true);
    expect(windowServes(window, zoomedIn(2.5))).toBe(false);
    expect(windowServes(window, viewRect({ x: 0, y: 0, zoom: 0.1 }, 1280, 720))).toBe(false);
  });
});
