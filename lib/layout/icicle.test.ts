import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { fold, type ThoughtTree } from '../engine/index';
import type { CanvasLayout } from './canvas-layout';
import {
  computeIcicle,
  forEachDrawnCell,
  framedIds,
  icicleCellAt,
  icicleNeighbour,
  MAX_FRAMED,
  nodesByItem,
  subtreeCells,
  viewExtent,
} from './icicle';

/** A tree from a parent list: node i is `n${i}`, parents[i] its parent's index (null for the root, index 0). */
function treeOf(parents: readonly (number | null)[]): ThoughtTree {
  const events: ExplorationEvent[] = parents.map((p, i) => ({
    runId: 'r',
    seq: i + 1,
    ts: 0,
    type: 'node.created',
    payload: {
      nodeId: `n${i}`,
      parentId: p === null ? null : `n${p}`,
      branch: p === null ? null : { thought: `t${i}`, proposedAction: { type: 'response', content: '' } },
      score: null,
    },
  }));
  return fold(events);
}

//        n0
//   n1        n2    n3
// n4 n5 n6    n7
//    n8
const SMALL = treeOf([null, 0, 0, 0, 1, 1, 1, 2, 5]);

/** A bushy random tree (a fixed linear congruential sequence, so the test is the same every time). */
function randomTree(size: number): ThoughtTree {
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const parents: (number | null)[] = [null];
  for (let i = 1; i < size; i++) parents.push(Math.floor(Math.pow(rand(), 0.6) * i));
  return treeOf(parents);
}

const at = (layout: ReturnType<typeof computeIcicle>, id: string) => layout.indexOf.get(id)!;

describe('computeIcicle', () => {
  it('gives the root the whole width and each node a row at its depth', () => {
    const layout = computeIcicle(SMALL);
    expect(layout.ids.length).toBe(9);
    const root = at(layout, 'n0');
    expect([layout.x0[root], layout.x1[root], layout.depth[root]]).toEqual([0, 1, 0]);
    for (const id of SMALL.nodeOrder) expect(layout.depth[at(layout, id)]).toBe(SMALL.nodes[id]!.depth);
    expect(layout.rows.map((r) => r.length)).toEqual([1, 3, 4, 1]);
    expect(layout.size[root]).toBe(9);
    expect(layout.size[at(layout, 'n1')]).toBe(5);
  });

  it("tiles every parent's span exactly with its children, in child order, widths proportional to subtree size", () => {
    const tree = randomTree(3000);
    const layout = computeIcicle(tree);
    expect(layout.ids.length).toBe(3000);
    for (const id of tree.nodeOrder) {
      const node = tree.nodes[id]!;
      if (node.childIds.length === 0) continue;
      const p = at(layout, id);
      const kids = node.childIds.map((c) => at(layout, c));
      expect(layout.x0[kids[0]!]).toBe(layout.x0[p]);
      expect(layout.x1[kids.at(-1)!]).toBe(layout.x1[p]);
      for (let k = 1; k < kids.length; k++) expect(layout.x0[kids[k]!]).toBe(layout.x1[kids[k - 1]!]);
      const span = layout.x1[p]! - layout.x0[p]!;
      for (const k of kids) {
        const width = layout.x1[k]! - layout.x0[k]!;
        expect(width / span).toBeCloseTo(layout.size[k]! / (layout.size[p]! - 1), 9);
      }
    }
    // rows are sorted and disjoint: what the binary searches rely on
    for (const row of layout.rows)
      for (let k = 1; k < row.length; k++) expect(layout.x0[row[k]!]).toBeGreaterThanOrEqual(layout.x1[row[k - 1]!]!);
  });

  it('keeps a subtree contiguous in the cell numbering', () => {
    const layout = computeIcicle(SMALL);
    const { from, to } = subtreeCells(layout, at(layout, 'n1'));
    expect(layout.ids.slice(from, to).sort()).toEqual(['n1', 'n4', 'n5', 'n6', 'n8']);
  });

  it('handles an empty tree and a 20k-deep chain', () => {
    expect(computeIcicle(fold([])).ids).toEqual([]);
    const chain = computeIcicle(treeOf([null, ...Array.from({ length: 20_000 }, (_, i) => i)]));
    expect(chain.rows.length).toBe(20_001);
    expect(chain.x1[chain.indexOf.get('n20000')!]).toBe(1);
  });
});

describe('icicleCellAt', () => {
  it('returns the node under a point of a row, and nothing where a row has no cell', () => {
    const layout = computeIcicle(SMALL);
    // n1 holds 5 of the root's 8 descendants: [0, 5/8); n2 [5/8, 7/8); n3 [7/8, 1)
    expect(layout.ids[icicleCellAt(layout, 0.1, 1)]).toBe('n1');
    expect(layout.ids[icicleCellAt(layout, 0.7, 1)]).toBe('n2');
    expect(layout.ids[icicleCellAt(layout, 0.95, 1)]).toBe('n3');
    expect(layout.ids[icicleCellAt(layout, 0.3, 3)]).toBe('n8'); // under n5, the middle of n1's children
    expect(icicleCellAt(layout, 0.95, 2)).toBe(-1); // n3 has no children
    expect(icicleCellAt(layout, 0.5, 9)).toBe(-1);
    expect(icicleCellAt(layout, 1, 0)).toBe(-1);
  });

  it('agrees with a linear scan everywhere on a big tree', () => {
    const layout = computeIcicle(randomTree(5000));
    for (let d = 0; d < layout.rows.length; d++) {
      for (let k = 0; k < 50; k++) {
        const u = (k + 0.37) / 50;
        const linear = Array.from(layout.rows[d]!).find((c) => layout.x0[c]! <= u && u < layout.x1[c]!) ?? -1;
        expect(icicleCellAt(layout, u, d)).toBe(linear);
      }
    }
  });
});

describe('forEachDrawnCell', () => {
  it('draws every cell of a row that is wide enough, one call per cell', () => {
    const layout = computeIcicle(SMALL);
    const drawn: string[] = [];
    forEachDrawnCell(layout, 1, 800, (cell) => drawn.push(layout.ids[cell]!));
    expect(drawn).toEqual(['n1', 'n2', 'n3']);
  });

  it('culls sub-pixel cells to one sliver per pixel, yet leaves no pixel of a present subtree blank', () => {
    const layout = computeIcicle(randomTree(20_000));
    const width = 200;
    for (let d = 0; d < layout.rows.length; d++) {
      const row = layout.rows[d]!;
      const painted = new Set<number>();
      let calls = 0;
      let lastEnd = -Infinity;
      forEachDrawnCell(layout, d, width, (_cell, px0, px1) => {
        calls++;
        expect(px0).toBeGreaterThanOrEqual(lastEnd); // left to right, never overdrawn
        lastEnd = px1;
        for (let px = Math.floor(px0); px < Math.ceil(px1); px++) painted.add(px);
      });
      expect(calls).toBeLessThanOrEqual(Math.min(row.length, width + 1));
      // every pixel column a cell of this row touches is painted
      for (const c of row) expect(painted.has(Math.min(width - 1, Math.floor(layout.x0[c]! * width)))).toBe(true);
    }
  });
});

describe('viewExtent', () => {
  const layout = computeIcicle(SMALL);
  // a canvas showing n0 at the top, its children below; n4..n8 folded into one item under n1
  const canvas: CanvasLayout = {
    positions: new Map([
      ['n0', { x: 0, y: 0 }],
      ['n1', { x: -300, y: 200 }],
      ['n2', { x: 0, y: 200 }],
      ['n3', { x: 300, y: 200 }],
      ['fold', { x: -300, y: 400 }],
    ]),
    itemOf: new Map([
      ['n0', 'n0'],
      ['n1', 'n1'],
      ['n2', 'n2'],
      ['n3', 'n3'],
      ...['n4', 'n5', 'n6', 'n7', 'n8'].map((id) => [id, 'fold'] as [string, string]),
    ]),
    itemWidth: 200,
    itemHeight: 100,
  };
  const byItem = nodesByItem(canvas);

  it('spans, row by row, the cells of the nodes in view', () => {
    // flow x in [-50, 550), y in [150, 350): n2 and n3
    expect(viewExtent(layout, canvas, byItem, { tx: 50, ty: -150, zoom: 1, width: 600, height: 200 })).toEqual({
      d0: 1,
      x0: [5 / 8],
      x1: [1],
    });
    // flow x in [-50, 250), y in [-50, 350): the root (the whole width) and n2 (its part of the row below)
    expect(viewExtent(layout, canvas, byItem, { tx: 50, ty: 50, zoom: 1, width: 300, height: 400 })).toEqual({
      d0: 0,
      x0: [0, 5 / 8],
      x1: [1, 7 / 8],
    });
  });

  it('counts every node a visible fold stands for, and gives nothing when the view is empty', () => {
    // zoomed out 2x around the fold only: flow x in [-400, 0), y in [380, 580)
    expect(viewExtent(layout, canvas, byItem, { tx: 200, ty: -190, zoom: 0.5, width: 200, height: 100 })).toEqual({
      d0: 2,
      // row 2: n4..n6 under n1 and n7 under n2; row 3: n8, the only child of n5 ([5/32, 15/32) of n1's [0, 5/8))
      x0: [0, 5 / 32],
      x1: [7 / 8, 15 / 32],
    });
    expect(viewExtent(layout, canvas, byItem, { tx: 5000, ty: 0, zoom: 1, width: 100, height: 100 })).toBeNull();
  });
});

describe('icicleNeighbour', () => {
  it('moves up to the parent, down to the first child, and sideways along the row', () => {
    const layout = computeIcicle(SMALL);
    const cell = (id: string) => at(layout, id);
    const id = (c: number) => (c < 0 ? null : layout.ids[c]);
    expect(id(icicleNeighbour(layout, cell('n5'), 'up'))).toBe('n1');
    expect(id(icicleNeighbour(layout, cell('n1'), 'down'))).toBe('n4');
    expect(id(icicleNeighbour(layout, cell('n4'), 'down'))).toBeNull();
    expect(id(icicleNeighbour(layout, cell('n5'), 'left'))).toBe('n4');
    expect(id(icicleNeighbour(layout, cell('n6'), 'right'))).toBe('n7');
    expect(id(icicleNeighbour(layout, cell('n0'), 'up'))).toBeNull();
    expect(id(icicleNeighbour(layout, cell('n3'), 'right'))).toBeNull();
  });
});

describe('framedIds', () => {
  it('frames a small subtree whole', () => {
    const layout = computeIcicle(SMALL);
    expect(framedIds(layout, SMALL, at(layout, 'n1')).sort()).toEqual(['n1', 'n4', 'n5', 'n6', 'n8']);
  });

  it('frames a subtree too big to read as the node and its children', () => {
    // n0 with n1, and under n1 a chain longer than MAX_FRAMED
    const parents: (number | null)[] = [null, 0];
    for (let i = 2; i < MAX_FRAMED + 10; i++) parents.push(i - 1);
    const tree = treeOf(parents);
    const layout = computeIcicle(tree);
    expect(framedIds(layout, tree, at(layout, 'n1'))).toEqual(['n1', 'n2']);
  });
});
