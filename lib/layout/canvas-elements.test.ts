import { describe, expect, it } from 'vitest';
import { createEmptyTree, type NodeStatus, type ThoughtNode, type ThoughtTree } from '../engine/index';
import { makeNode } from '../tasks/testing/trees';
import { buildCanvasElements, type CanvasView } from './canvas-elements';
import { deadFoldId, droppedFoldId, summaryId } from './visible-tree';

/**
 * A small tree: the root n0 with children n1 (completed, then n3 the best answer below it), n2 (pruned by a person,
 * with a child n4) and n5 (failed); n6, a candidate queued under n1 that never ran.
 */
function smallTree(): ThoughtTree {
  const tree = createEmptyTree('run');
  const add = (id: string, parentId: string | null, status: NodeStatus, composite: number | null, ran = true) => {
    const parent = parentId ? (tree.nodes[parentId] as ThoughtNode) : null;
    const node = makeNode(id, parentId, parent ? parent.depth + 1 : 0, parentId ? branch(id) : null);
    node.status = status;
    node.startedSeq = ran ? 1 : null;
    if (composite !== null) node.score = { ...SCORE, composite };
    tree.nodes[id] = node;
    tree.nodeOrder.push(id);
    parent?.childIds.push(id);
  };
  add('n0', null, 'completed', null);
  tree.rootId = 'n0';
  add('n1', 'n0', 'completed', 0.8);
  add('n2', 'n0', 'pruned', 0.4);
  add('n3', 'n1', 'completed', 0.9);
  add('n4', 'n2', 'completed', 0.3);
  add('n5', 'n0', 'failed', 0.2);
  add('n6', 'n1', 'pending', 0.5, false);
  return tree;
}

const SCORE = { confidence: 0.5, progress: 0.5, novelty: 0.5, composite: 0, reasoning: '', fallback: false };
const branch = (id: string) => ({ thought: `step ${id}`, proposedAction: { type: 'response' as const, content: id } });

const VIEW: CanvasView = {
  selectedNodeId: null,
  bestNodeId: 'n3',
  lastBacktrack: null,
  foldDeadEnds: false,
  showDropped: false,
  openFolds: new Set(),
  autoCollapse: false,
  orientation: 'tb',
  mode: 'tree',
};

const edgeClass = (elements: ReturnType<typeof buildCanvasElements>, source: string, target: string) =>
  elements.edges.find((e) => e.source === source && e.target === target)?.className;

describe('buildCanvasElements', () => {
  it('draws every node as a card, each placed, with no fold when dead ends are shown', () => {
    const elements = buildCanvasElements(smallTree(), VIEW);
    expect(elements.nodes.map((n) => n.id).sort()).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6']);
    expect(elements.nodes.every((n) => n.type === 'thought')).toBe(true);
    for (const node of elements.nodes) expect(elements.positions.get(node.id)).toEqual(node.position);
    expect(elements.itemOf.get('n4')).toBe('n4');
  });

  it('marks the edges of the best path, and only those', () => {
    const elements = buildCanvasElements(smallTree(), VIEW);
    expect(edgeClass(elements, 'n0', 'n1')).toBe('edge-best');
    expect(edgeClass(elements, 'n1', 'n3')).toBe('edge-best');
    expect(edgeClass(elements, 'n0', 'n2')).toBeUndefined();
    expect(edgeClass(elements, 'n1', 'n6')).toBeUndefined();
    expect(elements.scene.items.find((i) => i.id === 'n3')?.best).toBe(true);
    expect(elements.scene.items.find((i) => i.id === 'n2')?.best).toBe(false);
  });

  it('selects the selected node and no other', () => {
    const elements = buildCanvasElements(smallTree(), { ...VIEW, selectedNodeId: 'n4' });
    expect(elements.nodes.filter((n) => n.selected).map((n) => n.id)).toEqual(['n4']);
  });

  it('folds a pruned and a failed branch into one card that stands for every node it hides', () => {
    const elements = buildCanvasElements(smallTree(), { ...VIEW, foldDeadEnds: true });
    const fold = elements.nodes.find((n) => n.type === 'fold');
    expect(fold).toMatchObject({ id: deadFoldId('n0'), data: { parentId: 'n0', nodeIds: ['n2', 'n5'], hidden: 3 } });
    expect(elements.nodes.some((n) => n.id === 'n2' || n.id === 'n4' || n.id === 'n5')).toBe(false);
    // a search hit or a focus request for the pruned branch's child lands on the fold
    expect(elements.itemOf.get('n4')).toBe(deadFoldId('n0'));
    expect(elements.scene.items.find((i) => i.id === deadFoldId('n0'))?.cells).toHaveLength(3);
  });

  it("folds a branch the search pruned with the parent's pruned-by-score card, not with its dead ends", () => {
    const tree = smallTree();
    // n2 pruned by the search itself (node.pruned: no person, a reason), with its child n4
    for (const id of ['n2', 'n4'])
      tree.nodes[id] = { ...tree.nodes[id]!, status: 'pruned', pruneReason: 'no way to 24' };
    const elements = buildCanvasElements(tree, { ...VIEW, foldDeadEnds: true, showDropped: true });
    expect(elements.nodes.find((n) => n.type === 'fold')?.data).toMatchObject({ nodeIds: ['n5'] });
    const pruned = elements.nodes.find((n) => n.type === 'droppedFold');
    expect(pruned).toMatchObject({ id: droppedFoldId('n0'), data: { parentId: 'n0', count: 1, nodeIds: ['n2'] } });
    expect(elements.itemOf.get('n4')).toBe(droppedFoldId('n0'));
    const item = elements.scene.items.find((i) => i.id === droppedFoldId('n0'));
    expect(item).toMatchObject({ status: 'dropped', label: '1 pruned by the search (click to show)' });
    expect(item?.cells).toHaveLength(2);
    // opened: the branch is drawn as the engine's pruned candidates are, faint
    const opened = buildCanvasElements(tree, {
      ...VIEW,
      foldDeadEnds: true,
      showDropped: true,
      openFolds: new Set([droppedFoldId('n0')]),
    });
    expect(opened.itemOf.get('n4')).toBe('n4');
    expect(edgeClass(opened, 'n0', 'n2')).toBe('edge-faint');
  });

  it('opens the fold around a selection inside it', () => {
    const elements = buildCanvasElements(smallTree(), { ...VIEW, foldDeadEnds: true, selectedNodeId: 'n4' });
    expect(elements.nodes.find((n) => n.id === 'n4')?.selected).toBe(true);
    expect(elements.itemOf.get('n4')).toBe('n4');
  });

  it('collapses the children off the focus into a "+N more" card with their best score and statuses', () => {
    const elements = buildCanvasElements(smallTree(), { ...VIEW, autoCollapse: true });
    const summary = elements.nodes.find((n) => n.type === 'summary');
    expect(summary?.id).toBe(summaryId('n0'));
    expect(summary?.data).toMatchObject({ nodeIds: ['n2', 'n5'], hidden: 3, best: '0.40' });
    expect(summary?.type === 'summary' && summary.data.mix.split(',').sort()).toEqual([
      'completed:1',
      'failed:1',
      'pruned:1',
    ]);
    expect(elements.itemOf.get('n5')).toBe(summaryId('n0'));
  });

  it('in the layer view, fades a candidate that never ran and draws no edge to it', () => {
    const elements = buildCanvasElements(smallTree(), { ...VIEW, mode: 'layers' });
    expect(elements.nodes.find((n) => n.id === 'n6')?.className).toBe('is-faint');
    expect(elements.nodes.find((n) => n.id === 'n3')?.className).toBeUndefined();
    expect(edgeClass(elements, 'n1', 'n6')).toBeUndefined();
    expect(elements.edges.some((e) => e.target === 'n6')).toBe(false);
    // a layer per depth (rows, top to bottom): every child of the root on one row, the grandchildren below
    const y = (id: string) => elements.positions.get(id)?.y ?? NaN;
    expect(y('n1')).toBeGreaterThan(y('n0'));
    expect([y('n2'), y('n5')]).toEqual([y('n1'), y('n1')]);
    expect(y('n3')).toBeGreaterThan(y('n1'));
  });

  it('draws the last backtrack between the items standing for its ends, and not inside one fold', () => {
    const backtrack = { seq: 9, fromId: 'n4', toId: 'n3' };
    const shown = buildCanvasElements(smallTree(), { ...VIEW, lastBacktrack: backtrack });
    expect(shown.edges.find((e) => e.id === 'backtrack:9')).toMatchObject({
      source: 'n4',
      target: 'n3',
      animated: true,
      className: 'edge-backtrack',
    });
    const folded = buildCanvasElements(smallTree(), { ...VIEW, foldDeadEnds: true, lastBacktrack: backtrack });
    expect(folded.edges.find((e) => e.id === 'backtrack:9')).toMatchObject({ source: deadFoldId('n0') });
    const inside = buildCanvasElements(smallTree(), {
      ...VIEW,
      foldDeadEnds: true,
      lastBacktrack: { seq: 9, fromId: 'n4', toId: 'n5' },
    });
    expect(inside.edges.some((e) => e.id === 'backtrack:9')).toBe(false);
  });

  it('builds for a window the same elements the whole build has there, and only those', () => {
    const view = { ...VIEW, lastBacktrack: { seq: 9, fromId: 'n4', toId: 'n3' } };
    const whole = buildCanvasElements(smallTree(), view);
    const everywhere = { x: -1e6, y: -1e6, width: 2e6, height: 2e6 };
    expect(buildCanvasElements(smallTree(), view).within(everywhere)).toEqual({
      nodes: whole.nodes,
      edges: whole.edges,
    });
    // a window around one card: that card, and the lines to it with their other ends
    const at = whole.positions.get('n4')!;
    const part = buildCanvasElements(smallTree(), view).within({ x: at.x, y: at.y, width: 1, height: 1 });
    expect(part.nodes.map((n) => n.id)).toContain('n4');
    expect(part.nodes.length).toBeLessThan(whole.nodes.length);
    for (const node of part.nodes) expect(node).toEqual(whole.nodes.find((n) => n.id === node.id));
    for (const edge of part.edges) {
      expect(edge).toEqual(whole.edges.find((e) => e.id === edge.id));
      expect(part.nodes.some((n) => n.id === edge.source) && part.nodes.some((n) => n.id === edge.target)).toBe(true);
    }
    expect(part.edges.some((e) => e.target === 'n4' || e.source === 'n4')).toBe(true);
  });

  it('draws nothing for a run with no root yet', () => {
    const elements = buildCanvasElements(createEmptyTree('run'), VIEW);
    expect(elements).toMatchObject({ nodes: [], edges: [] });
    expect(elements.positions.size).toBe(0);
    expect(elements.scene.items).toHaveLength(0);
  });
});
