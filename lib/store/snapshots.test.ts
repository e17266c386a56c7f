import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../engine/events';
import { ThoughtTreeExecutor } from '../engine/executor';
import { createEmptyTree, fold } from '../engine/tree';
import { getTaskEntry } from '../tasks/index';
import { createSimulatedModel } from '../tasks/simulated-model';
import { SnapshotIndex } from './snapshots';

async function record(): Promise<ExplorationEvent[]> {
  const events: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor({ maxTotalNodes: 60, terminationConfidence: 1 }).explore(
    { name: 't', model: createSimulatedModel({ seed: 4 }) },
    'Design a cache for a dashboard',
    { task: getTaskEntry('open-goal').task, onEvent: (e) => events.push(e) },
  );
  return events;
}

describe('SnapshotIndex', () => {
  it('seeks to any step with the same tree a fold from the start gives', async () => {
    const events = await record();
    expect(events.length).toBeGreaterThan(300);
    const index = new SnapshotIndex(events[0]?.runId as string, 50);
    index.append(events.slice(0, 123));
    index.append(events.slice(100)); // overlapping delivery is ignored
    for (const seq of [0, 1, 49, 50, 51, 99, 100, 222, events.length - 1, events.length]) {
      expect(index.treeAt(seq)).toEqual(fold(events.slice(0, seq), createEmptyTree(events[0]?.runId)));
    }
  });

  it('clamps a step beyond the end, and gives trees that do not share state', async () => {
    const events = await record();
    const index = new SnapshotIndex('r', 50);
    index.append(events);
    expect(index.treeAt(events.length + 500).lastSeq).toBe(events.length);
    const a = index.treeAt(100);
    a.nodes = {};
    expect(Object.keys(index.treeAt(100).nodes).length).toBeGreaterThan(0);
  });
});
