// The export file: every log the engine writes validates and survives a JSON round trip unchanged; a file that is
// wrong is refused with one line that says where and what.
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, type ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import { fold } from '../engine/index';
import { ExplorationControl, forkEvents, ThoughtTreeExecutor } from '../engine/server';
import { ScriptedTreeModel } from '../models/index';
import { externalSearchLog, followEvent } from '../engine/testing';
import { createSimulatedModel, getTaskEntry } from '../tasks/index';
import type { RunIdentity } from '../contract/run';
import { type RunExport, buildExport, safeModelSettings, validateRunExport } from './export';

const game24 = getTaskEntry('game24').task;

function record(events: readonly ExplorationEvent[], more: Partial<RunIdentity> = {}): RunIdentity {
  const started = events.find((e) => e.type === 'run.started') as Extract<ExplorationEvent, { type: 'run.started' }>;
  return {
    id: started.runId,
    taskId: started.payload.taskId,
    goal: started.payload.goal,
    modelId: started.payload.modelId,
    modelLabel: 'simulated',
    modelSettings: { provider: 'simulated', seed: 3, latencyMs: 0 },
    config: started.payload.config,
    seed: 3,
    status: 'finished',
    finishReason: 'terminated',
    createdAt: new Date('2025-01-02T03:04:05.000Z'),
    startedAt: new Date('2025-01-02T03:04:06.000Z'),
    finishedAt: new Date('2025-01-02T03:04:07.000Z'),
    importTag: null,
    parentRunId: null,
    parentNodeId: null,
    ...more,
  };
}

async function game24Run(seed: number, config: Partial<ToTConfig> = {}, runId = `run-${seed}`) {
  const events: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor(config).explore(
    { name: 'arborist', model: createSimulatedModel({ seed }) },
    '4 9 10 13',
    { task: game24, runId, onEvent: (e) => events.push(e) },
  );
  return events;
}

/** A run with a person's prune, breakpoints, pause, step and resume in it (the open-goal task with a scripted model). */
async function steeredRun(): Promise<ExplorationEvent[]> {
  const control = new ExplorationControl();
  const events: ExplorationEvent[] = [];
  const model = new ScriptedTreeModel({
    children: { '': ['A', 'B', 'C'], A: ['A1', 'A2'], B: ['B1', 'B2'], C: ['C1'] },
    scores: { A: 0.7, B: 0.6, C: 0.5, A1: 0.6, A2: 0.45, B1: 0.75, B2: 0.35, C1: 0.5 },
  });
  let steered = false;
  let expanded = false;
  await new ThoughtTreeExecutor({ maxDepth: 2 }).explore({ name: 't', model }, 'goal', {
    control,
    runId: 'steered',
    onEvent: (e) => {
      events.push(e);
      if (!steered && e.type === 'node.expanded' && e.payload.nodeId === 'n0') {
        steered = true;
        control.prune('n1', 'alice');
        control.setBreakpoints([{ id: 'back', enabled: true, condition: { kind: 'backtrack' } }], 'erin');
        control.pause('bob');
        setTimeout(() => control.step('bob'), 5);
        setTimeout(() => control.resume('bob'), 30);
      }
      if (e.type === 'run.paused' && e.payload.reason === 'breakpoint') setTimeout(() => control.resume('erin'), 5);
      if (!expanded && e.type === 'node.expanded' && e.payload.nodeId !== 'n0') {
        expanded = true;
        control.expand(e.payload.nodeId, 'carol');
      }
    },
  });
  return events;
}

/** A run aborted half way, then the same log resumed to its end (run.resumed). */
async function abortedAndResumed(): Promise<ExplorationEvent[][]> {
  const control = new ExplorationControl();
  const aborted: ExplorationEvent[] = [];
  const agent = () => ({ name: 'arborist', model: createSimulatedModel({ seed: 5 }) });
  await new ThoughtTreeExecutor().explore(agent(), '4 9 10 13', {
    task: game24,
    control,
    runId: 'aborted',
    onEvent: (e) => {
      aborted.push(e);
      if (e.seq === 30) control.abort('dave');
    },
  });
  const cut = await game24Run(5, {}, 'resumed');
  const head = cut.slice(0, cut.findIndex((e) => e.type === 'node.expanded' && e.seq > 25) + 1);
  const tail: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor().resume(agent(), head, { task: game24, onEvent: (e) => tail.push(e) });
  return [aborted, [...head, ...tail]];
}

/**
 * A run's whole life as the server writes it: queued, started, interrupted by a restart, queued again and resumed to
 * its end; and one that fails half way.
 */
async function managedRuns(): Promise<ExplorationEvent[][]> {
  const agent = () => ({ name: 'arborist', model: createSimulatedModel({ seed: 6 }) });
  const queued: ExplorationEvent[] = [
    { runId: 'managed', seq: 1, ts: 1, type: 'run.queued', payload: { reason: 'new' } },
  ];
  const whole: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor().explore(agent(), '4 9 10 13', {
    task: game24,
    log: queued,
    onEvent: (e) => whole.push(e),
  });
  const head = [...queued, ...whole.slice(0, whole.findIndex((e) => e.type === 'node.started' && e.seq > 20) + 1)];
  const interrupted = [...head, followEvent(head, 'run.interrupted', { reason: 'the server stopped' })];
  interrupted.push(followEvent(interrupted, 'run.queued', { reason: 'resume' }));
  const tail: ExplorationEvent[] = [];
  await new ThoughtTreeExecutor().resume(agent(), interrupted, { task: game24, onEvent: (e) => tail.push(e) });
  const failed = [...head, followEvent(head, 'run.failed', { error: 'disk full' })];
  return [[...interrupted, ...tail], failed];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests edit the JSON freely
type Json = any;
const roundTrip = (file: RunExport): unknown => JSON.parse(JSON.stringify(file));

describe('buildExport and validateRunExport', () => {
  it('accept every log the engine writes, unchanged by the JSON round trip', async () => {
    const logs: ExplorationEvent[][] = [];
    for (const seed of [1, 2, 3, 4, 5, 6]) logs.push(await game24Run(seed));
    logs.push(await game24Run(7, { explorationStrategy: 'dfs', maxTotalNodes: 5 }));
    logs.push(await game24Run(8, { explorationStrategy: 'best-first', beamWidth: 1 }));
    logs.push(await game24Run(9, { explorationStrategy: 'mcts', beamWidth: 1, mctsIterations: 12 }));
    logs.push(await steeredRun());
    logs.push(...(await abortedAndResumed()));
    logs.push(...(await managedRuns()));
    const parent = await game24Run(3);
    const tree = fold(parent);
    const forked = forkEvents({
      runId: 'fork',
      source: tree,
      nodeId: 'n3',
      config: tree.config,
      agentName: 'arborist',
      modelId: 'simulated',
    });
    const continued: ExplorationEvent[] = [];
    await new ThoughtTreeExecutor(tree.config).resume(
      { name: 'arborist', model: createSimulatedModel({ seed: 3 }) },
      forked,
      { task: game24, announceResume: false, onEvent: (e) => continued.push(e) },
    );
    logs.push([...forked, ...continued]);
    logs.push(externalSearchLog());

    const seen = new Set<string>();
    for (const events of logs) {
      const file = buildExport(record(events), events);
      const checked = validateRunExport(roundTrip(file));
      expect(checked.ok ? 'ok' : checked.error).toBe('ok');
      if (checked.ok) expect(checked.file).toEqual(file);
      for (const e of events) seen.add(e.type);
    }
    // the corpus holds every kind of event
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('accepts a log cut at any point of a run in progress (it is imported as interrupted)', async () => {
    const events = await game24Run(3);
    for (const n of [1, 5, 20, events.length - 1]) {
      const checked = validateRunExport(roundTrip(buildExport(record(events), events.slice(0, n))));
      expect(checked.ok).toBe(true);
    }
  });

  it('never carries an API key: model settings keep known-safe fields only', async () => {
    const events = await game24Run(3);
    const file = buildExport(
      record(events, {
        modelSettings: {
          provider: 'openai',
          model: 'gpt-4o',
          apiKey: 'sk-secret',
          baseUrl: 'https://user:pw@example.com',
          headers: { authorization: 'Bearer x' },
          temperature: 0.7,
        },
      }),
      events,
    );
    expect(file.run.modelSettings).toEqual({ provider: 'openai', model: 'gpt-4o', temperature: 0.7 });
    expect(JSON.stringify(file)).not.toMatch(/sk-secret|Bearer|user:pw/);
    // and an import filters a hand-made file the same way
    const sneaky = roundTrip(file) as { run: { modelSettings: Record<string, unknown> } };
    sneaky.run.modelSettings.apiKey = 'sk-secret';
    const checked = validateRunExport(sneaky);
    expect(checked.ok && checked.file.run.modelSettings).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      temperature: 0.7,
    });
    expect(safeModelSettings('sk-secret')).toBeNull();
    expect(safeModelSettings({ apiKey: 'x' })).toBeNull();
  });
});

describe('validateRunExport refuses a wrong file, saying where and what', () => {
  let base: RunExport;
  const broken = async (change: (file: Json) => void) => {
    const file = roundTrip(base) as Json;
    change(file);
    const checked = validateRunExport(file);
    return checked.ok ? 'accepted' : checked.error;
  };

  it('names the event and the field', async () => {
    const events = await game24Run(3);
    base = buildExport(record(events), events);
    expect(await broken((f) => (f.events[41].seq = 44))).toBe('events[41].seq: expected 42, got 44');
    expect(await broken((f) => f.events.splice(41, 1))).toBe('events[41].seq: expected 42, got 43');
    expect(await broken((f) => (f.events[3].type = 'node.exploded'))).toBe(
      'events[3].type: unknown event type "node.exploded"',
    );
    expect(await broken((f) => (f.events[3].payload.nodeId = 7))).toBe(
      'events[3].payload.nodeId: Invalid input: expected string, received number',
    );
    expect(await broken((f) => (f.events[3].payload.extra = 1))).toBe('events[3].payload: Unrecognized key: "extra"');
    expect(await broken((f) => (f.events[9].payload.score.confidence = '0.5'))).toMatch(
      /^events\[9\]\.payload\.score\.confidence: /,
    );
    expect(await broken((f) => (f.events[5].runId = 'other'))).toBe(
      `events[5].runId: expected the run's id "run-3", got "other"`,
    );
    expect(await broken((f) => f.events.shift())).toBe(
      'events[0].type: the first event must be run.started, got node.created',
    );
    expect(await broken((f) => (f.events = []))).toBe(
      'events: the log is empty: a run that never started has nothing to import',
    );
    expect(await broken((f) => (f.events[10].payload.nodeId = 'n99'))).toBe(
      'events[10]: branch.scored: no node "n99" in the tree at this point',
    );
    expect(await broken((f) => (f.events[13] = { ...f.events[13], payload: { ...f.events[1].payload } }))).toMatch(
      /^events\[13\]: node\.created: node "n0" already exists/,
    );
    expect(await broken((f) => (f.run.config.explorationStrategy = 'random'))).toMatch(
      /^run\.config\.explorationStrategy: Invalid option/,
    );
    expect(await broken((f) => (f.run.createdAt = 'yesterday'))).toBe('run.createdAt: Invalid ISO datetime');
    expect(await broken((f) => (f.run.goal = '1 2 3 4'))).toBe(
      'run.goal: differs from the goal of the run.started event',
    );
  });

  it('says when the file is not an export at all', async () => {
    expect(await broken((f) => (f.format = 'something'))).toBe("not an Arborist export: format must be 'arborist.run'");
    expect(await broken((f) => delete f.format)).toBe("not an Arborist export: format must be 'arborist.run'");
    expect(await broken((f) => (f.version = 2))).toBe('unsupported export version 2: this Arborist reads version 1');
    expect(validateRunExport([1, 2])).toEqual({
      ok: false,
      error: "not an Arborist export: expected a JSON object with format 'arborist.run'",
    });
    expect(validateRunExport(null).ok).toBe(false);
  });
});

describe("an export file's discussion", () => {
  const at = '2025-01-02T03:04:08.000Z';
  const comment = (id: string, nodeId: string | null, replyTo: string | null = null) => ({
    id,
    nodeId,
    replyTo,
    text: `comment ${id}`,
    deleted: false,
    author: { name: 'ada' },
    step: 5,
    createdAt: at,
    editedAt: null,
  });
  const discussion = {
    comments: [comment('c1', 'n1'), comment('c2', 'n1', 'c1'), comment('c3', null)],
    labels: [{ nodeId: 'n2', label: 'good thought', note: 'nice', author: { name: 'bo' }, step: 7, createdAt: at }],
  };
  const checked = async (change: (file: Json) => void) => {
    const events = await game24Run(3);
    const file = roundTrip(buildExport(record(events), events, new Date(at), discussion)) as Json;
    change(file);
    const result = validateRunExport(file);
    return result.ok ? 'accepted' : result.error;
  };

  it('is written only when there is one, and read back unchanged', async () => {
    const events = await game24Run(3);
    expect(Object.keys(buildExport(record(events), events))).toEqual([
      'format',
      'version',
      'exportedAt',
      'run',
      'events',
    ]);
    const file = buildExport(record(events), events, new Date(at), discussion);
    const result = validateRunExport(roundTrip(file));
    expect(result.ok && result.file.discussion).toEqual(discussion);
  });

  it('is refused, naming the entry, for a node the log never made, a reply to no earlier thread, an id twice', async () => {
    expect(await checked((f) => (f.discussion.comments[2].nodeId = 'n99'))).toBe(
      "discussion.comments[2].nodeId: no node n99 in the run's log",
    );
    expect(await checked((f) => (f.discussion.labels[0].nodeId = 'n99'))).toBe(
      "discussion.labels[0].nodeId: no node n99 in the run's log",
    );
    expect(await checked((f) => (f.discussion.comments[1].replyTo = 'c9'))).toBe(
      'discussion.comments[1].replyTo: c9 is not the first comment of a thread listed before this one',
    );
    expect(await checked((f) => f.discussion.comments.reverse())).toBe(
      'discussion.comments[1].replyTo: c1 is not the first comment of a thread listed before this one',
    );
    expect(await checked((f) => (f.discussion.comments[2].id = 'c1'))).toBe(
      'discussion.comments[2].id: comment id c1 twice',
    );
    expect(await checked((f) => f.discussion.labels.push(f.discussion.labels[0]))).toBe(
      'discussion.labels[1].label: "good thought" twice on node n2',
    );
    expect(await checked((f) => (f.discussion.comments[0].author = { id: 'u1', name: 'ada' }))).toBe(
      'discussion.comments[0].author: Unrecognized key: "id"',
    );
    // the log is judged first: a broken log is refused for itself, not for the discussion that names its nodes
    expect(await checked((f) => (f.events[1].seq = 9))).toBe('events[1].seq: expected 2, got 9');
  });
});
