import { describe, expect, it, vi } from 'vitest';
import { createEmptyTree } from '../engine/index';
import { buildCanvasElements } from './canvas-elements';
import { AUTO_COLLAPSE_ABOVE, canvasViewOf, createCanvasModelMemo, type CanvasViewInputs } from './canvas-layout';
import { CARD_HEIGHT, CARD_WIDTH } from './place';

const PREFS = { orientation: 'tb', mode: 'tree' } as const;

function inputs(nodes = 0): CanvasViewInputs {
  const tree = createEmptyTree('run');
  for (let i = 0; i < nodes; i++) tree.nodeOrder.push(`n${i}`);
  return {
    tree,
    selectedNodeId: null,
    bestNodeId: null,
    lastBacktrack: null,
    foldDeadEnds: true,
    showDropped: false,
    openFolds: new Set(),
  };
}

describe('canvasViewOf', () => {
  it('collapses automatically only trees over AUTO_COLLAPSE_ABOVE nodes, unless the person chose', () => {
    expect(canvasViewOf(inputs(AUTO_COLLAPSE_ABOVE), null, PREFS).autoCollapse).toBe(false);
    expect(canvasViewOf(inputs(AUTO_COLLAPSE_ABOVE + 1), null, PREFS).autoCollapse).toBe(true);
    expect(canvasViewOf(inputs(AUTO_COLLAPSE_ABOVE + 1), false, PREFS).autoCollapse).toBe(false);
    expect(canvasViewOf(inputs(1), true, PREFS).autoCollapse).toBe(true);
  });
});

describe('createCanvasModelMemo', () => {
  it('gives back the same model for the same tree version and an equal view, and builds anew otherwise', () => {
    const build = vi.fn(buildCanvasElements);
    const memo = createCanvasModelMemo(build);
    const run = inputs();
    const first = memo(run.tree, 1, canvasViewOf(run, null, PREFS));
    // a view rebuilt field for field equal (as every render does) is the same view
    expect(memo(run.tree, 1, canvasViewOf(run, null, PREFS))).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    // the tree changed in place: its version says so
    expect(memo(run.tree, 2, canvasViewOf(run, null, PREFS))).not.toBe(first);
    // a view choice changed
    memo(run.tree, 2, canvasViewOf({ ...run, selectedNodeId: 'n0' }, null, PREFS));
    memo(run.tree, 2, canvasViewOf({ ...run, selectedNodeId: 'n0' }, null, { ...PREFS, orientation: 'lr' }));
    expect(build).toHaveBeenCalledTimes(4);
  });

  it('keeps the last two builds, as React renders the committed version and the deferred one in turn', () => {
    const build = vi.fn(buildCanvasElements);
    const built: number[] = [];
    const memo = createCanvasModelMemo(build, (ms) => built.push(ms));
    const run = inputs();
    const view = () => canvasViewOf(run, null, PREFS);
    const v1 = memo(run.tree, 1, view());
    const v2 = memo(run.tree, 2, view());
    // an interrupted deferred render of 2, the urgent render of 1 again, then 2 once more: no build
    expect(memo(run.tree, 1, view())).toBe(v1);
    expect(memo(run.tree, 2, view())).toBe(v2);
    expect(build).toHaveBeenCalledTimes(2);
    memo(run.tree, 3, view());
    expect(memo(run.tree, 1, view())).not.toBe(v1); // the oldest was let go
    expect(build).toHaveBeenCalledTimes(4);
    // each build says what it took
    expect(built).toHaveLength(4);
    expect(built.every((ms) => ms >= 0)).toBe(true);
  });

  it("carries the layout the overview and the framing read: the build's positions and itemOf, a card's box", () => {
    const memo = createCanvasModelMemo();
    const run = inputs();
    const model = memo(run.tree, 1, canvasViewOf(run, null, PREFS));
    expect(model.layout.positions).toBe(model.positions);
    expect(model.layout.itemOf).toBe(model.itemOf);
    expect(model.layout).toMatchObject({ itemWidth: CARD_WIDTH, itemHeight: CARD_HEIGHT });
  });
});
