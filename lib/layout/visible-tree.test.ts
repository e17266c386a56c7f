import { describe, expect, it } from 'vitest';
import { ThoughtTreeExecutor } from '../engine/executor';
import type { ExplorationEvent } from '../engine/events';
import { fold } from '../engine/tree';
import type { ThoughtTree } from '../engine/types';
import { getTaskEntry } from '../tasks/index';
import { createSimulatedModel } from '../tasks/simulated-model';
import { DEFAULT_LAYOUT, layoutTree } from './tidy';
import { deadFoldId, droppedFoldId, visibleTree } from './visible-tree';

async function game(seed: number): Promise<{ tree: ThoughtTree; events: ExplorationEvent[] }> {
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor().explore(
    { name: 't', model: createSimulatedModel({ seed }) },
    '4 9 10 13',
    {
      task: getTaskEntry('game24').task,
      onEvent: (e) => events.push(e),
    },
  );
  return { tree: result.tree, events };
}

const none = new Set<string>();

describe('visibleTree', () => {
  it('folds the failed and pruned children of each parent into one summary, counting what it hides', async () => {
    const { tree } = await game(3);
    const dead = Object.values(tree.nodes).filter((n) => n.status === 'failed' && n.parentId);
    expect(dead.length).toBeGreaterThan(0);
    const v = visibleTree(tree, { foldDeadEnds: true, showDropped: false, openFolds: none });
    for (const node of dead) expect(v.items.has(node.id)).toBe(false);
    const fold0 = v.items.get(deadFoldId(dead[0]?.parentId as string));
    expect(fold0).toMatchObject({ kind: 'dead-fold' });
    const everything = visibleTree(tree, { foldDeadEnds: false, showDropped: false, openFolds: none });
    expect([...everything.items.values()].filter((i) => i.kind === 'node')).toHaveLength(tree.nodeOrder.length);
  });

  it('opens a fold on request, and by itself when the selection is inside it', async () => {
    const { tree } = await game(3);
    const deadNode = Object.values(tree.nodes).find((n) => n.status === 'failed' && n.parentId);
    const parent = deadNode?.parentId as string;
    const opened = visibleTree(tree, {
      foldDeadEnds: true,
      showDropped: false,
      openFolds: new Set([deadFoldId(parent)]),
    });
    expect(opened.items.has(deadNode?.id as string)).toBe(true);
    const revealed = visibleTree(tree, {
      foldDeadEnds: true,
      showDropped: false,
      openFolds: none,
      reveal: deadNode?.id,
    });
    expect(revealed.items.has(deadNode?.id as string)).toBe(true);
  });

  it('shows dropped candidates as one fold per parent, or one ghost each when opened', async () => {
    const { tree } = await game(3);
    const parent = Object.values(tree.nodes).find((n) => n.dropped.length > 1) as ThoughtTree['nodes'][string];
    const closed = visibleTree(tree, { foldDeadEnds: true, showDropped: true, openFolds: none });
    expect(closed.items.get(droppedFoldId(parent.id))).toMatchObject({
      kind: 'dropped-fold',
      count: parent.dropped.length,
    });
    const open = visibleTree(tree, {
      foldDeadEnds: true,
      showDropped: true,
      openFolds: new Set([droppedFoldId(parent.id)]),
    });
    expect([...open.items.values()].filter((i) => i.kind === 'dropped' && i.parentId === parent.id)).toHaveLength(
      parent.dropped.length,
    );
  });
});

describe('layout as the tree grows', () => {
  it('never moves a node to another row and never reorders a row, event after event', async () => {
    const { events } = await game(7);
    let previous: Map<string, { x: number; y: number }> | null = null;
    for (let i = 1; i <= events.length; i++) {
      const tree = fold(events.slice(0, i));
      const v = visibleTree(tree, { foldDeadEnds: false, showDropped: false, openFolds: none });
      if (!v.rootId) continue;
      const nodes = Object.fromEntries(Object.entries(v.childIds).map(([id, childIds]) => [id, { id, childIds }]));
      const positions = layoutTree(nodes, v.rootId, DEFAULT_LAYOUT);
      if (previous) {
        for (const [id, p] of previous) {
          const now = positions.get(id);
          if (!now) continue;
          expect(now.y).toBe(p.y); // a node's row is its depth, for good
        }
        const rowOrder = (m: Map<string, { x: number; y: number }>, y: number) =>
          [...m]
            .filter(([id, p]) => p.y === y && previous?.has(id))
            .sort((a, b) => a[1].x - b[1].x)
            .map(([id]) => id);
        for (const y of new Set([...previous.values()].map((p) => p.y))) {
          expect(rowOrder(positions, y)).toEqual(rowOrder(previous, y));
        }
      }
      previous = positions;
    }
  });
});
