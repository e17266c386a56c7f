/**
 * Two runs compared as a diff: each run's best path (root to its best node) with the steps the other run shares
 * marked, the first node on each best path that the other run does not have (where they diverge), and the nodes only
 * one of them has. Nodes are matched by their path of thoughts from the goal (lib/layout/shared-prefix.ts), since ids
 * differ between runs (a fork renumbers them). Pure and React-free.
 * Not responsible for drawing (components/compare) or for stats (each tree carries its own).
 */
import { markedBestNode, type NodeStatus, pathTo, type ThoughtTree } from '../engine/index';
import { sharedPrefix } from '../layout/index';

export interface PathStep {
  nodeId: string;
  depth: number;
  /** The node's thought; the goal for the root. */
  thought: string;
  /** The node's own score (composite, 0..1); null for the root and unscored nodes. */
  score: number | null;
  status: NodeStatus;
  /** The verifier's verdict on it, null when not checked. */
  verified: boolean | null;
  /** The other run has this step (the same path of thoughts from the goal). */
  shared: boolean;
}

export interface RunDiff {
  bestPathA: PathStep[];
  bestPathB: PathStep[];
  /** On each best path, the first step the other run does not have; null when the whole path is in the other. */
  divergence: { a: PathStep | null; b: PathStep | null };
  /** Node ids only in A (resp. B), in the order they appeared. */
  onlyA: string[];
  onlyB: string[];
  /** How many nodes of each run the other has too. */
  sharedA: number;
  sharedB: number;
  /** The shared node ids of each side, for marking them on the canvases. */
  shared: { a: ReadonlySet<string>; b: ReadonlySet<string> };
}

function bestPath(tree: ThoughtTree, shared: ReadonlySet<string>): PathStep[] {
  // the run's own pick once finished; while it runs, the engine's rule for the best so far
  const bestId = markedBestNode(tree)?.id ?? null;
  if (!bestId) return [];
  return pathTo(tree, bestId).map((node) => ({
    nodeId: node.id,
    depth: node.depth,
    thought: node.parentId === null ? tree.goal : (node.branch?.thought ?? ''),
    score: node.score?.composite ?? null,
    status: node.status,
    verified: node.verification ? node.verification.passed : null,
    shared: shared.has(node.id),
  }));
}

export function diffRuns(a: ThoughtTree, b: ThoughtTree): RunDiff {
  const shared = sharedPrefix(a, b);
  const bestPathA = bestPath(a, shared.a);
  const bestPathB = bestPath(b, shared.b);
  return {
    bestPathA,
    bestPathB,
    divergence: {
      a: bestPathA.find((step) => !step.shared) ?? null,
      b: bestPathB.find((step) => !step.shared) ?? null,
    },
    onlyA: a.nodeOrder.filter((id) => !shared.a.has(id)),
    onlyB: b.nodeOrder.filter((id) => !shared.b.has(id)),
    sharedA: shared.a.size,
    sharedB: shared.b.size,
    shared,
  };
}
