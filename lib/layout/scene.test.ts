import { describe, expect, it } from 'vitest';
import { findBestNode, pathTo } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { placeTree } from './place';
import { focusNodes, visibleTree } from './visible-tree';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import { buildScene, sceneItemAt, itemInRect } from './scene';

async function sceneOf(autoCollapse: boolean) {
  const { tree } = await new ThoughtTreeExecutor({ beamWidth: 3, branchFactor: 5, confidenceThreshold: 0 }).explore(
    { name: 't', model: createSimulatedModel({ seed: 2 }) },
    '4 9 10 13',
    { task: getTaskEntry('game24').task },
  );
  const best = findBestNode(tree)?.id ?? null;
  const visible = visibleTree(tree, {
    foldDeadEnds: true,
    showDropped: false,
    openFolds: new Set(),
    autoCollapse,
    focus: focusNodes(tree, null, best),
  });
  const { positions } = placeTree(visible.childIds, visible.rootId as string, 'tb');
  const bestPath = new Set(best ? pathTo(tree, best).map((n) => n.id) : []);
  const scene = buildScene({ ...visible, tree, positions, orientation: 'tb', bestPath, fadeUnrun: false });
  return { tree, scene, bestPath };
}

describe('buildScene', () => {
  it('stands for every node of the tree: shown ones as items, folded or collapsed ones as cells', async () => {
    for (const collapse of [false, true]) {
      const { tree, scene } = await sceneOf(collapse);
      const shown = scene.items.filter((i) => i.nodeId).length;
      const cells = scene.items.reduce((sum, i) => sum + i.cells.length, 0);
      expect(shown + cells).toBe(tree.nodeOrder.length);
    }
  });

  it('marks the best path, and finds the item under a point', async () => {
    const { scene, bestPath } = await sceneOf(true);
    expect(scene.items.filter((i) => i.best).map((i) => i.nodeId)).toEqual(
      [...bestPath].filter((id) => scene.items.some((i) => i.nodeId === id)),
    );
    const target = scene.items.at(-1);
    expect(sceneItemAt(scene, (target?.x ?? 0) + 5, (target?.y ?? 0) + 5)?.id).toBe(target?.id);
    expect(sceneItemAt(scene, -1e6, -1e6)).toBeNull();
    expect(scene.items.filter((i) => itemInRect(i, { x: -1e6, y: -1e6, width: 1, height: 1 }))).toEqual([]);
  });
});
