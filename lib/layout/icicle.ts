/**
 * The overview's geometry: an icicle (partition) layout of the whole tree in unit space, as flat typed arrays so
 * that 100k nodes cost a few megabytes and a few milliseconds. Depth runs down (row d is depth d, the root's row is
 * 0); each node's cell spans [x0, x1) of [0, 1); its children tile its span exactly, left to right in the tree's
 * child order, each as wide as its share of the children's subtree node counts (so siblings' widths are
 * proportional to their subtree sizes and no space goes to a parent's "own" part).
 * This is d3-hierarchy's partition with that one change (d3 either sizes by leaf count, or, summing a value per
 * node, leaves each parent's own value as a gap); doing it here in two linear passes avoids an object per node.
 * Also here: hit-testing by binary search in a depth row, the culled list of what to draw in a row at a given pixel
 * width, and where the nodes the canvas has in view lie, row by row.
 * Pure and React-free; not responsible for colours or drawing (components/run/overview) nor for the canvas's own
 * layout (tidy.ts, published through lib/store/page-view.ts).
 */
import type { ThoughtNode, ThoughtTree } from '../engine/index';
import type { CanvasLayout } from './canvas-layout';

export interface IcicleLayout {
  /** Cell index -> node id; cells are numbered in depth-first pre-order (the root is 0). */
  ids: readonly string[];
  /** Cell index -> the node as it was when the layout was computed (for colours and tooltips, no lookups by id). */
  nodes: readonly ThoughtNode[];
  indexOf: ReadonlyMap<string, number>;
  x0: Float64Array;
  x1: Float64Array;
  depth: Uint16Array;
  /** Parent cell, -1 for the root. */
  parent: Int32Array;
  /** Nodes in the cell's subtree, itself included. */
  size: Uint32Array;
  /** Cell indices of each depth row, sorted by x0 (pre-order visits a row left to right). */
  rows: readonly Int32Array[];
}

const EMPTY: IcicleLayout = {
  ids: [],
  nodes: [],
  indexOf: new Map(),
  x0: new Float64Array(0),
  x1: new Float64Array(0),
  depth: new Uint16Array(0),
  parent: new Int32Array(0),
  size: new Uint32Array(0),
  rows: [],
};

/**
 * The icicle of every node reachable from the root. Linear in the tree, on integer arrays: the nodes are looked
 * up by id once each (a first version walking objects and maps took 250-400 ms at 100k nodes).
 */
export function computeIcicle(tree: ThoughtTree): IcicleLayout {
  const order = tree.nodeOrder;
  const m = order.length;
  // 1. creation order k -> node, and the children as index lists (compressed rows)
  const ordOf = new Map<string, number>();
  const nodes: (ThoughtNode | undefined)[] = new Array<ThoughtNode | undefined>(m);
  const childStart = new Int32Array(m + 1);
  for (let k = 0; k < m; k++) {
    const id = order[k] as string;
    const node = tree.nodes[id];
    nodes[k] = node;
    ordOf.set(id, k);
    childStart[k + 1] = childStart[k]! + (node?.childIds.length ?? 0);
  }
  const rootOrd = tree.rootId ? ordOf.get(tree.rootId) : undefined;
  if (rootOrd === undefined || !nodes[rootOrd]) return EMPTY;
  const childList = new Int32Array(childStart[m]!);
  for (let k = 0; k < m; k++) {
    const childIds = nodes[k]?.childIds ?? [];
    for (let c = 0; c < childIds.length; c++) childList[childStart[k]! + c] = ordOf.get(childIds[c]!) ?? -1;
  }
  // 2. subtree sizes, children before parents (nodeOrder puts a parent before its children)
  const sub = new Int32Array(m);
  for (let k = m - 1; k >= 0; k--) {
    let size = nodes[k] ? 1 : 0;
    for (let e = childStart[k]!; e < childStart[k + 1]!; e++) {
      const c = childList[e]!;
      if (c > k) size += sub[c]!;
    }
    sub[k] = size;
  }
  // 3. pre-order with an explicit stack (a 100k-deep chain must not overflow the call stack); a node's span is
  //    set by its parent when pushed
  const n = sub[rootOrd]!;
  const ids: string[] = new Array<string>(n);
  const cellNodes: ThoughtNode[] = new Array<ThoughtNode>(n);
  const indexOf = new Map<string, number>();
  const x0 = new Float64Array(n);
  const x1 = new Float64Array(n);
  const depth = new Uint16Array(n);
  const parent = new Int32Array(n);
  const size = new Uint32Array(n);
  const ox0 = new Float64Array(m);
  const ox1 = new Float64Array(m);
  const odepth = new Int32Array(m);
  const oparent = new Int32Array(m);
  const seen = new Uint8Array(m);
  const stack = new Int32Array(childList.length + 1);
  let top = 0;
  stack[top++] = rootOrd;
  ox1[rootOrd] = 1;
  oparent[rootOrd] = -1;
  let next = 0;
  let rowCount = 0;
  while (top > 0) {
    const k = stack[--top]!;
    if (seen[k] || next >= n) continue;
    seen[k] = 1;
    const i = next++;
    ids[i] = order[k] as string;
    cellNodes[i] = nodes[k] as ThoughtNode;
    indexOf.set(ids[i], i);
    x0[i] = ox0[k]!;
    x1[i] = ox1[k]!;
    depth[i] = odepth[k]!;
    parent[i] = oparent[k]!;
    size[i] = sub[k]!;
    rowCount = Math.max(rowCount, odepth[k]! + 1);
    const childTotal = sub[k]! - 1;
    if (childTotal <= 0) continue;
    const span = x1[i]! - x0[i]!;
    // children pushed right to left so the leftmost is visited first; the last one ends exactly at x1
    let right = x1[i]!;
    let before = childTotal;
    for (let e = childStart[k + 1]! - 1; e >= childStart[k]!; e--) {
      const c = childList[e]!;
      if (c <= k || seen[c]) continue;
      before -= sub[c]!;
      const left = before <= 0 ? x0[i]! : x0[i]! + (span * before) / childTotal;
      ox0[c] = left;
      ox1[c] = right;
      odepth[c] = odepth[k]! + 1;
      oparent[c] = i;
      stack[top++] = c;
      right = left;
    }
  }
  // 4. rows: pre-order meets each row's cells left to right
  const rowSizes = new Int32Array(rowCount);
  for (let i = 0; i < next; i++) rowSizes[depth[i]!]!++;
  const rows = Array.from(rowSizes, (len) => new Int32Array(len));
  const filled = new Int32Array(rowCount);
  for (let i = 0; i < next; i++) {
    const d = depth[i]!;
    rows[d]![filled[d]!++] = i;
  }
  if (next === n) return { ids, nodes: cellNodes, indexOf, x0, x1, depth, parent, size, rows };
  // a malformed tree (a node listed twice): keep what was placed
  return {
    ids: ids.slice(0, next),
    nodes: cellNodes.slice(0, next),
    indexOf,
    x0: x0.slice(0, next),
    x1: x1.slice(0, next),
    depth: depth.slice(0, next),
    parent: parent.slice(0, next),
    size: size.slice(0, next),
    rows,
  };
}

/** The first position in `row` whose cell ends after u (cells in a row are disjoint and sorted, so x1 is too). */
function firstEndingAfter(layout: IcicleLayout, row: Int32Array, u: number): number {
  let lo = 0;
  let hi = row.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (layout.x1[row[mid] as number]! <= u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The cell at horizontal position u (0..1) of depth row d, or -1 where that row has none. O(log row). */
export function icicleCellAt(layout: IcicleLayout, u: number, d: number): number {
  const row = layout.rows[d];
  if (!row || !(u >= 0 && u < 1)) return -1;
  const at = firstEndingAfter(layout, row, u);
  const cell = row[at];
  if (cell === undefined || layout.x0[cell]! > u) return -1;
  return cell;
}

/**
 * What to draw of depth row d across `width` pixels: calls draw(cell, px0, px1) left to right with at most one call
 * per pixel column. A cell narrower than a pixel still gets a one-pixel sliver unless the previous sliver already
 * covers that pixel, so a subtree never vanishes; the cells skipped are the ones sharing a pixel with their left
 * neighbour. Jumps over them by binary search: the cost is O(min(row, width) log row), not O(row).
 */
export function forEachDrawnCell(
  layout: IcicleLayout,
  d: number,
  width: number,
  draw: (cell: number, px0: number, px1: number) => void,
): void {
  const row = layout.rows[d];
  if (!row || width <= 0) return;
  let covered = -Infinity; // pixels left of this are drawn
  let at = 0;
  while (at < row.length) {
    const cell = row[at] as number;
    const px0 = Math.max(layout.x0[cell]! * width, covered);
    const px1 = Math.max(layout.x1[cell]! * width, px0 + 1);
    draw(cell, px0, px1);
    covered = Math.max(px1, Math.floor(px0) + 1);
    // the next cell that reaches past the covered pixels
    at = Math.max(at + 1, firstEndingAfter(layout, row, covered / width));
  }
}

/** The index of the node's cell, or of its nearest placed ancestor (undefined when neither is in the layout). */
export function cellOf(layout: IcicleLayout, tree: ThoughtTree, nodeId: string): number | undefined {
  let id: string | null = nodeId;
  while (id) {
    const i = layout.indexOf.get(id);
    if (i !== undefined) return i;
    id = tree.nodes[id]?.parentId ?? null;
  }
  return undefined;
}

/** Every cell of the subtree under `cell` (pre-order numbering keeps a subtree contiguous). */
export function subtreeCells(layout: IcicleLayout, cell: number): { from: number; to: number } {
  return { from: cell, to: cell + (layout.size[cell] ?? 1) };
}

/** A subtree bigger than this is framed as the node and its children: thousands of cards fit only as specks. */
export const MAX_FRAMED = 200;

/** The node ids to frame for a clicked cell: its whole subtree, or, when that is too big, the node and its children. */
export function framedIds(layout: IcicleLayout, tree: ThoughtTree, cell: number): string[] {
  const { from, to } = subtreeCells(layout, cell);
  if (to - from <= MAX_FRAMED) return layout.ids.slice(from, to) as string[];
  const id = layout.ids[cell] as string;
  const children = tree.nodes[id]?.childIds ?? [];
  return children.length < MAX_FRAMED ? [id, ...children] : [id];
}

/**
 * The cell an arrow key moves to from `cell`: up its parent, down its first child, left and right the neighbouring
 * cell of its row; -1 when there is none that way.
 */
export function icicleNeighbour(
  layout: IcicleLayout,
  cell: number,
  direction: 'up' | 'down' | 'left' | 'right',
): number {
  if (direction === 'up') return layout.parent[cell] ?? -1;
  if (direction === 'down') return layout.parent[cell + 1] === cell ? cell + 1 : -1;
  const row = layout.rows[layout.depth[cell] ?? 0];
  const at = row ? row.indexOf(cell) : -1;
  const to = row?.[at + (direction === 'left' ? -1 : 1)];
  return at >= 0 && to !== undefined ? to : -1;
}

/**
 * What of the icicle the canvas has in view, row by row: depth row d0 + r spans [x0[r], x1[r]). Per row rather than
 * one bounding box because ancestors are wide: with the root in view a box would always span the whole width,
 * while the rows below show which branches are actually on screen.
 */
export interface ViewExtent {
  d0: number;
  x0: number[];
  x1: number[];
}

export interface Viewport {
  /** React Flow's transform: screen = flow * zoom + (tx, ty). */
  tx: number;
  ty: number;
  zoom: number;
  /** The pane's size in screen pixels. */
  width: number;
  height: number;
}

/** Visible item id -> the node ids it stands for (the inverse of CanvasLayout.itemOf), built once per layout. */
export function nodesByItem(canvas: CanvasLayout): Map<string, string[]> {
  const byItem = new Map<string, string[]>();
  for (const [nodeId, itemId] of canvas.itemOf) {
    const list = byItem.get(itemId);
    if (list) list.push(nodeId);
    else byItem.set(itemId, [nodeId]);
  }
  return byItem;
}

/**
 * Where the nodes whose canvas items are (partly) in the viewport lie on the icicle, row by row; null when none is.
 * A row between two rows in view with no cell of its own in view (a long edge crossing the screen) takes the
 * extent of the row above, so the outline stays one piece. Linear in the canvas's visible items.
 */
export function viewExtent(
  layout: IcicleLayout,
  canvas: CanvasLayout,
  byItem: ReadonlyMap<string, readonly string[]>,
  view: Viewport,
): ViewExtent | null {
  if (view.zoom <= 0 || view.width <= 0 || view.height <= 0) return null;
  const left = -view.tx / view.zoom;
  const top = -view.ty / view.zoom;
  const right = left + view.width / view.zoom;
  const bottom = top + view.height / view.zoom;
  const lo = new Map<number, number>();
  const hi = new Map<number, number>();
  for (const [itemId, p] of canvas.positions) {
    if (p.x > right || p.y > bottom || p.x + canvas.itemWidth < left || p.y + canvas.itemHeight < top) continue;
    for (const nodeId of byItem.get(itemId) ?? []) {
      const i = layout.indexOf.get(nodeId);
      if (i === undefined) continue;
      const d = layout.depth[i]!;
      lo.set(d, Math.min(lo.get(d) ?? Infinity, layout.x0[i]!));
      hi.set(d, Math.max(hi.get(d) ?? -Infinity, layout.x1[i]!));
    }
  }
  if (lo.size === 0) return null;
  const d0 = Math.min(...lo.keys());
  const d1 = Math.max(...lo.keys());
  const extent: ViewExtent = { d0, x0: [], x1: [] };
  for (let d = d0; d <= d1; d++) {
    extent.x0.push(lo.get(d) ?? (extent.x0.at(-1) as number));
    extent.x1.push(hi.get(d) ?? (extent.x1.at(-1) as number));
  }
  return extent;
}
