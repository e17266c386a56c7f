// The run row's summary: what the runs list's numbers mean (issue 10, item 9: one meaning for "score").
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../engine/events';
import { ThoughtTreeExecutor } from '../engine/executor';
import { ScriptedTreeModel, type TreeSpec } from '../engine/testing';
import { foldForSummary, summarizeTree } from './run-summary';

// root -> A .7, B .6 ; A -> A1 .6 ; B -> B1 .75: every path total (A+A1 1.3, B+B1 1.35) is above 1
const TREE: TreeSpec = {
  children: { '': ['A', 'B'], A: ['A1'], B: ['B1'] },
  scores: { A: 0.7, B: 0.6, A1: 0.6, B1: 0.75 },
};

async function recordedRun(): Promise<ExplorationEvent[]> {
  const events: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor({ maxDepth: 2, branchFactor: 2, beamWidth: 2 }).explore(
    { name: 'tester', model: new ScriptedTreeModel(TREE) },
    'Plan a migration',
    { onEvent: (e) => events.push(e) },
  );
  return events;
}

describe('bestScore: the best node own score (0..1), the number its card shows', () => {
  it('is the finished run best node score, never a sum along its path', async () => {
    const events = await recordedRun();
    const { tree, bestScore } = foldForSummary('r1', events);
    const patch = summarizeTree(tree, bestScore);
    const best = tree.nodes[tree.bestNodeId ?? ''];
    expect(best?.score?.composite).toBeDefined();
    expect(patch.bestScore).toBeCloseTo(best?.score?.composite ?? NaN, 10);
    expect(patch.bestScore).toBeLessThanOrEqual(1);
  });

  it('while running, is the highest score of a completed node so far (within 0..1)', async () => {
    const events = await recordedRun();
    const cut = events.findLastIndex((e) => e.type === 'node.completed');
    const { tree, bestScore } = foldForSummary('r1', events.slice(0, cut + 1));
    const completed = Object.values(tree.nodes).filter((n) => n.status === 'completed' && n.parentId !== null);
    expect(completed.length).toBeGreaterThan(1);
    expect(summarizeTree(tree, bestScore).bestScore).toBeCloseTo(
      Math.max(...completed.map((n) => n.score?.composite ?? 0)),
      10,
    );
  });
});
