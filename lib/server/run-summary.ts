/**
 * The run row's summary of a folded tree (status, stats, node counts, cost, best score, and once finished the
 * output and its verdicts): one definition shared by the run manager, which writes it after every batch of a live
 * run, and by imports, which write it once for a whole log. Pure: no I/O.
 * Not responsible for the stored status of runs that are not live (queued, interrupted, failed): callers decide.
 */
import type { ExplorationEvent } from '../engine/events';
import { createEmptyTree, reduce } from '../engine/tree';
import type { ThoughtTree } from '../engine/types';
import type { RunPatch } from './repositories/runs';

/**
 * Run.bestScore has one meaning everywhere: a node's own score (its composite, 0..1, the number its card shows), of
 * the run's best node once finished, and while it runs of the highest-scored node that completed a step so far (kept
 * even if the node fails its verification afterwards; the finished summary then uses the winner's). Never a sum
 * along a path (ThoughtNode.cumulativeScore ranks paths inside the engine, but is not a score a person can compare).
 */
export function bestScoreAfter(current: number | null, tree: ThoughtTree, event: ExplorationEvent): number | null {
  if (event.type !== 'node.completed') return current;
  const score = tree.nodes[event.payload.nodeId]?.score?.composite;
  if (score === undefined) return current;
  return current === null || score > current ? score : current;
}

/** The row's summary of the folded tree; `bestScore` is the running value of bestScoreAfter. */
export function summarizeTree(tree: ThoughtTree, bestScore: number | null): RunPatch {
  const stats = tree.stats;
  const patch: RunPatch = {
    status: tree.status,
    stats,
    exploredNodes: stats.exploredNodes,
    totalNodes: stats.totalNodes,
    cost: stats.cost,
    unpricedCalls: stats.unpricedCalls,
    bestScore,
  };
  if (tree.status === 'finished') {
    const best = tree.bestNodeId ? tree.nodes[tree.bestNodeId] : undefined;
    Object.assign(patch, {
      finishReason: tree.finishReason,
      finishedAt: new Date(tree.finishedAt ?? Date.now()),
      output: tree.output,
      success: tree.success,
      verified: tree.verified,
      bestScore: best?.score ? best.score.composite : bestScore,
    } satisfies RunPatch);
  }
  return patch;
}

/** Folds a whole log, keeping the best score as a live run would have: what a resumed or imported run starts from. */
export function foldForSummary(
  runId: string,
  events: Iterable<ExplorationEvent>,
): { tree: ThoughtTree; bestScore: number | null } {
  const tree = createEmptyTree(runId);
  let bestScore: number | null = null;
  for (const event of events) {
    reduce(tree, event);
    bestScore = bestScoreAfter(bestScore, tree, event);
  }
  return { tree, bestScore };
}
