// The cost estimate's bound when no run is known: the nodes a search of a config may run, by its strategy.
import { describe, expect, it } from 'vitest';
import { MCTS_DEFAULTS, resolveConfig } from '../../engine/index';
import { nodeBound } from './estimate';

describe('nodeBound', () => {
  it('bounds a beam by its levels of beamWidth, best-first and dfs by the node cap', () => {
    expect(nodeBound(resolveConfig({ maxDepth: 4, beamWidth: 2, maxTotalNodes: 50 }))).toBe(8);
    expect(nodeBound(resolveConfig({ explorationStrategy: 'best-first', maxTotalNodes: 30 }))).toBe(30);
    expect(nodeBound(resolveConfig({ explorationStrategy: 'dfs', maxTotalNodes: 30 }))).toBe(30);
  });

  it('bounds an MCTS run by its iterations, each one node and its rollout, within the node cap', () => {
    const mcts = (patch: Parameters<typeof resolveConfig>[0]) =>
      nodeBound(resolveConfig({ explorationStrategy: 'mcts', maxTotalNodes: 1000, ...patch }));
    expect(mcts({ mctsIterations: 40 })).toBe(40);
    expect(mcts({ mctsIterations: 40, mctsRolloutDepth: 2 })).toBe(120);
    expect(mcts({ mctsIterations: 40, maxTotalNodes: 25 })).toBe(25);
    // a stored config without the mcts fields runs with MCTS_DEFAULTS
    const stored = { ...resolveConfig({ maxTotalNodes: 1000 }), explorationStrategy: 'mcts' as const };
    expect(nodeBound(stored)).toBe(MCTS_DEFAULTS.mctsIterations * (1 + MCTS_DEFAULTS.mctsRolloutDepth));
  });
});
