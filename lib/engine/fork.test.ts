// Forking: a new run starts as the path to a node of another run (optionally with that node's thought edited)
// and continues from there like any run with a log.
import { describe, expect, it } from 'vitest';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import type { ExplorationEvent } from '../contract/events';
import { ThoughtTreeExecutor } from './executor';
import { forkEvents } from './fork';
import { fold, pathTo } from './tree';

const task = getTaskEntry('game24').task;
const agent = () => ({ name: 't', model: createSimulatedModel({ seed: 3 }) });

async function source() {
  return new ThoughtTreeExecutor().explore(agent(), '4 9 10 13', { task });
}

describe('forkEvents', () => {
  it('starts the new tree as the path to the node, copied, not run again', async () => {
    const parent = await source();
    const target = parent.bestPath.at(2) as (typeof parent.bestPath)[number]; // depth 2
    const seed = forkEvents({
      runId: 'fork',
      source: parent.tree,
      nodeId: target.id,
      config: parent.tree.config,
      agentName: 't',
      modelId: 'simulated',
    });
    const tree = fold(seed);
    expect(pathTo(tree, 'n2').map((n) => n.branch?.thought ?? null)).toEqual(
      parent.bestPath.slice(0, 3).map((n) => n.branch?.thought ?? null),
    );
    expect(tree.nodes.n2).toMatchObject({
      status: 'completed',
      result: target.result,
      verification: target.verification,
    });
    expect(tree.stats.exploredNodes).toBe(0);
    expect(Object.values(tree.frontier)).toEqual([expect.objectContaining({ nodeId: 'n2', mode: 'expand' })]);
  });

  it('runs an edited thought afresh, and the fork continues to an answer', async () => {
    const parent = await source();
    const depth1 = parent.bestPath[1] as (typeof parent.bestPath)[number];
    const edited = '10 - 4 = 6 (left: 6 9 13)';
    const seed = forkEvents({
      runId: 'fork',
      source: parent.tree,
      nodeId: depth1.id,
      editedThought: edited,
      config: { ...parent.tree.config, explorationStrategy: 'dfs' },
      agentName: 't',
      modelId: 'simulated',
    });
    expect(fold(seed).nodes.n1).toMatchObject({ status: 'pending', branch: { thought: edited } });
    const more: ExplorationEvent[] = [];
    const result = await new ThoughtTreeExecutor().resume(agent(), seed, {
      task,
      announceResume: false,
      onEvent: (e) => more.push(e),
    });
    expect(more[0]?.type).toBe('node.started');
    expect(more[0]?.payload).toEqual({ nodeId: 'n1', mode: 'execute' });
    expect(result.tree.nodes.n1).toMatchObject({ status: 'completed', verification: { passed: true } });
    expect(result.tree.config.explorationStrategy).toBe('dfs');
    expect(result.bestPath[1]?.branch?.thought).toBe(edited);
    expect(fold([...seed, ...more])).toEqual(result.tree);
  });
});
