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
import { buildScene, type Scene } from './scene';
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
    return { nodes: [], edges: [], positions, itemOf, scene };
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
  // read (a 100k-event tree has ~5k visible items; building both on every step was most of a seek: bench:ui)
  const flowElements = once(() => {
    const nodes: RunFlowNode[] = [];
    const edges: Edge[] = [];
    for (const [id, position] of positions) {
      const item = visible.items.get(id);
      if (!item) continue;
      // one object shape for every node, written out rather than spread from a common part (as scene.ts); initial
      // sizes let React Flow cull and place nodes before it has measured them
      const push = (type: RunFlowNode['type'], data: RunFlowNode['data'], className?: string) =>
        nodes.push({
          id,
          position,
          draggable: false,
          selected: id === selectedNodeId,
          initialWidth: CARD_WIDTH,
          initialHeight: CARD_HEIGHT,
          type,
          data,
          className,
        } as RunFlowNode);
      if (item.kind === 'node') {
        const node = tree.nodes[item.nodeId];
        // the layer view marks the candidates that ran (kept) and fades the ones that never did
        const faint = layers && node?.parentId !== null && node?.startedSeq === null;
        push('thought', { nodeId: item.nodeId }, faint ? 'is-faint' : undefined);
      } else if (item.kind === 'dead-fold') {
        push('fold', { foldId: id, parentId: item.parentId, nodeIds: item.nodeIds, hidden: item.hidden });
      } else if (item.kind === 'summary') {
        push('summary', {
          parentId: item.parentId,
          nodeIds: item.nodeIds,
          hidden: item.hidden,
          best: item.bestScore ? scoreFigure(item.bestScore) : null,
          mix: statusMix(tree, item.nodeIds),
        });
      } else if (item.kind === 'dropped-fold') {
        push('droppedFold', { foldId: id, parentId: item.parentId, count: item.count, nodeIds: item.nodeIds });
      } else {
        push('dropped', { parentId: item.parentId, index: item.index });
      }
      for (const childId of visible.childIds[id] ?? []) {
        const onBest = best.has(id) && best.has(childId);
        const child = visible.items.get(childId);
        // the layer view links only the candidates that ran (see scene.ts)
        if (layers && child?.kind === 'node' && tree.nodes[child.nodeId]?.startedSeq === null) continue;
        // what was pruned by rule (the engine's threshold, the search's own) hangs by a faint edge
        const childNode = child?.kind === 'node' ? tree.nodes[child.nodeId] : undefined;
        const faint =
          child?.kind === 'dropped' ||
          child?.kind === 'dropped-fold' ||
          (childNode !== undefined && displayStatus(childNode) === 'dropped');
        edges.push({
          id: `e:${id}:${childId}`,
          source: id,
          target: childId,
          type: 'smoothstep',
          className: onBest ? 'edge-best' : faint ? 'edge-faint' : undefined,
        });
      }
    }
    const backtrack = view.lastBacktrack;
    if (backtrack?.toId) {
      const from = itemOf.get(backtrack.fromId);
      const to = itemOf.get(backtrack.toId);
      if (from && to && from !== to) {
        edges.push({
          id: `backtrack:${backtrack.seq}`,
          source: from,
          target: to,
          type: 'default',
          animated: true,
          className: 'edge-backtrack',
          label: 'backtrack',
          labelBgPadding: [4, 2],
        });
      }
    }
    return { nodes, edges };
  });
  const scene = once(() => buildScene({ ...visible, tree, positions, orientation, bestPath: best, fadeUnrun: layers }));
  return {
    get nodes() {
      return flowElements().nodes;
    },
    get edges() {
      return flowElements().edges;
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
