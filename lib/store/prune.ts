/**
 * What a prune would cut: the nodes of a branch that it marks pruned (those neither failed nor pruned already), the
 * same count the engine's steer.prune adds to its steered prunes. The run page asks before a keyboard prune that cuts
 * more than PRUNE_ASK_ABOVE of them: the engine has no command that undoes a prune (an expand runs a node again but
 * leaves its pruned branch pruned), so a slip of `p` on a big branch is caught before it is sent, not after.
 * Pure; no React. Not responsible for sending the command (useRunCommands) or asking (PruneConfirm).
 */
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
