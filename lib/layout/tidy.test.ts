import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT, layoutTree, type LayoutNode } from './tidy';

function treeOf(spec: Record<string, string[]>): Record<string, LayoutNode> {
  const nodes: Record<string, LayoutNode> = {};
  for (const [id, childIds] of Object.entries(spec)) nodes[id] = { id, childIds };
  for (const kids of Object.values(spec)) for (const k of kids) nodes[k] ??= { id: k, childIds: [] };
  return nodes;
}

describe('layoutTree', () => {
  const spec = { r: ['a', 'b', 'c'], a: ['a1', 'a2'], c: ['c1'] };

  it('gives the same positions for the same tree', () => {
    expect([...layoutTree(treeOf(spec), 'r')]).toEqual([...layoutTree(treeOf(spec), 'r')]);
  });

  it("puts each node on its depth's row", () => {
    const rows = DEFAULT_LAYOUT.nodeHeight + DEFAULT_LAYOUT.verticalGap;
    const p = layoutTree(treeOf(spec), 'r');
    expect(p.get('r')?.y).toBe(0);
    expect(p.get('b')?.y).toBe(rows);
    expect(p.get('a2')?.y).toBe(2 * rows);
  });

  it('keeps siblings in creation order, left to right, without overlap', () => {
    const p = layoutTree(treeOf(spec), 'r');
    const xs = ['a', 'b', 'c'].map((id) => p.get(id)?.x ?? NaN);
    expect(xs).toEqual([...xs].sort((x, y) => x - y));
    const row2 = ['a1', 'a2', 'c1'].map((id) => p.get(id)?.x ?? NaN);
    for (let i = 1; i < row2.length; i++) {
      expect((row2[i] as number) - (row2[i - 1] as number)).toBeGreaterThanOrEqual(DEFAULT_LAYOUT.nodeWidth);
    }
  });

  it('leaves hidden subtrees out', () => {
    const p = layoutTree(treeOf(spec), 'r', DEFAULT_LAYOUT, (id) => id !== 'a');
    expect(p.has('a')).toBe(false);
    expect(p.has('a1')).toBe(false);
    expect(p.has('b')).toBe(true);
  });
});
