/**
 * Calls in flight together (issue 30), checked from outside the engine: the model's own log (TimedModel) says when
 * each call started and how many were in flight; the run's log must not depend on any of it.
 * - The same seed writes the same log (clockless: timestamps and latencies aside) at any latency, any jitter and any
 *   limit of calls in flight, for beam, best-first and dfs on Game of 24 and on the open goal.
 * - Beam does run a level's calls together, and never more than the limit.
 * - Every rule holds with a model deaf to the abort signal: no call starts after the deadline or an abort, the cost
 *   cap is never passed, a prune stops the pruned step's calls not yet started and records those that answered as
 *   spent, a pause starts no call of a later step until the run resumes, and a restart from any group of a batch
 *   continues exactly.
 * Not a speed figure: bench:concurrency prints those.
 */
import { describe, expect, it } from 'vitest';
import { createSimulatedModel, getTaskEntry, puzzleGoal, puzzleRange } from '../tasks/index';
import { ScriptedTreeModel, TimedModel, type TimedModelOptions, type TreeSpec } from '../models/index';
import type { ExplorationEvent } from '../contract/events';
import type { ExplorationStrategy, ToTConfig } from '../contract/vocabulary';
import type { CompletionRequest, CompletionResponse, LanguageModel, ThoughtTask } from './types';
import { clockless } from './clockless';
import { ExplorationControl } from './control';
import { ThoughtTreeExecutor, type ExploreOptions } from './executor';
import { expectEveryAnsweredCallCounted } from './testing';
import { fold } from './tree';

const STRATEGIES: readonly ExplorationStrategy[] = ['beam', 'best-first', 'dfs'];
const PAPER = { beamWidth: 5, branchFactor: 8, maxDepth: 4, maxTotalNodes: 100 } as const;

/** What happened, in order: the log less seq-independent clocks and the limit it ran with. */
function story(events: readonly ExplorationEvent[]) {
  return events.map((event) => {
    const { runId: _runId, ts: _ts, ...rest } = clockless(event);
    if (rest.type !== 'run.started') return rest;
    const { maxConcurrentCalls: _limit, ...config } = rest.payload.config;
    return { ...rest, payload: { ...rest.payload, config } };
  });
}

/** A model that counts its own calls in flight: the most it ever had at once is the figure a limit bounds. */
class CountingModel implements LanguageModel {
  readonly id: string;
  inFlight = 0;
  peak = 0;
  constructor(private readonly inner: LanguageModel) {
    this.id = inner.id;
  }
  async complete(request: CompletionRequest): Promise<CompletionResponse> {
    this.peak = Math.max(this.peak, ++this.inFlight);
    try {
      return await this.inner.complete(request);
    } finally {
      this.inFlight -= 1;
    }
  }
}

async function search(
  model: LanguageModel,
  goal: string,
  config: Partial<ToTConfig>,
  options: ExploreOptions & { task?: ThoughtTask } = {},
) {
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor(config).explore({ name: 'concurrency', model }, goal, {
    runId: 'r',
    ...options,
    onEvent: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  });
  return { result, events };
}

/** A latency drawn at random for every call (not from the seed: the timing must not matter). */
const jitter = (maxMs: number): TimedModelOptions => ({ latencyMs: () => Math.floor(Math.random() * maxMs) });

describe('the log does not depend on timing or on the limit of calls in flight', () => {
  const game24 = getTaskEntry('game24').task;
  const openGoal = getTaskEntry('open-goal').task;
  const puzzle = puzzleGoal(puzzleRange(900, 901)[0] as Parameters<typeof puzzleGoal>[0]);
  const cases = [
    { label: 'Game of 24', task: game24, goal: puzzle, config: PAPER },
    { label: 'the open goal', task: openGoal, goal: 'Plan a week of meals for a family of four', config: { maxDepth: 4 } },
  ];

  for (const { label, task, goal, config } of cases) {
    it.each(STRATEGIES)(`${label}, %s: limits 1, 3 and 16 with random latencies write the instant run's log`, async (strategy) => {
      const run = (limit: number, timing: TimedModelOptions | null) => {
        const simulated = createSimulatedModel({ seed: 5 });
        const model = timing ? new TimedModel(simulated, timing) : simulated;
        return search(model, goal, { ...config, explorationStrategy: strategy, maxConcurrentCalls: limit }, { task });
      };
      const baseline = await run(1, null);
      expect(baseline.result.stats.modelCalls).toBeGreaterThan(5);
      for (const limit of [1, 3, 16]) {
        const timed = await run(limit, jitter(6));
        expect(story(timed.events)).toEqual(story(baseline.events));
        expect(timed.result.output).toBe(baseline.result.output);
      }
    });
  }

  it('beam runs a level together within the limit; best-first runs one node at a time', async () => {
    const latency = 20;
    const peaks: Record<string, number> = {};
    for (const [strategy, limit] of [
      ['beam', 16],
      ['beam', 4],
      ['best-first', 16],
    ] as const) {
      const model = new CountingModel(new TimedModel(createSimulatedModel({ seed: 5 }), { latencyMs: latency }));
      const { events } = await search(
        model,
        puzzle,
        { ...PAPER, explorationStrategy: strategy, maxConcurrentCalls: limit },
        { task: game24 },
      );
      peaks[`${strategy} ${limit}`] = model.peak;
      if (strategy === 'beam') {
        const batches = events.filter((e) => e.type === 'node.started' && e.payload.batch);
        expect(batches.length).toBeGreaterThan(0);
      } else {
        expect(events.some((e) => e.type === 'node.started' && e.payload.batch)).toBe(false);
      }
    }
    expect(peaks['beam 16']).toBe(16); // a level of 5 expansions asks for far more than 16 calls
    expect(peaks['beam 4']).toBe(4);
    expect(peaks['best-first 16']).toBeLessThanOrEqual(PAPER.branchFactor); // one expansion's evaluations at most
  });
});

// A tree the scripted model grows: the root's three candidates, two queued (beam width 2), each with two children.
const TREE: TreeSpec = {
  children: { '': ['A', 'B', 'C'], A: ['A1', 'A2'], B: ['B1', 'B2'], C: ['C1'] },
  scores: { A: 0.7, B: 0.6, C: 0.5, A1: 0.6, A2: 0.45, B1: 0.75, B2: 0.35, C1: 0.4 },
};

/** The first call that started at or after `time` (performance.now()), or none. */
const startedFrom = (model: TimedModel, time: number) => model.startedFrom(time);

describe('every rule holds with calls in flight together, on a model deaf to the abort signal', () => {
  const deaf = (latencyMs: number): TimedModelOptions => ({ latencyMs, ignoreAbort: true });

  it('no call starts after the deadline, and every call that answered is counted', async () => {
    for (const timeout of [30, 75, 130]) {
      const model = new TimedModel(new ScriptedTreeModel(TREE), deaf(40));
      const began = performance.now();
      const { result, events } = await search(model, 'Plan a migration', {
        maxDepth: 3,
        beamWidth: 3,
        timeout,
        maxConcurrentCalls: 8,
      });
      expect(result.finishReason).toBe('timeout');
      expect(startedFrom(model, began + timeout)).toEqual([]);
      expectEveryAnsweredCallCounted({ result, events, model });
    }
  });

  it('no call starts after an abort', async () => {
    const controller = new AbortController();
    const model = new TimedModel(new ScriptedTreeModel(TREE), {
      ...deaf(30),
      // abort as the level's calls are under way: some answered, some in flight, some waiting for a slot
      onStart: (_call, index) => {
        if (index === 6) setTimeout(() => controller.abort(), 5);
      },
    });
    let abortedAt = Infinity;
    controller.signal.addEventListener('abort', () => (abortedAt = performance.now()));
    const { result, events } = await search(
      model,
      'Plan a migration',
      { maxDepth: 3, beamWidth: 3, maxConcurrentCalls: 3 },
      { abortSignal: controller.signal },
    );
    expect(result.finishReason).toBe('aborted');
    expect(startedFrom(model, abortedAt)).toEqual([]);
    expectEveryAnsweredCallCounted({ result, events, model });
  });

  it('the cost cap is never passed, whatever the limit', async () => {
    // $10 a million tokens both ways: the scripted calls cost a few hundred-thousandths of a dollar each
    const prices = { 'gpt-4o': { inputPerMillion: 10, outputPerMillion: 10 } };
    const whole = await search(new ScriptedTreeModel(TREE), 'Plan a migration', { maxDepth: 3, beamWidth: 3 }, { prices });
    const full = whole.result.usage.cost;
    expect(full).toBeGreaterThan(0);
    for (const share of [0.2, 0.5, 0.8]) {
      for (const limit of [1, 4, 16]) {
        const cap = full * share;
        const model = new TimedModel(new ScriptedTreeModel(TREE), { latencyMs: () => Math.floor(Math.random() * 8) });
        const { result, events } = await search(
          model,
          'Plan a migration',
          { maxDepth: 3, beamWidth: 3, maxCostUsd: cap, maxConcurrentCalls: limit },
          { prices },
        );
        expect(result.finishReason).toBe('budget');
        expect(result.usage.cost).toBeLessThanOrEqual(cap);
        expectEveryAnsweredCallCounted({ result, events, model });
      }
    }
  });

  it('a prune stops the pruned step’s calls not yet started; those that answered are spent, never applied', async () => {
    const control = new ExplorationControl();
    let prunedAt = Infinity;
    let pruned = '';
    const model = new TimedModel(new ScriptedTreeModel(TREE), deaf(25));
    const { result, events } = await search(
      model,
      'Plan a migration',
      // one call at a time: the level's second expansion waits behind the first
      { maxDepth: 3, beamWidth: 2, maxConcurrentCalls: 1 },
      {
        control,
        onEvent: (event) => {
          if (event.type === 'node.started' && event.payload.batch && event.payload.mode === 'expand' && !pruned) {
            pruned = event.payload.batch[1] as string;
            // after the batch's first generation has started and the second step's generation has too
            setTimeout(() => {
              prunedAt = performance.now();
              control.prune(pruned, 'ann');
            }, 40);
          }
        },
      },
    );
    expect(pruned).not.toBe('');
    const tree = fold(events);
    expect(tree.nodes[pruned]?.status).toBe('pruned');
    // the pruned node never started in the log, made no expansion, and its answered calls are on record
    const grown = (e: ExplorationEvent) =>
      e.type === 'node.started' && e.payload.nodeId === pruned && e.payload.mode === 'expand';
    expect(events.some(grown)).toBe(false);
    expect(tree.nodes[pruned]?.expansions).toBe(0);
    const spent = events.filter((e) => e.type === 'model.called' && e.payload.nodeId === pruned);
    expect(spent.length).toBeGreaterThan(0);
    expect(tree.nodes[pruned]?.usage.inputTokens).toBeGreaterThan(0);
    // the calls of its step that had not started never started: at most the one in flight when the prune came
    const prunedCalls = spent.length;
    expect(prunedCalls).toBeLessThan(1 + TREE.children.B!.length);
    expect(startedFrom(model, prunedAt).length).toBeGreaterThan(0); // the run went on
    expectEveryAnsweredCallCounted({ result, events, model });
  });

  it('a pause starts no call of a later step until the run resumes', async () => {
    const control = new ExplorationControl();
    let pausedAt = Infinity;
    let resumedAt = Infinity;
    const model = new TimedModel(new ScriptedTreeModel(TREE), deaf(20));
    let first = '';
    const { result, events } = await search(
      model,
      'Plan a migration',
      { maxDepth: 3, beamWidth: 3, maxConcurrentCalls: 2 },
      {
        control,
        onEvent: (event) => {
          if (event.type === 'node.started' && event.payload.batch && event.payload.mode === 'expand' && !first) {
            first = event.payload.nodeId;
            setTimeout(() => {
              pausedAt = performance.now();
              control.pause('ann');
              setTimeout(() => {
                resumedAt = performance.now();
                control.resume('ann');
              }, 150);
            }, 5);
          }
        },
      },
    );
    expect(result.finishReason).not.toBe('error');
    expect(events.some((e) => e.type === 'run.paused' || e.type === 'steer.pause')).toBe(true);
    // While paused only the step under way (the batch's first expansion) may finish its calls: its generation and
    // evaluations are 1 + 3 calls; nothing else starts until the resume.
    const duringPause = model.log.filter((c) => c.startedAt >= pausedAt + 1 && c.startedAt < resumedAt);
    expect(duringPause.length).toBeLessThanOrEqual(3);
    expect(duringPause.every((c) => c.purpose === 'evaluate')).toBe(true);
    expectEveryAnsweredCallCounted({ result, events, model });
  });

  it('a restart from any group boundary of a beam run continues exactly, mid-batch included', async () => {
    const goal = puzzleGoal(puzzleRange(902, 903)[0] as Parameters<typeof puzzleGoal>[0]);
    const game24 = getTaskEntry('game24').task;
    const config = { ...PAPER, maxTotalNodes: 40, maxConcurrentCalls: 6 };
    const groups: number[] = [];
    const whole = await search(createSimulatedModel({ seed: 9 }), goal, config, {
      task: game24,
      onCommit: (group) => groups.push(group.at(-1)?.seq ?? 0),
    });
    const midBatch = groups.filter((seq) => {
      const tree = fold(whole.events.slice(0, seq));
      return tree.batch !== null && tree.batch.nodeIds.some((id) => tree.frontier[id]);
    });
    expect(midBatch.length).toBeGreaterThan(3);
    for (const cut of groups.slice(0, -1)) {
      const prefix = whole.events.slice(0, cut);
      const rest: ExplorationEvent[] = [];
      const model = new TimedModel(createSimulatedModel({ seed: 9 }), jitter(3));
      await new ThoughtTreeExecutor().resume({ name: 'concurrency', model }, prefix, {
        task: game24,
        onEvent: (e) => rest.push(e),
      });
      const kept = prefix.at(-1)?.type === 'node.started' ? prefix.slice(0, -1) : prefix;
      const resumed = [...kept, ...rest.filter((e) => e.type !== 'run.resumed')];
      expect(story(resumed).map(({ seq: _seq, ...e }) => e)).toEqual(story(whole.events).map(({ seq: _seq, ...e }) => e));
    }
  });
});
