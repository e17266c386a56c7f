/**
 * Where each visible item of the canvas goes, as the top-left corner of its box in canvas (flow) coordinates:
 * - tree mode: the tidy layout (tidy.ts), top-to-bottom (depth as rows) or left-to-right (depth as columns);
 * - layers mode, for beam runs: each depth one column (or row) of candidates sorted by value (composite score,
 *   best first), the way the Tree-of-Thoughts paper draws its search; items that never ran shown faint by the canvas.
 * Every item has the same box (CARD_WIDTH x CARD_HEIGHT). Pure and React-free; run once per tree change.
 * Not responsible for which items are shown (visible-tree.ts) nor for drawing them (components/run).
 */
import { DEFAULT_LAYOUT, layoutTree, type Position } from './tidy';

export type Orientation = 'tb' | 'lr';
export type LayoutMode = 'tree' | 'layers';

export const CARD_WIDTH = DEFAULT_LAYOUT.nodeWidth;
export const CARD_HEIGHT = DEFAULT_LAYOUT.nodeHeight;
/** Gaps between items: across a row of siblings, and between one depth and the next. */
const SIBLING_GAP = { tb: DEFAULT_LAYOUT.horizontalGap, lr: 20 };
const DEPTH_GAP = { tb: DEFAULT_LAYOUT.verticalGap, lr: 72 };

export interface Placement {
  /** Item id -> top-left corner of its box. */
  positions: Map<string, Position>;
  /** The box around every item: x, y (top-left), width, height. */
  bounds: { x: number; y: number; width: number; height: number };
}

function boundsOf(positions: ReadonlyMap<string, Position>): Placement['bounds'] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const p of positions.values()) {
    minX = Math.min(minX, p.x);
    minY = Math.min(minY, p.y);
    maxX = Math.max(maxX, p.x + CARD_WIDTH);
    maxY = Math.max(maxY, p.y + CARD_HEIGHT);
  }
  if (minX === Infinity) return { x: 0, y: 0, width: 0, height: 0 };
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/** The tidy tree, rows (tb) or columns (lr) by depth; siblings keep their order. */
export function placeTree(
  childIds: Readonly<Record<string, readonly string[]>>,
  rootId: string,
  orientation: Orientation,
): Placement {
  const nodes = Object.fromEntries(Object.entries(childIds).map(([id, kids]) => [id, { id, childIds: kids }]));
  const positions = new Map<string, Position>();
  if (orientation === 'tb') {
    const centres = layoutTree(nodes, rootId, DEFAULT_LAYOUT);
    for (const [id, c] of centres) positions.set(id, { x: c.x - CARD_WIDTH / 2, y: c.y });
  } else {
    // lay out sideways: a "row" is a column CARD_WIDTH wide, siblings stack CARD_HEIGHT apart
    const centres = layoutTree(nodes, rootId, {
      nodeWidth: CARD_HEIGHT,
      nodeHeight: CARD_WIDTH,
      horizontalGap: SIBLING_GAP.lr,
      verticalGap: DEPTH_GAP.lr,
    });
    for (const [id, c] of centres) positions.set(id, { x: c.y, y: c.x - CARD_HEIGHT / 2 });
  }
  return { positions, bounds: boundsOf(positions) };
}

export type TreePlacer = typeof placeTree;

/**
 * placeTree with a memory of its last call: the same shape (root, orientation, and every item's children in the
 * same order, compared id by id) gives back the same placement. Between neighbouring steps of a run most events
 * change a node's status, not the shape the canvas shows (21 of 30 steps at 100k events: bench:views), and the tidy
 * layout of ~7k items is ~10 ms; the comparison is a walk over the children lists. One per canvas (its model memo).
 */
export function createTreePlacer(): TreePlacer {
  let last: {
    childIds: Readonly<Record<string, readonly string[]>>;
    rootId: string;
    orientation: Orientation;
    placement: Placement;
  } | null = null;
  return (childIds, rootId, orientation) => {
    if (last && last.rootId === rootId && last.orientation === orientation && sameChildren(last.childIds, childIds)) {
      return last.placement;
    }
    const placement = placeTree(childIds, rootId, orientation);
    last = { childIds, rootId, orientation, placement };
    return placement;
  };
}

function sameChildren(
  a: Readonly<Record<string, readonly string[]>>,
  b: Readonly<Record<string, readonly string[]>>,
): boolean {
  if (a === b) return true;
  let count = 0;
  for (const id in a) {
    const x = a[id] as readonly string[];
    const y = b[id];
    if (!y || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    count++;
  }
  return count === Object.keys(b).length;
}

export interface LayerItem {
  id: string;
  depth: number;
  /** Composite score; null (the root, folds, summaries) sorts last. */
  score: number | null;
}

/** Gap between the sub-columns (or sub-rows) of one wrapped layer. */
const WRAP_GAP = 24;

/**
 * One column (lr) or row (tb) per depth, items sorted by score, best first (ties keep their given order), the best
 * at the top (lr) or the left (tb). A layer too long for one column wraps into several side by side, filled best
 * first, so a wide beam stays roughly as tall as it is wide instead of a strip; every layer is centred on one axis.
 */
export function placeLayers(items: readonly LayerItem[], orientation: Orientation): Placement {
  const layers = new Map<number, LayerItem[]>();
  for (const item of items) {
    const layer = layers.get(item.depth) ?? [];
    layer.push(item);
    layers.set(item.depth, layer);
  }
  const positions = new Map<string, Position>();
  const tb = orientation === 'tb';
  // a step across a layer (between candidates) and along it (between wrapped sub-columns)
  const across = tb ? CARD_WIDTH + SIBLING_GAP.tb : CARD_HEIGHT + SIBLING_GAP.lr;
  const along = tb ? CARD_HEIGHT + WRAP_GAP : CARD_WIDTH + WRAP_GAP;
  const largest = Math.max(0, ...[...layers.values()].map((l) => l.length));
  // the largest layer's block about square: perLine * across ~ lines * along
  const perLine = Math.max(6, Math.ceil(Math.sqrt((largest * along) / across)));
  let offset = 0; // where the next depth's block starts, along the depth axis
  for (const depth of [...layers.keys()].sort((a, b) => a - b)) {
    const layer = layers.get(depth) as LayerItem[];
    const sorted = layer
      .map((item, index) => ({ item, index }))
      .sort((a, b) => (b.item.score ?? -Infinity) - (a.item.score ?? -Infinity) || a.index - b.index)
      .map((e) => e.item);
    const lines = Math.ceil(sorted.length / perLine);
    const inLine = Math.min(sorted.length, perLine);
    const start = (-(inLine - 1) * across) / 2;
    sorted.forEach((item, i) => {
      const a = start + (i % perLine) * across;
      const b = offset + Math.floor(i / perLine) * along;
      positions.set(item.id, tb ? { x: a - CARD_WIDTH / 2, y: b } : { x: b, y: a - CARD_HEIGHT / 2 });
    });
    const block = (lines - 1) * along + (tb ? CARD_HEIGHT : CARD_WIDTH);
    offset += block + (tb ? DEPTH_GAP.tb : DEPTH_GAP.lr);
  }
  return { positions, bounds: boundsOf(positions) };
}
