// Rule 14: a person steers a running search (prune, expand, pause, resume, step, abort).
import { describe, expect, it } from 'vitest';
import { ExplorationControl, SteeringError } from './control';
import type { ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import type { ToTResult } from './types';
import { ThoughtTreeExecutor } from './executor';
import { ScriptedTreeModel, type TreeSpec } from '../models/index';

const TREE: TreeSpec = {
  children: { '': ['A', 'B', 'C'], A: ['A1', 'A2'], B: ['B1', 'B2'], C: ['C1'] },
  scores: { A: 0.7, B: 0.6, C: 0.5, A1: 0.6, A2: 0.45, B1: 0.75, B2: 0.35, C1: 0.5 },
};

function start(
  config: Partial<ToTConfig>,
  onEvent: (e: ExplorationEvent, control: ExplorationControl) => void,
  startPaused = false,
) {
  const control = new ExplorationControl();
  const events: ExplorationEvent[] = [];
  const promise = new ThoughtTreeExecutor({ maxDepth: 2, ...config }).explore(
    { name: 't', model: new ScriptedTreeModel(TREE) },
    'goal',
    {
      control,
      startPaused,
      onEvent: (e) => {
        events.push(e);
        onEvent(e, control);
      },
    },
  );
  return { control, events, promise };
}

const idOf = (result: ToTResult, thought: string) =>
  Object.values(result.tree.nodes).find((n) => n.branch?.thought === thought)?.id ?? '?';
const executedThoughts = (events: ExplorationEvent[], result: ToTResult) =>
  events
    .filter((e) => e.type === 'node.started' && e.payload.mode === 'execute')
    .map((e) => result.tree.nodes[(e.payload as { nodeId: string }).nodeId]?.branch?.thought);
const tick = () => new Promise((r) => setTimeout(r, 20));

describe('prune', () => {
  it('removes a queued node: it never runs, and records who pruned it', async () => {
    const { events, promise } = start({}, (e, control) => {
      if (e.type === 'node.expanded' && e.payload.nodeId === 'n0') control.prune('n1', 'alice'); // n1 is A
    });
    const result = await promise;
    expect(executedThoughts(events, result)).not.toContain('A');
    expect(result.tree.nodes.n1).toMatchObject({ status: 'pruned', prunedBy: 'alice' });
    expect(events.find((e) => e.type === 'steer.prune')?.payload).toEqual({ nodeId: 'n1', actor: 'alice' });
  });

  it('takes the whole subtree: queued children of a pruned node never run afterwards', async () => {
    let pruneAt = -1;
    const { events, promise } = start({}, (e, control) => {
      if (e.type === 'node.expanded' && e.payload.nodeId === 'n1') {
        control.prune('n1');
        pruneAt = e.seq;
      }
    });
    const result = await promise;
    const a1 = idOf(result, 'A1');
    const a2 = idOf(result, 'A2');
    const laterStarts = events
      .filter((e) => e.seq > pruneAt && e.type === 'node.started')
      .map((e) => (e.payload as { nodeId: string }).nodeId);
    expect(laterStarts).not.toContain(a1);
    expect(laterStarts).not.toContain(a2);
    expect(result.tree.nodes[a1]?.status).toBe('pruned');
    expect(result.stats.steeredPrunes).toBe(3);
    expect(result.bestPath.map((n) => n.id)).not.toContain('n1');
  });

  it('refuses a missing node, the root, and an already pruned node with a clear error', async () => {
    const { control, promise } = start({}, () => {}, true);
    await tick();
    expect(() => control.prune('nope')).toThrow(new SteeringError('no node nope in this run'));
    expect(() => control.prune('n0')).toThrow(/root cannot be pruned/);
    control.abort();
    await promise;
    expect(() => control.prune('n0')).toThrow(/the run has finished/);
  });
});

describe('expand', () => {
  it('grows the node next with fresh branches, whatever its status', async () => {
    // maxDepth 1: nothing is expanded past the first level unless a person asks
    let asked = false;
    const { events, promise } = start({ maxDepth: 1 }, (e, control) => {
      if (!asked && e.type === 'node.completed') {
        asked = true;
        control.expand(e.payload.nodeId, 'bob');
      }
    });
    const result = await promise;
    const a = idOf(result, 'A');
    const starts = events
      .filter((e) => e.type === 'node.started')
      .map((e) => `${e.payload.mode} ${(e.payload as { nodeId: string }).nodeId}`);
    expect(starts.slice(0, 3)).toEqual(['expand n0', `execute ${a}`, `expand ${a}`]);
    expect(result.tree.nodes[a]?.childIds.length).toBe(2);
    expect(result.tree.nodes[a]?.expansions).toBe(1);
    expect(events.find((e) => e.type === 'steer.expand')?.payload).toEqual({ nodeId: a, actor: 'bob' });
  });
});

describe('pause, resume, step, abort', () => {
  it('pauses at the next step boundary and resumes where it stopped', async () => {
    let paused = false;
    const { control, events, promise } = start({}, (e, c) => {
      if (!paused && e.type === 'node.completed') {
        paused = true;
        c.pause();
      }
    });
    await tick();
    const countWhilePaused = events.length;
    expect(events.at(-1)?.type).toBe('steer.pause');
    await tick();
    expect(events.length).toBe(countWhilePaused);
    expect(() => control.pause()).toThrow(/already paused/);
    control.resume();
    const result = await promise;
    expect(result.finishReason).toBe('frontier-empty');
    expect(events.filter((e) => e.type === 'node.started').length).toBeGreaterThan(3);
  });

  it('steps one step at a time from a paused run', async () => {
    const { control, events, promise } = start({}, () => {}, true);
    await tick();
    const starts = () => events.filter((e) => e.type === 'node.started').length;
    expect(starts()).toBe(0);
    control.step();
    await tick();
    expect(starts()).toBe(1);
    expect(events.at(-1)?.type).toBe('run.paused');
    control.step();
    await tick();
    expect(starts()).toBe(2);
    control.abort('carol');
    const result = await promise;
    expect(result.finishReason).toBe('aborted');
    expect(result.tree.finishDetail).toBe('aborted by carol');
    expect(result.stats.exploredNodes).toBe(1);
  });

  it('abort cancels a model call in flight', async () => {
    const control = new ExplorationControl();
    const promise = new ThoughtTreeExecutor().explore(
      { name: 't', model: new ScriptedTreeModel({ ...TREE, latencyMs: 5_000 }) },
      'goal',
      { control },
    );
    await tick();
    const started = Date.now();
    control.abort();
    const result = await promise;
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(result.finishReason).toBe('aborted');
    expect(result.tree.inFlight).toBeNull();
    expect(result.tree.nodes.n0?.status).toBe('completed');
  });
});
