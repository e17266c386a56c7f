/**
 * A pure tidy-tree layout (d3-hierarchy's tree with a fixed node size): a node's row is its depth, siblings keep
 * their creation order, and the same tree always gives the same positions. Linear time, so it can run on every
 * frame of a growing tree. Positions are node centres in canvas pixels, the root at (0, 0).
 * Not responsible for drawing or animating (components/run), nor for which nodes are shown (the caller filters).
 */
import { hierarchy, tree as d3tree } from 'd3-hierarchy';

export interface LayoutNode {
  id: string;
  childIds: readonly string[];
}

export interface Position {
  x: number;
  y: number;
}

export interface LayoutOptions {
  nodeWidth: number;
  nodeHeight: number;
  horizontalGap: number;
  verticalGap: number;
}

export const DEFAULT_LAYOUT: LayoutOptions = { nodeWidth: 232, nodeHeight: 92, horizontalGap: 28, verticalGap: 64 };

interface Datum {
  id: string;
  children: Datum[];
}

/** Positions of every node reachable from rootId; `include` hides a node (and its subtree) when false. */
export function layoutTree(
  nodes: Readonly<Record<string, LayoutNode>>,
  rootId: string,
  options: LayoutOptions = DEFAULT_LAYOUT,
  include: (id: string) => boolean = () => true,
): Map<string, Position> {
  const positions = new Map<string, Position>();
  if (!nodes[rootId]) return positions;
  const build = (id: string): Datum => ({
    id,
    children: (nodes[id]?.childIds ?? []).filter((c) => nodes[c] && include(c)).map(build),
  });
  const root = hierarchy<Datum>(build(rootId), (d) => d.children);
  const rowHeight = options.nodeHeight + options.verticalGap;
  d3tree<Datum>()
    .nodeSize([options.nodeWidth + options.horizontalGap, rowHeight])
    .separation((a, b) => (a.parent === b.parent ? 1 : 1.15))(root);
  root.each((n) => positions.set(n.data.id, { x: n.x ?? 0, y: n.depth * rowHeight }));
  return positions;
}
