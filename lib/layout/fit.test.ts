import { describe, expect, it } from 'vitest';
import { CARD_MIN_ZOOM, levelOf } from './lod';
import { boxOf, fitViewport, viewportFor } from './fit';

describe('viewportFor', () => {
  it('centres the box in the pane below the toolbar, never zooming past the maximum', () => {
    const v = viewportFor({ x: 0, y: 0, width: 1000, height: 100 }, 1080, 400);
    expect(v.zoom).toBeCloseTo(1);
    expect(v.x + 500 * v.zoom).toBeCloseTo(56 + 500); // the box's centre at the padded pane's centre
    const far = viewportFor({ x: -50_000, y: 0, width: 100_000, height: 500 }, 1080, 400);
    expect(far.zoom).toBeCloseTo(1000 / 100_000);
    expect(far.x + 0 * far.zoom).toBeCloseTo(56 + 500);
    expect(viewportFor({ x: 0, y: 0, width: 10, height: 10 }, 1080, 400).zoom).toBe(1);
  });
});

describe('fitViewport (the whole tree)', () => {
  it('shows a tree as full cards when it fits so once the side margins are given up, not as 27 px pills', () => {
    // a five-level tree a little too tall for card zoom within the margins: 660 px in 620 px between them
    const box = { x: 0, y: 0, width: 400, height: 660 };
    expect(levelOf(viewportFor(box, 900, 700).zoom)).toBe('pill');
    const v = fitViewport(box, 900, 700);
    expect(levelOf(v.zoom)).toBe('card');
    expect(v.zoom).toBeCloseTo(CARD_MIN_ZOOM);
    // still clear of the toolbar at the top, and whole
    expect(v.y).toBeGreaterThanOrEqual(56);
    expect(v.y + 660 * v.zoom).toBeLessThanOrEqual(700);
  });

  it('keeps the margins when cards would not fit anyway', () => {
    const box = { x: 0, y: 0, width: 4000, height: 600 };
    expect(fitViewport(box, 900, 700)).toEqual(viewportFor(box, 900, 700));
  });
});

describe('boxOf', () => {
  const layout = {
    positions: new Map([
      ['a', { x: 0, y: 0 }],
      ['b', { x: 300, y: 200 }],
      ['more:a', { x: 600, y: 200 }],
    ]),
    itemOf: new Map([
      ['a', 'a'],
      ['b', 'b'],
      ['c', 'more:a'],
    ]),
    itemWidth: 100,
    itemHeight: 50,
  };
  it('frames the items standing for the nodes, a hidden node by its summary', () => {
    expect(boxOf(layout, ['a', 'b'])).toEqual({ x: 0, y: 0, width: 400, height: 250 });
    expect(boxOf(layout, ['c'])).toEqual({ x: 600, y: 200, width: 100, height: 50 });
    expect(boxOf(layout, null)).toEqual({ x: 0, y: 0, width: 700, height: 250 });
    expect(boxOf(layout, ['nowhere'])).toBeNull();
  });
});
