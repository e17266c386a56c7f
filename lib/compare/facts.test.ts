import { describe, expect, it } from 'vitest';
import { createEmptyTree, resolveConfig, type ThoughtTree } from '../engine/index';
import { RUN_FACTS, sharedText } from './facts';

const fact = (tree: ThoughtTree, label: string) => RUN_FACTS.find((f) => f.label === label)?.value(tree);

describe('the compare table', () => {
  it("reads a finished run's cost, duration, tokens and verdict the way the rest of the app does", () => {
    const tree = createEmptyTree('a');
    tree.status = 'finished';
    tree.finishReason = 'terminated';
    tree.startedAt = 1_000;
    tree.finishedAt = 5_250;
    tree.verified = true;
    tree.stats.cost = 0.0042;
    tree.stats.unpricedCalls = 0;
    tree.stats.tokenUsage.totalTokens = 12_345;
    expect(fact(tree, 'status')).toBe('finished (terminated)');
    expect(fact(tree, 'duration')).toBe('4.2 s');
    expect(fact(tree, 'tokens')).toBe('12,345');
    expect(fact(tree, 'cost')).toBe('$0.0042');
    expect(fact(tree, 'verified answer')).toBe('✓ yes');
  });

  it('says a run with no price is unpriced and a run not finished has no duration or verdict', () => {
    const tree = createEmptyTree('b');
    tree.startedAt = 1_000;
    tree.stats.unpricedCalls = 3;
    expect(fact(tree, 'cost')).toBe('unpriced');
    expect(fact(tree, 'duration')).toBe('—');
    expect(fact(tree, 'verified answer')).toBe('—');
    expect(fact(tree, 'output')).toBe('—');
  });

  it('names how much the other run shares, the goal alone in words', () => {
    expect(sharedText(1)).toBe('1 node (the goal)');
    expect(sharedText(12)).toBe('12 nodes');
  });

  it("gives a search Arborist does not run its own config as its strategy, never the engine's defaults its run stores", () => {
    const tree = createEmptyTree('c');
    tree.agentName = 'py-tot';
    tree.external = { config: { beam: 3, evaluator: 'vote' }, commands: [] };
    expect(fact(tree, 'strategy')).toBe('external: py-tot · beam 3 · evaluator vote');
    tree.agentName = 'external'; // no agent given
    tree.external = { config: {}, commands: [] };
    expect(fact(tree, 'strategy')).toBe('external · no config given');
  });

  it("says an engine run's search: a beam's width, an MCTS run's iterations, c, rollout and rules instead", () => {
    const tree = createEmptyTree('d');
    tree.config = resolveConfig({ maxDepth: 4, branchFactor: 3, beamWidth: 2 });
    expect(fact(tree, 'strategy')).toBe('beam · depth 4 · b3 · w2');
    tree.config = resolveConfig({ explorationStrategy: 'mcts', maxDepth: 4, mctsIterations: 80, mctsBackup: 'max' });
    expect(fact(tree, 'strategy')).toBe(
      'mcts · depth 4 · b3 · 80 iterations · c 1.414 · rollout 0 · Q max · best by visits',
    );
  });
});
