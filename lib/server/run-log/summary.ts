/**
 * The run row's summary of a folded tree (status, stats, node counts, cost, best score, and once finished the
 * output and its verdicts): one definition shared by the run manager, which writes it after every batch of a live
 * run, and by imports, which write it once for a whole log. Pure: no I/O.
 * The status is the tree's: a run's whole lifecycle is in its log (run.queued, run.interrupted, run.failed too).
 * Not responsible for moving a run between statuses (the run manager writes the lifecycle events).
 */
import { markedBestNode, type ThoughtTree } from '../../engine/index';
import type { RunPatch } from './run-rows';

/**
 * Run.bestScore has one meaning everywhere: the own score (composite, 0..1, the number on its card) of the node the
 * "best" badge marks (markedBestNode: once finished the run's winner, while it runs the best completed node,
 * verified first, never one that failed its check). Never a sum along a path
 * (ThoughtNode.cumulativeScore ranks paths inside the engine, but is not a score a person can compare).
 */
function bestScoreOf(tree: ThoughtTree): number | null {
  return markedBestNode(tree)?.score?.composite ?? null;
}

/** The row's summary of the folded tree. */
export function summarizeTree(tree: ThoughtTree): RunPatch {
  const stats = tree.stats;
  const patch: RunPatch = {
    status: tree.status,
    stats,
    exploredNodes: stats.exploredNodes,
    totalNodes: stats.totalNodes,
    cost: stats.cost,
    unpricedCalls: stats.unpricedCalls,
    bestScore: bestScoreOf(tree),
  };
  if (tree.status === 'finished') {
    Object.assign(patch, {
      finishReason: tree.finishReason,
      finishedAt: new Date(tree.finishedAt ?? Date.now()),
      output: tree.output,
      success: tree.success,
      verified: tree.verified,
    } satisfies RunPatch);
  }
  if (tree.status === 'failed') {
    Object.assign(patch, {
      finishedAt: new Date(tree.finishedAt ?? Date.now()),
      error: tree.failure,
    } satisfies RunPatch);
  }
  return patch;
}
