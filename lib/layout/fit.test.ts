import { describe, expect, it } from 'vitest';
import { CARD_MIN_ZOOM, levelOf } from './lod';
import { CARD_HEIGHT, CARD_WIDTH } from './place';
import { boxOf, cardInView, fitViewport, FOLLOW_GLIDE_MS, followViewport, revealViewport, viewportFor } from './fit';

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

describe('followViewport (follow live)', () => {
  const pane = { width: 1280, height: 720 };
  const centreOf = (at: { x: number; y: number }, v: { x: number; y: number; zoom: number }) => ({
    x: (at.x + CARD_WIDTH / 2) * v.zoom + v.x,
    y: (at.y + CARD_HEIGHT / 2) * v.zoom + v.y,
  });

  it('stays while the activity is in view at a zoom where pills read', () => {
    const view = { x: 0, y: 0, zoom: 0.8 };
    const at = { x: 400, y: 300 };
    expect(cardInView(at, view, pane.width, pane.height)).toBe(true);
    expect(followViewport(at, view, pane.width, pane.height)).toBeNull();
  });

  it('glides to an activity just out of view, keeping the zoom, and centres it', () => {
    const view = { x: 0, y: 0, zoom: 0.8 };
    const at = { x: 1700, y: 300 }; // its centre ~1464 px: off the right edge, about half a pane from the middle
    expect(cardInView(at, view, pane.width, pane.height)).toBe(false);
    const move = followViewport(at, view, pane.width, pane.height);
    expect(move).toMatchObject({ zoom: 0.8, duration: FOLLOW_GLIDE_MS });
    const c = centreOf(at, move!);
    expect(c.x).toBeCloseTo(pane.width / 2);
    expect(c.y).toBeCloseTo(pane.height / 2);
  });

  it('cuts to an activity panes away instead of flying over the cards between', () => {
    const view = { x: 0, y: 0, zoom: 0.8 };
    const move = followViewport({ x: 400_000, y: 300 }, view, pane.width, pane.height);
    expect(move).toMatchObject({ zoom: 0.8, duration: 0 });
  });

  it('zooms in to where pills read from the far fit, in one cut', () => {
    // a tree of thousands fitted at 0.001: the activity is in view but too small to read
    const view = { x: 600, y: 300, zoom: 0.001 };
    const at = { x: 20_000, y: 2_000 };
    expect(cardInView(at, view, pane.width, pane.height)).toBe(true);
    const move = followViewport(at, view, pane.width, pane.height);
    expect(move).toMatchObject({ zoom: 0.55, duration: 0 });
    expect(centreOf(at, move!).x).toBeCloseTo(pane.width / 2);
  });
});

describe('revealViewport (a node selected from elsewhere)', () => {
  const pane = { width: 1280, height: 720 };

  it('stays while the card is in view, whatever the zoom, and keeps the person’s zoom when it moves', () => {
    expect(revealViewport({ x: 400, y: 300 }, { x: 0, y: 0, zoom: 0.2 }, pane.width, pane.height)).toBeNull();
    const near = revealViewport({ x: 1700, y: 300 }, { x: 0, y: 0, zoom: 1 }, pane.width, pane.height);
    expect(near).toMatchObject({ zoom: 1, duration: FOLLOW_GLIDE_MS });
    const far = revealViewport({ x: 90_000, y: 300 }, { x: 0, y: 0, zoom: 1 }, pane.width, pane.height);
    expect(far).toMatchObject({ zoom: 1, duration: 0 });
  });
});
