import { describe, expect, it } from 'vitest';
import { fold } from '../engine/index';
import { forkEvents, ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import { sharedPrefix } from './shared-prefix';

describe('sharedPrefix', () => {
  it('marks the path a fork copied, on both sides, and nothing the fork did differently', async () => {
    const task = getTaskEntry('game24').task;
    const parent = await new ThoughtTreeExecutor().explore(
      { name: 't', model: createSimulatedModel({ seed: 3 }) },
      '4 9 10 13',
      { task },
    );
    const seed = forkEvents({
      runId: 'f',
      source: parent.tree,
      nodeId: 'n1',
      editedThought: '9 + 10 = 19 (left: 4 13 19)',
      config: parent.tree.config,
      agentName: 't',
      modelId: 'simulated',
    });
    const fork = await new ThoughtTreeExecutor().resume({ name: 't', model: createSimulatedModel({ seed: 3 }) }, seed, {
      task,
      announceResume: false,
    });
    const shared = sharedPrefix(parent.tree, fork.tree);
    expect(shared.a.has('n0')).toBe(true);
    expect(shared.b.has('n0')).toBe(true);
    expect(shared.b.has('n1')).toBe(false); // the edited thought
    expect(fold(seed).nodes.n1?.branch?.thought).toBe('9 + 10 = 19 (left: 4 13 19)');
    const same = sharedPrefix(parent.tree, parent.tree);
    expect(same.a.size).toBe(parent.tree.nodeOrder.length);
  });
});
