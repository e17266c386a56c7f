import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, type ExplorationEvent } from '../contract/events';
import { cloneTree, createEmptyTree, fold, reduce, snapshotTree, type ThoughtTree } from '../engine/index';
import { ExplorationControl, forkEvents, ThoughtTreeExecutor } from '../engine/server';
import { externalSearchLog, followEvent } from '../engine/testing';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import { recordMcts } from '../tasks/testing/recorded';
import { noteEvents, NO_NOTES, SnapshotIndex } from './snapshots';

const game24 = getTaskEntry('game24').task;

async function record(): Promise<ExplorationEvent[]> {
  const events: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor({ maxTotalNodes: 60, terminationConfidence: 1 }).explore(
    { name: 't', model: createSimulatedModel({ seed: 4 }) },
    'Design a cache for a dashboard',
    { task: getTaskEntry('open-goal').task, onEvent: (e) => events.push(e) },
  );
  return events;
}

/** A Game of 24 run a person steers: paused at the start, one step, resumed, a prune, an expand, then an abort. */
async function steeredRun(): Promise<ExplorationEvent[]> {
  const control = new ExplorationControl();
  const events: ExplorationEvent[] = [];
  let expandedRoot = false;
  await new ThoughtTreeExecutor({ maxTotalNodes: 40 }).explore(
    { name: 't', model: createSimulatedModel({ seed: 5 }) },
    '4 9 10 13',
    {
      task: game24,
      control,
      startPaused: true,
      breakpoints: {
        actor: 'bob',
        breakpoints: [{ id: 'deep', enabled: true, condition: { kind: 'depth', depth: 2 } }],
      },
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'steer.pause') control.step('bob');
        if (e.type === 'run.paused') control.resume('bob');
        if (e.type === 'node.expanded' && e.payload.nodeId === 'n0' && !expandedRoot) {
          expandedRoot = true;
          control.prune('n1', 'alice');
          control.expand('n2', 'alice');
        }
        if (e.type === 'node.completed' && e.seq > 120) control.abort('alice');
      },
    },
  );
  return events;
}

/**
 * A log cut mid-step by a restart, queued again and resumed (run.resumed rolls the step back), the same log failed
 * instead, and a fork (node.restored) that runs on.
 */
async function resumedAndForked(): Promise<ExplorationEvent[][]> {
  const whole = await record();
  const cut = whole.slice(0, whole.findIndex((e) => e.type === 'node.started' && e.seq > 40) + 1);
  const failed = [...cut, followEvent(cut, 'run.failed', { error: 'the database went away' })];
  cut.push(followEvent(cut, 'run.interrupted', { reason: 'the server stopped' }));
  cut.push(followEvent(cut, 'run.queued', { reason: 'resume' }));
  const resumed = [...cut];
  await new ThoughtTreeExecutor().resume({ name: 't', model: createSimulatedModel({ seed: 4 }) }, cut, {
    task: getTaskEntry('open-goal').task,
    onEvent: (e) => resumed.push(e),
  });

  const parent = new ThoughtTreeExecutor();
  const source = await parent.explore({ name: 't', model: createSimulatedModel({ seed: 3 }) }, '4 9 10 13', {
    task: game24,
  });
  const seed = forkEvents({
    runId: 'fork',
    source: source.tree,
    nodeId: source.bestPath.at(2)?.id as string,
    config: source.tree.config,
    agentName: 't',
    modelId: 'simulated',
  });
  const forked = [...seed];
  await new ThoughtTreeExecutor().resume({ name: 't', model: createSimulatedModel({ seed: 3 }) }, seed, {
    task: game24,
    onEvent: (e) => forked.push(e),
  });
  return [resumed, failed, forked];
}

const plain = (tree: ThoughtTree) => JSON.parse(JSON.stringify(tree)) as unknown;

describe('snapshotTree', () => {
  it('keeps the tree of step k while the live tree folds every kind of event after it', async () => {
    const logs = [
      await record(),
      await steeredRun(),
      ...(await resumedAndForked()),
      externalSearchLog(),
      // a Monte Carlo tree search: its selections and backups (tree.mcts, every node's N and Q) travel too
      (await recordMcts()).events,
    ];
    const seen = new Set(logs.flat().map((e) => e.type));
    expect(EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([]);

    for (const events of logs) {
      const live = createEmptyTree(events[0]?.runId);
      const snapshots: ThoughtTree[] = [];
      const expected: unknown[] = [];
      for (const event of events) {
        reduce(live, event);
        snapshots.push(snapshotTree(live));
        expected.push(plain(live));
      }
      // every snapshot still equals the fold of its prefix, after the live tree went on to the end
      snapshots.forEach((snapshot, k) => expect(plain(snapshot)).toEqual(expected[k]));
      expect(plain(snapshots.at(-1) as ThoughtTree)).toEqual(plain(fold(events)));
    }
  });

  it('shares node objects and copies the containers', async () => {
    const tree = fold(await record());
    const copy = snapshotTree(tree);
    expect(copy.nodes).not.toBe(tree.nodes);
    expect(copy.nodes.n1).toBe(tree.nodes.n1);
    expect(copy).toEqual(cloneTree(tree));
  });
});

describe('SnapshotIndex', () => {
  it('seeks to any step with the same tree a fold from the start gives', async () => {
    const events = await record();
    expect(events.length).toBeGreaterThan(300);
    const index = new SnapshotIndex(events[0]?.runId as string, 50);
    index.append(events.slice(0, 123));
    index.append(events.slice(100)); // overlapping delivery is ignored
    for (const seq of [0, 1, 49, 50, 51, 99, 100, 222, 221, 223, events.length - 1, events.length, 3]) {
      expect(index.treeAt(seq)).toEqual(fold(events.slice(0, seq), createEmptyTree(events[0]?.runId)));
    }
  });

  it('gives every step of a steered run with its person actions and last backtrack', async () => {
    for (const events of [await steeredRun(), ...(await resumedAndForked())]) {
      const index = new SnapshotIndex(events[0]?.runId as string, 8);
      index.append(events);
      expect(index.snapshotCount).toBeGreaterThan(2);
      // random order, so seeks start from snapshots and from cached steps both before and after the target
      const seqs = events.map((e) => e.seq).sort((a, b) => ((a * 7919) % 101) - ((b * 7919) % 101));
      for (const seq of seqs) {
        const step = index.stepAt(seq);
        expect(plain(step.tree)).toEqual(plain(fold(events.slice(0, seq), createEmptyTree(events[0]?.runId))));
        expect(step.notes).toEqual(noteEvents(NO_NOTES, events.slice(0, seq)));
      }
    }
  });

  it('clamps a step beyond the end, and a step it gave is not changed by later events', async () => {
    const events = await record();
    const index = new SnapshotIndex('r', 50);
    index.append(events.slice(0, 150));
    expect(index.treeAt(500).lastSeq).toBe(150);
    const at100 = index.treeAt(100);
    const before = plain(at100);
    index.append(events.slice(150));
    expect(index.treeAt(events.length + 500).lastSeq).toBe(events.length);
    for (let seq = 100; seq < events.length; seq += 37) index.treeAt(seq);
    expect(plain(at100)).toEqual(before);
    expect(plain(index.treeAt(100))).toEqual(before);
  });
});
