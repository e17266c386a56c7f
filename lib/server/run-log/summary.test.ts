// The run row's summary: what the runs list's numbers mean (issue 10, item 9: one meaning for "score").
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../../contract/events';
import { findBestNode, fold } from '../../engine/index';
import { ThoughtTreeExecutor } from '../../engine/server';
import { handBuiltLog } from '../../engine/testing';
import { ScriptedTreeModel, type TreeSpec } from '../../models/index';
import { summarizeTree } from './summary';

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
    const tree = fold(events);
    const patch = summarizeTree(tree);
    const best = tree.nodes[tree.bestNodeId ?? ''];
    expect(best?.score?.composite).toBeDefined();
    expect(patch.bestScore).toBeCloseTo(best?.score?.composite ?? NaN, 10);
    expect(patch.bestScore).toBeLessThanOrEqual(1);
  });

  it('while running, is the score of the node the live badge marks (within 0..1)', async () => {
    const events = await recordedRun();
    const cut = events.findLastIndex((e) => e.type === 'node.completed');
    const tree = fold(events.slice(0, cut + 1));
    const badge = findBestNode(tree);
    expect(badge?.score?.composite).toBeDefined();
    expect(summarizeTree(tree).bestScore).toBeCloseTo(badge?.score?.composite ?? NaN, 10);
    expect(summarizeTree(tree).bestScore).toBeLessThanOrEqual(1);
  });
});

describe('bestScore follows the best badge (findBestNode), live and finished', () => {
  it('while running, never counts a node that failed its verification after completing', () => {
    const { events, child, complete, fail } = handBuiltLog();
    child('n1', 0.9);
    child('n2', 0.4);
    fail('n1');
    complete('n2');
    const tree = fold(events);
    expect(summarizeTree(tree).bestScore).toBeCloseTo(0.4, 10);
  });

  it('is none while no node qualifies, and none for a finished run without a winner', () => {
    const { events, add, child, fail } = handBuiltLog();
    child('n1', 0.9);
    fail('n1');
    expect(summarizeTree(fold(events)).bestScore).toBeNull();
    add('run.finished', {
      reason: 'frontier-empty',
      detail: null,
      bestNodeId: null,
      output: '',
      answerSource: 'none',
      success: false,
      verified: false,
    });
    expect(summarizeTree(fold(events)).bestScore).toBeNull();
  });
});
