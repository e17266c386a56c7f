/**
 * What "best" means (issue 10, item 8): the best completed node, verified first; a node that failed its verification
 * is never best, and a tree with no completed node has none. One definition (findBestNode), used by the executor for
 * run.finished and by the browser's store for the badge while a run is live.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedTreeModel, type TreeSpec } from '../models/index';
import { createRunStore } from '../store/index';
import { ThoughtTreeExecutor } from './executor';
import { openGoalTask } from './prompts';
import { handBuiltLog as log } from './testing';
import { findBestNode, fold } from './tree';
import type { ThoughtTask } from './types';

describe('findBestNode', () => {
  it('never picks a node that failed its verification, even the highest scored', () => {
    const { events, child, complete, fail } = log();
    child('n1', 0.9);
    child('n2', 0.4);
    fail('n1');
    complete('n2');
    expect(findBestNode(fold(events))?.id).toBe('n2');
  });

  it('is none while no node has completed (a failed or pending node is not "best so far")', () => {
    const { events, child, fail } = log();
    child('n1', 0.9);
    child('n2', 0.4);
    fail('n1');
    expect(findBestNode(fold(events))).toBeNull();
  });

  it('prefers a verified node to a higher-scored one no check has passed', () => {
    const { events, child, complete } = log();
    child('n1', 0.9);
    child('n2', 0.4);
    complete('n1');
    complete('n2', true);
    expect(findBestNode(fold(events))?.id).toBe('n2');
  });

  it('prefers a verified answer to a higher-scored verified step that is not one (a code change passing every test)', () => {
    const { events, add, child, complete } = log();
    child('n1', 0.9);
    child('n2', 0.4);
    add('node.started', { nodeId: 'n1', mode: 'execute' });
    add('node.completed', { nodeId: 'n1', result: { response: 'half done', iterations: 0, isAnswer: false } });
    add('node.verified', { nodeId: 'n1', passed: true, trace: 'no test broke' });
    complete('n2', true);
    expect(findBestNode(fold(events))?.id).toBe('n2');
  });

  it('skips a completed node whose verification failed (as an imported log can hold)', () => {
    const { events, child, complete } = log();
    child('n1', 0.9);
    child('n2', 0.4);
    complete('n1', false);
    complete('n2');
    expect(findBestNode(fold(events))?.id).toBe('n2');
  });

  it('keeps a node whose run completed when its expansion dead-ends later: its result stands', () => {
    const { events, add, child, complete } = log();
    child('n1', 0.9);
    child('n2', 0.4);
    complete('n1', true);
    complete('n2');
    add('node.started', { nodeId: 'n1', mode: 'expand' });
    add('node.failed', { nodeId: 'n1', reason: 'all 3 candidates scored below the threshold 0.30' });
    expect(findBestNode(fold(events))?.id).toBe('n1');
  });

  it('skips a pruned node', () => {
    const { events, add, child, complete } = log();
    child('n1', 0.9);
    child('n2', 0.4);
    complete('n1');
    complete('n2');
    add('steer.prune', { nodeId: 'n1', actor: 'alice' });
    expect(findBestNode(fold(events))?.id).toBe('n2');
  });

  it('gives the live badge in the browser store the same answer', () => {
    const { events, child, fail } = log();
    child('n1', 0.9);
    fail('n1');
    const store = createRunStore('r', (cb) => cb());
    store.getState().receiveMany(events);
    expect(store.getState().bestNodeId).toBeNull();
  });
});

describe("the run's winner", () => {
  it('is never a node that failed verification: no completed node means no winner and no success', async () => {
    const spec: TreeSpec = { children: { '': ['A', 'B'] }, scores: { A: 0.7, B: 0.6 } };
    const task: ThoughtTask = { ...openGoalTask, verify: () => ({ passed: false, trace: 'wrong' }) };
    const result = await new ThoughtTreeExecutor({ maxDepth: 1 }).explore(
      { name: 't', model: new ScriptedTreeModel(spec) },
      'goal',
      { task },
    );
    expect(result.tree.bestNodeId).toBeNull();
    expect(result.bestPath).toEqual([]);
    expect(result.success).toBe(false);
    expect(result.output).toBe('');
  });
});
