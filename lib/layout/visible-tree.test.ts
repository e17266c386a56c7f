import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { comesBefore, fold, selectNext, type ThoughtTree } from '../engine/index';
import { externalSearchLog, followEvent } from '../engine/testing';
import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import { DEFAULT_LAYOUT, layoutTree } from './tidy';
import { deadFoldId, droppedFoldId, FRONTIER_IN_FOCUS, focusNodes, summaryId, visibleTree } from './visible-tree';

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

/** The nodes a view shows plus the ones its summaries hide: the whole tree when nothing is lost. */
function shownPlusHidden(v: ReturnType<typeof visibleTree>): number {
  const items = [...v.items.values()];
  return items.reduce((sum, i) => sum + (i.kind === 'node' ? 1 : i.kind === 'summary' ? i.hidden : 0), 0);
}

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

describe("a search's own prunes", () => {
  /** The external log (c pruned by the search, b by alice) with a child under c, pruned with it. */
  function external(): ThoughtTree {
    const log = externalSearchLog();
    const at = log.findIndex((e) => e.type === 'node.pruned');
    const child = followEvent(log.slice(0, at), 'node.created', {
      nodeId: 'c1',
      parentId: 'c',
      branch: { thought: 'c1', proposedAction: { type: 'response', content: 'c1' } },
      score: null,
    });
    const events = [...log.slice(0, at), child, ...log.slice(at)].map((e, i) => ({ ...e, seq: i + 1 }));
    return fold(events as ExplorationEvent[]);
  }

  it("are not dead ends: they fold with the parent's candidates pruned by score, a person's prune stays a dead end", () => {
    const tree = external();
    const v = visibleTree(tree, { foldDeadEnds: true, showDropped: true, openFolds: none });
    expect(v.items.get(deadFoldId('n0'))).toMatchObject({ kind: 'dead-fold', nodeIds: ['b'] });
    expect(v.items.get(droppedFoldId('n0'))).toMatchObject({
      kind: 'dropped-fold',
      count: 1,
      nodeIds: ['c'],
      hidden: 2,
    });
    expect(v.items.has('c')).toBe(false);
    expect(v.items.has('c1')).toBe(false);
  });

  it('opens in place with their subtrees (not folded again below), and hide with the candidates pruned by score', () => {
    const tree = external();
    const opened = visibleTree(tree, {
      foldDeadEnds: true,
      showDropped: true,
      openFolds: new Set([droppedFoldId('n0')]),
    });
    expect(opened.items.get('c')).toMatchObject({ kind: 'node' });
    expect(opened.childIds.c).toEqual(['c1']);
    const hidden = visibleTree(tree, { foldDeadEnds: true, showDropped: false, openFolds: none });
    expect(hidden.items.has('c')).toBe(false);
    expect(hidden.items.has(droppedFoldId('n0'))).toBe(false);
    // the selection is always shown
    const revealed = visibleTree(tree, { foldDeadEnds: true, showDropped: false, openFolds: none, reveal: 'c1' });
    expect(revealed.items.has('c1')).toBe(true);
  });
});

describe('visibleTree with autoCollapse', () => {
  const base = { foldDeadEnds: false, showDropped: false, openFolds: none, autoCollapse: true };

  it('keeps the best path and the selection with its siblings and children open; the rest becomes "+N more"', async () => {
    const { tree } = await game(3);
    const best = tree.bestNodeId as string;
    const bestPath = new Set<string>();
    for (let n = tree.nodes[best]; n; n = n.parentId ? tree.nodes[n.parentId] : undefined) bestPath.add(n.id);
    const v = visibleTree(tree, { ...base, focus: focusNodes(tree, null, best) });
    for (const id of bestPath) expect(v.items.has(id)).toBe(true);
    const root = tree.nodes[tree.rootId as string];
    const offPath = root?.childIds.filter((id) => !bestPath.has(id)) ?? [];
    expect(offPath.length).toBeGreaterThan(0);
    for (const id of offPath) expect(v.items.has(id)).toBe(false);
    // the summary counts every hidden node and knows the best score among them
    const summary = v.items.get(summaryId(root?.id as string));
    const hidden = offPath.flatMap((id) => subtree(tree, id));
    const bestHidden = Math.max(...hidden.map((id) => tree.nodes[id]?.score?.composite ?? -1));
    expect(summary).toMatchObject({ kind: 'summary', nodeIds: offPath, hidden: hidden.length, best: bestHidden });
    // nothing is lost: shown nodes plus hidden ones make the whole tree
    expect(shownPlusHidden(v)).toBe(tree.nodeOrder.length);

    // select an off-path child of the root: it, its siblings and its children come into view
    const picked = offPath.find((id) => (tree.nodes[id]?.childIds.length ?? 0) > 0) ?? (offPath[0] as string);
    const focused = visibleTree(tree, { ...base, focus: focusNodes(tree, picked, best) });
    for (const id of [...(root?.childIds ?? []), ...(tree.nodes[picked]?.childIds ?? [])]) {
      expect(focused.items.has(id)).toBe(true);
    }
  });

  it('with no best node (a finished run without a winner), keeps the first level and the top-scored path open', async () => {
    const { tree } = await game(3);
    const root = tree.nodes[tree.rootId as string];
    const top = Object.values(tree.nodes)
      .filter((n) => n.parentId !== null)
      .reduce((a, b) => (b.cumulativeScore > a.cumulativeScore ? b : a));
    const v = visibleTree(tree, { ...base, focus: focusNodes(tree, null, null) });
    // not one fold card under the goal: the root's children are on the canvas, and so is where the search got furthest
    for (const id of root?.childIds ?? []) expect(v.items.has(id)).toBe(true);
    expect(v.items.has(top.id)).toBe(true);
  });

  it('opens a summary in place on request, and shows everything when off', async () => {
    const { tree } = await game(3);
    const root = tree.rootId as string;
    const focus = focusNodes(tree, null, tree.bestNodeId);
    const opened = visibleTree(tree, { ...base, focus, openFolds: new Set([summaryId(root)]) });
    for (const id of tree.nodes[root]?.childIds ?? []) expect(opened.items.has(id)).toBe(true);
    expect(opened.items.has(summaryId(root))).toBe(false);
    const all = visibleTree(tree, { ...base, autoCollapse: false, focus });
    expect([...all.items.values()].filter((i) => i.kind === 'node')).toHaveLength(tree.nodeOrder.length);
  });
});

describe('the focus of a live run', () => {
  const base = { foldDeadEnds: false, showDropped: false, openFolds: none, autoCollapse: true };

  it('keeps the running node and the frontier next in line open, not a breadth-first frontier of hundreds', async () => {
    const events: ExplorationEvent[] = [];
    await new ThoughtTreeExecutor({
      maxDepth: 8,
      terminationConfidence: 1,
      confidenceThreshold: 0,
      maxTotalNodes: 400,
    }).explore({ name: 't', model: createSimulatedModel({ seed: 11 }) }, 'Reduce the p99 latency of the checkout API', {
      task: getTaskEntry('open-goal').task,
      onEvent: (e) => events.push(e),
    });
    // the run as a live page has it, halfway: hundreds of nodes wait in its frontier
    const tree = fold(events.slice(0, Math.floor(events.length / 2)));
    const waiting = Object.keys(tree.frontier);
    expect(tree.status).toBe('running');
    expect(waiting.length).toBeGreaterThan(4 * FRONTIER_IN_FOCUS);

    const v = visibleTree(tree, { ...base, focus: focusNodes(tree, null, null) });
    const shownWaiting = waiting.filter((id) => v.items.get(id)?.kind === 'node');
    // the next to run is on the canvas, with the ones after it; the rest wait in their parents' "+N more"
    expect(v.items.has(selectNext(tree)?.nodeId as string)).toBe(true);
    const inOrder = Object.values(tree.frontier).sort((a, b) => (comesBefore(tree, a, b) ? -1 : 1));
    for (const entry of inOrder.slice(0, FRONTIER_IN_FOCUS)) expect(v.items.get(entry.nodeId)?.kind).toBe('node');
    expect(shownWaiting.length).toBeGreaterThanOrEqual(FRONTIER_IN_FOCUS);
    expect(shownWaiting.length).toBeLessThan(waiting.length / 2);
    expect(shownPlusHidden(v)).toBe(tree.nodeOrder.length);

    // a frontier of a few stays open whole
    const early = fold(events.slice(0, events.findIndex((e) => e.type === 'node.completed') + 1));
    const earlyWaiting = Object.keys(early.frontier);
    expect(earlyWaiting.length).toBeGreaterThan(0);
    expect(earlyWaiting.length).toBeLessThanOrEqual(FRONTIER_IN_FOCUS);
    const ev = visibleTree(early, { ...base, focus: focusNodes(early, null, null) });
    for (const id of earlyWaiting) expect(ev.items.get(id)?.kind).toBe('node');
  });
});

function subtree(tree: ThoughtTree, id: string): string[] {
  const node = tree.nodes[id];
  return node ? [id, ...node.childIds.flatMap((c) => subtree(tree, c))] : [];
}

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
