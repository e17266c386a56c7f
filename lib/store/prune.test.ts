// What a keyboard prune would cut, counted the way the engine counts its steered prunes (the run page asks first above 3).
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import { fold, reduce, subtreeIds } from '../engine/index';
import { ThoughtTreeExecutor } from '../engine/server';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import { PRUNE_ASK_ABOVE, pruneReach } from './prune';

async function recordTree() {
  const events: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor().explore({ name: 't', model: createSimulatedModel({ seed: 3 }) }, '4 9 10 13', {
    task: getTaskEntry('game24').task,
    onEvent: (e) => events.push(e),
  });
  return fold(events);
}

describe('pruneReach', () => {
  it("counts the nodes a prune marks, as many as the engine's steered prunes then go up by", async () => {
    const tree = await recordTree();
    const branch = tree.nodes.n0?.childIds.find((id) => subtreeIds(tree, id).length > PRUNE_ASK_ABOVE) as string;
    expect(branch).toBeDefined();
    const reach = pruneReach(tree, branch);
    expect(reach).toBeGreaterThan(0);
    const after = JSON.parse(JSON.stringify(tree)) as typeof tree;
    const before = after.stats.steeredPrunes;
    reduce(after, {
      runId: tree.runId,
      seq: tree.lastSeq + 1,
      ts: 0,
      type: 'steer.prune',
      payload: { nodeId: branch, actor: 'test' },
    } as ExplorationEvent);
    expect(after.stats.steeredPrunes - before).toBe(reach);
    // pruned now: a second prune would cut nothing
    expect(pruneReach(after, branch)).toBe(0);
  });

  it('is nothing for the root or a missing node', async () => {
    const tree = await recordTree();
    expect(pruneReach(tree, 'n0')).toBe(0);
    expect(pruneReach(tree, 'nope')).toBe(0);
  });
});
