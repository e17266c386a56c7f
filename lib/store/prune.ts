import { subtreeIds, type ThoughtTree } from '../engine/index';

/** A prune of more nodes than this asks first. */
export const PRUNE_ASK_ABOVE = 3;

/** How many nodes pruning `nodeId` marks pruned (0 when it is missing, the root, or already dead). */
export function pruneReach(tree: ThoughtTree, nodeId: string): number {
  const top = tree.nodes[nodeId];
  if (!top || top.parentId === null) return 0;
  let count = 0;
  for (const id of subtreeIds(tree, nodeId)) {
    const status = tree.nodes[id]?.status;
    if (status !== 'failed' && status !== 'pruned') count++;
  }
  return count;
}
