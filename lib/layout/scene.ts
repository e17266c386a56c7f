/**
 * What the far-zoom canvas layer draws, built once per tree or layout change (never per frame): one box per visible
 * item with its status and score, the hidden nodes of each fold or summary as cells (so every node's status still
 * shows), and the edges as elbow lines between box sides. Plus the two queries the layer needs per frame or per
 * pointer move: which items fall in a rectangle (culling) and which item is under a point (hit-testing).
 * Pure; no React, no DOM.
 * Not responsible for colours or painting (LodCanvas.tsx), nor for placement (lib/layout/place.ts).
 */
import type { ThoughtTree } from '../engine/index';
import { CARD_HEIGHT, CARD_WIDTH, type Orientation } from './place';
import type { Position } from './tidy';
import type { VisibleItem } from './visible-tree';
import { displayStatus, type DisplayStatus, droppedFoldText } from './node-status';

export type SceneStatus = DisplayStatus | 'root';

export interface SceneCell {
  status: DisplayStatus;
  score: number | null;
}

export interface SceneItem {
  /** The visible item's id (a node id, or a fold/summary id). */
  id: string;
  /** The node it stands for, when it is one. */
  nodeId: string | null;
  kind: VisibleItem['kind'];
  x: number;
  y: number;
  status: SceneStatus;
  score: number | null;
  best: boolean;
  /** Drawn faint: a dropped candidate, or, in the layer view, a candidate that never ran. */
  faint: boolean;
  /** Folds and summaries: every node they hide (dropped folds: the search's pruned branches, then every candidate). */
  cells: readonly SceneCell[];
  /** A line of text for the hover tooltip. */
  label: string;
}

export interface SceneEdge {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  best: boolean;
  faint: boolean;
}

export interface Scene {
  items: SceneItem[];
  edges: SceneEdge[];
  orientation: Orientation;
}

export interface SceneInput {
  tree: ThoughtTree;
  items: ReadonlyMap<string, VisibleItem>;
  childIds: Readonly<Record<string, readonly string[]>>;
  positions: ReadonlyMap<string, Position>;
  orientation: Orientation;
  bestPath: ReadonlySet<string>;
  /** Layer view: nodes that never ran are faint. */
  fadeUnrun: boolean;
}

/** The cells of an item that hides nothing (shared: cells are read only). */
const NO_CELLS: readonly SceneCell[] = [];

function hiddenCells(tree: ThoughtTree, roots: readonly string[]): SceneCell[] {
  const cells: SceneCell[] = [];
  const stack = [...roots].reverse();
  while (stack.length) {
    const node = tree.nodes[stack.pop() as string];
    if (!node) continue;
    cells.push({ status: displayStatus(node), score: node.score?.composite ?? null });
    for (let i = node.childIds.length - 1; i >= 0; i--) stack.push(node.childIds[i] as string);
  }
  return cells;
}

export function buildScene(input: SceneInput): Scene {
  const { tree, positions, orientation } = input;
  const items: SceneItem[] = [];
  // one object shape for every item, written out (not spread from a base): a 100k-event tree has thousands of items
  // per build, and spreads made this loop several times slower (npm run bench:views)
  const push = (
    id: string,
    p: Position,
    kind: VisibleItem['kind'],
    nodeId: string | null,
    status: SceneStatus,
    score: number | null,
    best: boolean,
    faint: boolean,
    cells: readonly SceneCell[],
    label: string,
  ) => items.push({ id, nodeId, kind, x: p.x, y: p.y, status, score, best, faint, cells, label });
  for (const [id, p] of positions) {
    const item = input.items.get(id);
    if (!item) continue;
    if (item.kind === 'node') {
      const node = tree.nodes[item.nodeId];
      if (!node) continue;
      const isRoot = node.parentId === null;
      push(
        id,
        p,
        item.kind,
        node.id,
        isRoot ? 'root' : displayStatus(node),
        node.score?.composite ?? null,
        input.bestPath.has(node.id),
        input.fadeUnrun && !isRoot && node.startedSeq === null,
        NO_CELLS,
        isRoot ? tree.goal : `${node.id} · ${node.branch?.thought ?? ''}`,
      );
    } else if (item.kind === 'dead-fold' || item.kind === 'summary') {
      const best = item.kind === 'summary' ? item.best : null;
      push(
        id,
        p,
        item.kind,
        null,
        item.kind === 'dead-fold' ? 'failed' : 'pending',
        best,
        false,
        false,
        hiddenCells(tree, item.nodeIds),
        item.kind === 'summary'
          ? `+${item.hidden} more${best !== null ? `, best ${best.toFixed(2)}` : ''} (click to open)`
          : `${item.nodeIds.length} dead ends, ${item.hidden} nodes (click to unfold)`,
      );
    } else if (item.kind === 'dropped-fold') {
      const scored = item.count - item.nodeIds.length;
      const dropped = (tree.nodes[item.parentId]?.dropped ?? []).slice(0, scored);
      const cells = hiddenCells(tree, item.nodeIds);
      for (const d of dropped) cells.push({ status: 'dropped', score: d.score.composite });
      push(
        id,
        p,
        item.kind,
        null,
        'dropped',
        null,
        false,
        true,
        cells,
        `${droppedFoldText(scored, item.nodeIds.length).title} (click to show)`,
      );
    } else {
      const candidate = tree.nodes[item.parentId]?.dropped[item.index];
      push(
        id,
        p,
        item.kind,
        null,
        'dropped',
        candidate?.score.composite ?? null,
        false,
        true,
        NO_CELLS,
        `pruned by score · ${candidate?.branch.thought ?? ''}`,
      );
    }
  }

  const edges: SceneEdge[] = [];
  for (const [parentId, kids] of Object.entries(input.childIds)) {
    const from = positions.get(parentId);
    if (!from) continue;
    for (const childId of kids) {
      const to = positions.get(childId);
      if (!to) continue;
      const child = input.items.get(childId);
      const childNode = child?.kind === 'node' ? tree.nodes[child.nodeId] : undefined;
      // the layer view links only the candidates that ran, as the paper draws it: the rest would be a thicket
      if (input.fadeUnrun && childNode && childNode.startedSeq === null) continue;
      const best = input.bestPath.has(parentId) && input.bestPath.has(childId);
      const faint =
        child?.kind === 'dropped' ||
        child?.kind === 'dropped-fold' ||
        (!!childNode && displayStatus(childNode) === 'dropped');
      edges.push(
        orientation === 'tb'
          ? { x1: from.x + CARD_WIDTH / 2, y1: from.y + CARD_HEIGHT, x2: to.x + CARD_WIDTH / 2, y2: to.y, best, faint }
          : {
              x1: from.x + CARD_WIDTH,
              y1: from.y + CARD_HEIGHT / 2,
              x2: to.x,
              y2: to.y + CARD_HEIGHT / 2,
              best,
              faint,
            },
      );
    }
  }
  return { items, edges, orientation };
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const itemInRect = (item: SceneItem, r: Rect) =>
  item.x + CARD_WIDTH >= r.x && item.x <= r.x + r.width && item.y + CARD_HEIGHT >= r.y && item.y <= r.y + r.height;

export const edgeInRect = (e: SceneEdge, r: Rect) =>
  Math.max(e.x1, e.x2) >= r.x &&
  Math.min(e.x1, e.x2) <= r.x + r.width &&
  Math.max(e.y1, e.y2) >= r.y &&
  Math.min(e.y1, e.y2) <= r.y + r.height;

/** The item whose box holds the point (flow coordinates), or null; `slop` widens every box (flow units). */
export function sceneItemAt(scene: Scene, x: number, y: number, slop = 0): SceneItem | null {
  for (let i = scene.items.length - 1; i >= 0; i--) {
    const item = scene.items[i] as SceneItem;
    if (
      x >= item.x - slop &&
      x <= item.x + CARD_WIDTH + slop &&
      y >= item.y - slop &&
      y <= item.y + CARD_HEIGHT + slop
    ) {
      return item;
    }
  }
  return null;
}
