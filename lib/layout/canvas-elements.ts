/**
 * Everything the run canvas draws for one state of the tree: where every visible item sits and which item stands for
 * each node (a node hidden in a fold is found through its fold), built at once; React Flow's nodes and edges (cards,
 * folds, "+N more" summaries, dropped candidates; the best path and the last backtrack marked) and the far zoom
 * level's scene, each built on its first read (a canvas draws one or the other). Once per tree or view change, never
 * per frame.
 * Pure: React Flow's types are imported as types only, nothing of React runs here.
 * Not responsible for keeping element objects stable from one build to the next (stable-elements.ts), for what is
 * visible (visible-tree.ts) or where it goes (place.ts), which it calls, nor for drawing (components/run).
 */
import type { Edge } from '@xyflow/react';
import { pathTo, type ThoughtTree } from '../engine/index';
import type { RunFlowNode } from './flow-types';
import { displayStatus, scoreFigure } from './node-status';
import {
  CARD_HEIGHT,
  CARD_WIDTH,
  placeLayers,
  placeTree,
  type LayerItem,
  type Orientation,
  type TreePlacer,
} from './place';
import { pickInWindow } from './element-window';
import { buildScene, type Rect, type Scene } from './scene';
import type { Position } from './tidy';
import { focusNodes, visibleTree } from './visible-tree';

/** The view choices the canvas is built from (the run store's and the canvas's own). */
export interface CanvasView {
  selectedNodeId: string | null;
  bestNodeId: string | null;
  /** The latest backtrack, drawn as an animated edge between the items standing for its two ends. */
  lastBacktrack: { seq: number; fromId: string; toId: string | null } | null;
  foldDeadEnds: boolean;
  showDropped: boolean;
  openFolds: ReadonlySet<string>;
  autoCollapse: boolean;
  orientation: Orientation;
  /** A tidy tree, or a column per depth (candidates that never ran drawn faint and unlinked). */
  mode: 'tree' | 'layers';
}

export interface CanvasElements {
  nodes: RunFlowNode[];
  edges: Edge[];
  /** Top-left corner of every visible item. */
  positions: Map<string, Position>;
  /** Node id -> the visible item standing for it (itself, or the fold or summary hiding it). */
  itemOf: Map<string, string>;
  scene: Scene;
  /** React Flow's nodes and edges for the items in `window` alone (element-window.ts), as `nodes`/`edges` have them. */
  within(window: Rect): { nodes: RunFlowNode[]; edges: Edge[] };
}

/** The statuses of every node under `roots`, as "status:count" pairs, most common first. */
export function statusMix(tree: ThoughtTree, roots: readonly string[]): string {
  const counts = new Map<string, number>();
  const stack = [...roots];
  while (stack.length) {
    const node = tree.nodes[stack.pop() as string];
    if (!node) continue;
    const status = displayStatus(node);
    counts.set(status, (counts.get(status) ?? 0) + 1);
    stack.push(...node.childIds);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${status}:${n}`)
    .join(',');
}

export function buildCanvasElements(
  tree: ThoughtTree,
  view: CanvasView,
  place: TreePlacer = placeTree,
): CanvasElements {
  const { selectedNodeId, bestNodeId, orientation } = view;
  const visible = visibleTree(tree, {
    foldDeadEnds: view.foldDeadEnds,
    showDropped: view.showDropped,
    openFolds: view.openFolds,
    reveal: selectedNodeId,
    autoCollapse: view.autoCollapse,
    focus: focusNodes(tree, selectedNodeId, bestNodeId),
  });
  const itemOf = new Map<string, string>();
  const best = new Set(bestNodeId ? pathTo(tree, bestNodeId).map((n) => n.id) : []);
  const layers = view.mode === 'layers';
  if (!visible.rootId) {
    const positions = new Map<string, Position>();
    const scene = buildScene({ ...visible, tree, positions, orientation, bestPath: best, fadeUnrun: false });
    return { nodes: [], edges: [], within: () => ({ nodes: [], edges: [] }), positions, itemOf, scene };
  }
  let positions: Map<string, Position>;
  if (layers) {
    const layerItems: LayerItem[] = [];
    for (const item of visible.items.values()) {
      const node = tree.nodes[item.kind === 'node' ? item.nodeId : item.parentId];
      if (!node) continue;
      layerItems.push(
        item.kind === 'node'
          ? { id: item.id, depth: node.depth, score: node.score?.composite ?? null }
          : { id: item.id, depth: node.depth + 1, score: null },
      );
    }
    positions = placeLayers(layerItems, orientation).positions;
  } else {
    positions = place(visible.childIds, visible.rootId, orientation).positions;
  }
  for (const id of positions.keys()) {
    const item = visible.items.get(id);
    if (item?.kind === 'node') itemOf.set(item.nodeId, id);
    else if (item?.kind === 'dead-fold') for (const nodeId of item.nodeIds) itemOf.set(nodeId, id);
  }
  // nodes hidden in a fold or a summary are stood for by it (search hits, focus requests, selection marks)
  for (const item of visible.items.values()) {
    if (item.kind !== 'dead-fold' && item.kind !== 'summary' && item.kind !== 'dropped-fold') continue;
    const stack = [...item.nodeIds];
    while (stack.length) {
      const n = tree.nodes[stack.pop() as string];
      if (!n) continue;
      if (!itemOf.has(n.id)) itemOf.set(n.id, item.id);
      stack.push(...n.childIds);
    }
  }
  // React Flow's elements are drawn at the near zoom levels, the scene at the far one: each is built when first
  // read (a 100k-event tree has ~5k visible items; building both on every step was most of a seek: bench:ui), and
  // React Flow's only for the items around the view (`within`: a live tree of 18k items spent most of each frame
  // building the elements of cards nobody could see)
  const flowNode = (id: string): RunFlowNode | null => {
    const item = visible.items.get(id);
    const position = positions.get(id);
    if (!item || !position) return null;
    // one object shape for every node, written out rather than spread from a common part (as scene.ts); initial
    // sizes let React Flow cull and place nodes before it has measured them
    const node = (type: RunFlowNode['type'], data: RunFlowNode['data'], className?: string) =>
      ({
        id,
        position,
        draggable: false,
        selected: id === selectedNodeId,
        initialWidth: CARD_WIDTH,
        initialHeight: CARD_HEIGHT,
        type,
        data,
        className,
      }) as RunFlowNode;
    if (item.kind === 'node') {
      const treeNode = tree.nodes[item.nodeId];
      // the layer view marks the candidates that ran (kept) and fades the ones that never did
      const faint = layers && treeNode?.parentId !== null && treeNode?.startedSeq === null;
      return node('thought', { nodeId: item.nodeId }, faint ? 'is-faint' : undefined);
    }
    if (item.kind === 'dead-fold') {
      return node('fold', { foldId: id, parentId: item.parentId, nodeIds: item.nodeIds, hidden: item.hidden });
    }
    if (item.kind === 'summary') {
      return node('summary', {
        parentId: item.parentId,
        nodeIds: item.nodeIds,
        hidden: item.hidden,
        best: item.bestScore ? scoreFigure(item.bestScore) : null,
        mix: statusMix(tree, item.nodeIds),
      });
    }
    if (item.kind === 'dropped-fold') {
      return node('droppedFold', { foldId: id, parentId: item.parentId, count: item.count, nodeIds: item.nodeIds });
    }
    return node('dropped', { parentId: item.parentId, index: item.index });
  };
  const flowEdge = (id: string, childId: string): Edge | null => {
    const onBest = best.has(id) && best.has(childId);
    const child = visible.items.get(childId);
    // the layer view links only the candidates that ran (see scene.ts)
    if (layers && child?.kind === 'node' && tree.nodes[child.nodeId]?.startedSeq === null) return null;
    // what was pruned by rule (the engine's threshold, the search's own) hangs by a faint edge
    const childNode = child?.kind === 'node' ? tree.nodes[child.nodeId] : undefined;
    const faint =
      child?.kind === 'dropped' ||
      child?.kind === 'dropped-fold' ||
      (childNode !== undefined && displayStatus(childNode) === 'dropped');
    return {
      id: `e:${id}:${childId}`,
      source: id,
      target: childId,
      type: 'smoothstep',
      className: onBest ? 'edge-best' : faint ? 'edge-faint' : undefined,
    };
  };
  const backtrack = view.lastBacktrack;
  const backtrackEnds = backtrack?.toId ? [itemOf.get(backtrack.fromId), itemOf.get(backtrack.toId)] : [];
  const backtrackLink =
    backtrack && backtrackEnds[0] && backtrackEnds[1] && backtrackEnds[0] !== backtrackEnds[1]
      ? { from: backtrackEnds[0], to: backtrackEnds[1], seq: backtrack.seq }
      : null;
  /** Every line drawn, as [from, to, the backtrack's seq if it is the backtrack's]: each item to its children, then
   * the last backtrack. Listed once per build (each move of the window picks from it again). */
  const links = once(() => {
    const out: (readonly [string, string, number?])[] = [];
    for (const id of positions.keys()) for (const childId of visible.childIds[id] ?? []) out.push([id, childId]);
    if (backtrackLink) out.push([backtrackLink.from, backtrackLink.to, backtrackLink.seq]);
    return out;
  });
  const elementsOf = (itemIds: Iterable<string>, lines: Iterable<readonly [string, string, number?]>) => {
    const nodes: RunFlowNode[] = [];
    const edges: Edge[] = [];
    for (const id of itemIds) {
      const node = flowNode(id);
      if (node) nodes.push(node);
    }
    for (const [from, to, backtrackSeq] of lines) {
      const edge: Edge | null =
        backtrackSeq === undefined
          ? flowEdge(from, to)
          : {
              id: `backtrack:${backtrackSeq}`,
              source: from,
              target: to,
              type: 'default',
              animated: true,
              className: 'edge-backtrack',
              label: 'backtrack',
              labelBgPadding: [4, 2],
            };
      if (edge) edges.push(edge);
    }
    return { nodes, edges };
  };
  const flowElements = once(() => elementsOf(positions.keys(), links()));
  const scene = once(() => buildScene({ ...visible, tree, positions, orientation, bestPath: best, fadeUnrun: layers }));
  return {
    get nodes() {
      return flowElements().nodes;
    },
    get edges() {
      return flowElements().edges;
    },
    within(window) {
      const picked = pickInWindow(positions, links(), window);
      return elementsOf(picked.itemIds, picked.links);
    },
    positions,
    itemOf,
    get scene() {
      return scene();
    },
  };
}

/** `build`'s result, built on the first call and kept. */
function once<T>(build: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: build() }).v;
}
