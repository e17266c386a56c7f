import { describe, expect, it } from 'vitest';
import { CARD_HEIGHT, CARD_WIDTH, createTreePlacer, placeLayers, placeTree } from './place';

const spec = { r: ['a', 'b'], a: ['a1', 'a2'], b: [], a1: [], a2: [] };

const overlaps = (ps: { x: number; y: number }[]) =>
  ps.some((p, i) => ps.some((q, j) => i < j && Math.abs(p.x - q.x) < CARD_WIDTH && Math.abs(p.y - q.y) < CARD_HEIGHT));

describe('placeTree', () => {
  it('puts depths in rows top to bottom, or in columns left to right, with no two boxes overlapping', () => {
    const tb = placeTree(spec, 'r', 'tb').positions;
    expect(tb.get('a')?.y).toBeGreaterThan(tb.get('r')?.y as number);
    expect(tb.get('a')?.y).toBe(tb.get('b')?.y);
    expect(tb.get('a')?.x).toBeLessThan(tb.get('b')?.x as number);
    expect(overlaps([...tb.values()])).toBe(false);

    const lr = placeTree(spec, 'r', 'lr').positions;
    expect(lr.get('a')?.x).toBeGreaterThanOrEqual((lr.get('r')?.x as number) + CARD_WIDTH);
    expect(lr.get('a')?.x).toBe(lr.get('b')?.x);
    expect(lr.get('a1')?.x).toBeGreaterThan(lr.get('a')?.x as number);
    expect(lr.get('a')?.y).toBeLessThan(lr.get('b')?.y as number);
    expect(overlaps([...lr.values()])).toBe(false);
  });

  it('gives bounds that hold every box', () => {
    const { positions, bounds } = placeTree(spec, 'r', 'lr');
    for (const p of positions.values()) {
      expect(p.x).toBeGreaterThanOrEqual(bounds.x);
      expect(p.y + CARD_HEIGHT).toBeLessThanOrEqual(bounds.y + bounds.height);
    }
  });
});

describe('placeLayers', () => {
  it('makes each depth one column sorted by score, best first, unscored last', () => {
    const { positions } = placeLayers(
      [
        { id: 'r', depth: 0, score: null },
        { id: 'x', depth: 1, score: 0.4 },
        { id: 'fold', depth: 1, score: null },
        { id: 'y', depth: 1, score: 0.9 },
        { id: 'z', depth: 2, score: 0.5 },
      ],
      'lr',
    );
    const column = ['y', 'x', 'fold'].map((id) => positions.get(id));
    expect(new Set(column.map((p) => p?.x)).size).toBe(1);
    expect(column.map((p) => p?.y)).toEqual([...column.map((p) => p?.y as number)].sort((a, b) => a - b));
    expect(positions.get('z')?.x).toBeGreaterThan(positions.get('y')?.x as number);
    expect(overlaps([...positions.values()])).toBe(false);
  });

  it('in top-to-bottom layers, puts the best of a depth on the left', () => {
    const { positions } = placeLayers(
      [
        { id: 'a', depth: 1, score: 0.2 },
        { id: 'b', depth: 1, score: 0.8 },
      ],
      'tb',
    );
    expect(positions.get('b')?.x).toBeLessThan(positions.get('a')?.x as number);
    expect(positions.get('a')?.y).toBe(positions.get('b')?.y);
  });

  it('wraps a long layer into several columns, best first, every depth still right of the one before', () => {
    const items = [
      { id: 'r', depth: 0, score: null },
      ...Array.from({ length: 100 }, (_, i) => ({ id: `a${i}`, depth: 1, score: i / 100 })),
      ...Array.from({ length: 10 }, (_, i) => ({ id: `b${i}`, depth: 2, score: i / 10 })),
    ];
    const { positions, bounds } = placeLayers(items, 'lr');
    expect(overlaps([...positions.values()])).toBe(false);
    const a = items.filter((i) => i.depth === 1).map((i) => positions.get(i.id) as { x: number; y: number });
    expect(new Set(a.map((p) => p.x)).size).toBeGreaterThan(1); // wrapped
    expect(bounds.height).toBeLessThan(100 * CARD_HEIGHT); // not a strip
    const best = positions.get('a99') as { x: number; y: number };
    expect(a.every((p) => p.x >= best.x)).toBe(true); // the best is in the first column, at the top
    expect(a.every((p) => p.x > best.x || p.y >= best.y)).toBe(true);
    const rightmostA = Math.max(...a.map((p) => p.x));
    for (let i = 0; i < 10; i++) expect(positions.get(`b${i}`)?.x).toBeGreaterThan(rightmostA + CARD_WIDTH - 1);
  });
});

describe('createTreePlacer', () => {
  const copy = (s: Record<string, string[]>) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, [...v]]));

  it('gives back the last placement for the same shape built anew, and the same positions as placeTree', () => {
    const place = createTreePlacer();
    const first = place(copy(spec), 'r', 'tb');
    expect(first.positions).toEqual(placeTree(spec, 'r', 'tb').positions);
    expect(place(copy(spec), 'r', 'tb')).toBe(first);
  });

  it('places anew when a child is added, moved or taken away, or the root or orientation changes', () => {
    const place = createTreePlacer();
    const first = place(copy(spec), 'r', 'tb');
    const added = place({ ...copy(spec), b: ['b1'], b1: [] }, 'r', 'tb');
    expect(added).not.toBe(first);
    expect(added.positions.has('b1')).toBe(true);
    const reordered = place({ ...copy(spec), b: ['b1'], b1: [], a: ['a2', 'a1'] }, 'r', 'tb');
    expect(reordered.positions.get('a2')?.x).toBeLessThan(reordered.positions.get('a1')?.x as number);
    const fewer = place(copy(spec), 'r', 'tb');
    expect(fewer.positions.has('b1')).toBe(false);
    expect(place(copy(spec), 'r', 'lr')).not.toBe(fewer);
    expect(place({ a: ['a1', 'a2'], a1: [], a2: [] }, 'a', 'lr').positions.has('r')).toBe(false);
  });
});
