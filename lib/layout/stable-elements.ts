/**
 * Keeps React Flow's node and edge objects the same from one frame to the next when nothing about them changed.
 * React Flow re-measures a node whose object is new and a memoized node component re-renders when its props are
 * new, so rebuilding every object per frame (as a growing tree would) costs a measure and a render of every card.
 * Pure; the cache belongs to one canvas.
 */
import type { Edge } from '@xyflow/react';
import type { RunFlowNode } from './flow-types';

function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => {
    const x = a[k];
    const y = b[k];
    if (Array.isArray(x) && Array.isArray(y)) return x.length === y.length && x.every((v, i) => v === y[i]);
    return x === y;
  });
}

const sameNode = (a: RunFlowNode, b: RunFlowNode) =>
  a.type === b.type &&
  a.selected === b.selected &&
  a.className === b.className &&
  a.position.x === b.position.x &&
  a.position.y === b.position.y &&
  shallowEqual(a.data as Record<string, unknown>, b.data as Record<string, unknown>);

const sameEdge = (a: Edge, b: Edge) =>
  a.source === b.source &&
  a.target === b.target &&
  a.type === b.type &&
  a.className === b.className &&
  a.animated === b.animated &&
  a.label === b.label;

export interface ElementCache {
  nodes: Map<string, RunFlowNode>;
  edges: Map<string, Edge>;
}

export const createElementCache = (): ElementCache => ({ nodes: new Map(), edges: new Map() });

type Measured = { width?: number; height?: number } | undefined;

/**
 * The same lists, with every element that equals last frame's replaced by last frame's object. A node that did
 * change (it moved as the tree grew) carries the size React Flow measured for it, so it is not measured again.
 */
export function stabilize(
  cache: ElementCache,
  nodes: RunFlowNode[],
  edges: Edge[],
  measuredOf: (id: string) => Measured = () => undefined,
): { nodes: RunFlowNode[]; edges: Edge[] } {
  const nextNodes = new Map<string, RunFlowNode>();
  const stableNodes = nodes.map((node) => {
    const previous = cache.nodes.get(node.id);
    if (previous && sameNode(previous, node)) {
      nextNodes.set(node.id, previous);
      return previous;
    }
    const measured = measuredOf(node.id);
    const kept =
      measured?.width && measured.height
        ? { ...node, measured: { width: measured.width, height: measured.height } }
        : node;
    nextNodes.set(node.id, kept);
    return kept;
  });
  const nextEdges = new Map<string, Edge>();
  const stableEdges = edges.map((edge) => {
    const previous = cache.edges.get(edge.id);
    const kept = previous && sameEdge(previous, edge) ? previous : edge;
    nextEdges.set(edge.id, kept);
    return kept;
  });
  cache.nodes = nextNodes;
  cache.edges = nextEdges;
  return { nodes: stableNodes, edges: stableEdges };
}
