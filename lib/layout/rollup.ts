/**
 * Per-subtree totals: what a branch cost, in tokens, calls, dollars and model time, how many nodes it holds, how
 * many verified answers it found and the best score in it. One pass over the tree (children always come after their parent in
 * nodeOrder, so walking it backwards adds every child into its parent before the parent is read).
 * Pure and React-free; feeds summary cards, the inspector ("this branch cost $0.41, 38% of the run") and the
 * overview's cost colouring. Not responsible for formatting (the components) or for what a node's own usage is
 * (reduce keeps node.usage).
 */
import type { ThoughtNode, ThoughtTree } from '../engine/index';
import { isSearchPruned } from './node-status';

export interface SubtreeRollup {
  /** Nodes in the subtree, itself included. */
  nodes: number;
  /** Dollars of the priced calls made for the subtree's nodes. */
  cost: number;
  /** Calls on a model with no price (their cost is not in `cost`). */
  unpricedCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Model calls made for the subtree's nodes (generation, evaluation and execution). */
  modelCalls: number;
  /** Nodes that are answers to the goal and passed the task's verification. */
  verifiedAnswers: number;
  /** The highest composite score in the subtree (the node's own included); null when none is scored. */
  bestComposite: number | null;
  /** Nodes that failed or were pruned by a person (not those the search pruned by its own rule: not dead ends). */
  deadEnds: number;
  /**
   * Milliseconds the subtree's model calls took, summed (node.modelMs): attributed as cost is, so it adds up
   * across branches to the run's model time; not the wall-clock span, which other branches and pauses overlap.
   */
  elapsedMs: number;
}

export function isVerifiedAnswer(node: ThoughtNode): boolean {
  return node.status === 'completed' && node.verification?.passed === true && node.result?.isAnswer === true;
}

function own(node: ThoughtNode): SubtreeRollup {
  return {
    nodes: 1,
    cost: node.usage.cost,
    unpricedCalls: node.usage.unpricedCalls,
    inputTokens: node.usage.inputTokens,
    outputTokens: node.usage.outputTokens,
    modelCalls: node.modelCallSeqs.length,
    verifiedAnswers: isVerifiedAnswer(node) ? 1 : 0,
    bestComposite: node.score?.composite ?? null,
    deadEnds: node.status === 'failed' || (node.status === 'pruned' && !isSearchPruned(node)) ? 1 : 0,
    elapsedMs: node.modelMs,
  };
}

function addInto(total: SubtreeRollup, part: SubtreeRollup): void {
  total.nodes += part.nodes;
  total.cost += part.cost;
  total.unpricedCalls += part.unpricedCalls;
  total.inputTokens += part.inputTokens;
  total.outputTokens += part.outputTokens;
  total.modelCalls += part.modelCalls;
  total.verifiedAnswers += part.verifiedAnswers;
  total.deadEnds += part.deadEnds;
  total.elapsedMs += part.elapsedMs;
  if (part.bestComposite !== null && (total.bestComposite === null || part.bestComposite > total.bestComposite))
    total.bestComposite = part.bestComposite;
}

/** The totals of every node's subtree, by node id. Linear in the tree. */
export function subtreeRollups(tree: ThoughtTree): Map<string, SubtreeRollup> {
  const rollups = new Map<string, SubtreeRollup>();
  for (let i = tree.nodeOrder.length - 1; i >= 0; i--) {
    const node = tree.nodes[tree.nodeOrder[i] as string];
    if (!node) continue;
    const total = own(node);
    for (const childId of node.childIds) {
      const child = rollups.get(childId);
      if (child) addInto(total, child);
    }
    rollups.set(node.id, total);
  }
  return rollups;
}

const memo = new WeakMap<ThoughtTree, { lastSeq: number; rollups: Map<string, SubtreeRollup> }>();

/**
 * subtreeRollups, computed once per tree version and shared by every reader (inspector, cards, overview). The
 * store's live tree is updated in place, but reduce moves lastSeq with every event, so (tree, lastSeq) names a
 * version; a past tree (time travel) is its own object.
 */
export function rollupsFor(tree: ThoughtTree): ReadonlyMap<string, SubtreeRollup> {
  const hit = memo.get(tree);
  if (hit && hit.lastSeq === tree.lastSeq) return hit.rollups;
  const rollups = subtreeRollups(tree);
  memo.set(tree, { lastSeq: tree.lastSeq, rollups });
  return rollups;
}

/** The totals of several subtrees together (a summary card standing for some siblings). */
export function sumRollups(parts: Iterable<SubtreeRollup | undefined>): SubtreeRollup {
  const total: SubtreeRollup = {
    nodes: 0,
    cost: 0,
    unpricedCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    modelCalls: 0,
    verifiedAnswers: 0,
    bestComposite: null,
    deadEnds: 0,
    elapsedMs: 0,
  };
  for (const part of parts) if (part) addInto(total, part);
  return total;
}
