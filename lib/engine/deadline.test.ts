/**
 * Deadlines and spent calls (issue 10, items 1 and 2), checked against the model's own log (TimedModel): no model
 * call starts once the time limit has passed or the abort signal has fired, whatever the step is doing (turns of a
 * branch run, the evaluations after a generation, the synthesis); and every call that answered is counted in the
 * stats, the tokens and the event log, even when its step was cut short.
 * No assertion on durations: only on which calls started after the deadline, and on counts.
 */
import { describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import type { ThoughtTask, ToTResult } from './types';
import { ThoughtTreeExecutor, type ExploreOptions } from './executor';
import { openGoalTask } from './prompts';
import { ScriptedTreeModel, TimedModel, type TimedModelOptions, type TreeSpec } from '../models/index';
import { expectEveryAnsweredCallCounted } from './testing';

// root -> A .7, B .6, C .5 ; A -> A1 .6, A2 .45 ; B -> B1 .75, B2 .35
const TREE: TreeSpec = {
  children: { '': ['A', 'B', 'C'], A: ['A1', 'A2'], B: ['B1', 'B2'] },
  scores: { A: 0.7, B: 0.6, C: 0.5, A1: 0.6, A2: 0.45, B1: 0.75, B2: 0.35 },
};

// Every branch is a sub-goal whose run never says it is done: each takes maxIterationsPerBranch turns.
const ENDLESS_TURNS: TreeSpec = {
  ...TREE,
  subGoals: ['A', 'B', 'C', 'A1', 'A2', 'B1', 'B2'],
  raw: { execute: () => 'still working on it\nCONTINUE' },
};

interface Run {
  result: ToTResult;
  events: ExplorationEvent[];
  model: TimedModel;
}

/**
 * Calls that started once `ms` had passed since the first call started. The run's clock starts before its first
 * call, so its deadline falls no later than this: a call listed here started after the deadline.
 */
function startedLate(model: TimedModel, ms: number) {
  return model.startedFrom((model.log[0]?.startedAt ?? 0) + ms);
}

async function run(
  spec: TreeSpec,
  timing: TimedModelOptions,
  config: Partial<ToTConfig>,
  options: ExploreOptions = {},
): Promise<Run> {
  const model = new TimedModel(new ScriptedTreeModel(spec), timing);
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor({ maxDepth: 2, ...config }).explore(
    { name: 'tester', model },
    'Plan a migration',
    { ...options, onEvent: (e) => events.push(e) },
  );
  return { result, events, model };
}

// 50 ms a call; the deadlines below fall in the middle of a call, 25 ms from either end.
const SLOW_DEAF: TimedModelOptions = { latencyMs: 50, ignoreAbort: true };

describe('the time limit (item 1)', () => {
  it('starts no turn of a branch run after the deadline', async () => {
    // grow root: generate 0-50, evaluate 50-100; run A: turns at 100, 150 and (past 175) 200
    const r = await run(ENDLESS_TURNS, SLOW_DEAF, { timeout: 175 });
    expect(r.result.finishReason).toBe('timeout');
    expect(r.model.log.filter((c) => c.purpose === 'execute').length).toBeGreaterThan(0);
    expect(startedLate(r.model, 175)).toEqual([]);
    expectEveryAnsweredCallCounted(r);
  });

  it('launches no evaluation after a generation that answered past the deadline, and counts that generation', async () => {
    // grow root: 0-100; run A, run B: direct responses, no call; grow A and B (one beam level, together): generate
    // 100-150, past the deadline at 125
    const r = await run(TREE, SLOW_DEAF, { timeout: 125 });
    expect(r.result.finishReason).toBe('timeout');
    expect(r.model.log.filter((c) => c.purpose === 'generate')).toHaveLength(3);
    expect(startedLate(r.model, 125)).toEqual([]);
    expectEveryAnsweredCallCounted(r);
    expect(r.result.stats.modelCalls).toBe(6); // 3 generations and 3 evaluations, all answered
  });

  it('cuts the synthesis call at the deadline instead of waiting for it', async () => {
    // everything is instant but the synthesis, which would take 5 s: the 100 ms limit passes during it
    const task: ThoughtTask = { ...openGoalTask, isAnswer: () => false };
    const timing: TimedModelOptions = { latencyMs: (req) => (req.purpose === 'synthesize' ? 5_000 : 0) };
    const r = await run(TREE, timing, { timeout: 100 }, { task });
    const synthesis = r.model.log.filter((c) => c.purpose === 'synthesize');
    expect(synthesis).toHaveLength(1);
    expect(synthesis[0]?.cut).toBe(true);
    expect(r.result.finishReason).toBe('timeout');
    expect(r.result.answerSource).toBe('none');
    expect(r.result.output).toBe('result of B1'); // the best node's own result, as after any timeout
    expectEveryAnsweredCallCounted(r);
  });
});

describe('the abort signal (item 1)', () => {
  it('starts no model call after the signal fires, between turns or after a generation', async () => {
    for (const spec of [ENDLESS_TURNS, TREE]) {
      const controller = new AbortController();
      let abortedAt = Infinity;
      const timer = setTimeout(() => {
        abortedAt = performance.now();
        controller.abort();
      }, 125);
      const r = await run(spec, SLOW_DEAF, {}, { abortSignal: controller.signal });
      clearTimeout(timer);
      expect(r.result.finishReason).toBe('aborted');
      expect(r.model.startedFrom(abortedAt)).toEqual([]);
      expectEveryAnsweredCallCounted(r);
    }
  });
});

describe('calls cut short are still spent (item 2)', () => {
  it('counts the answered calls of a step cut by the deadline when the model honours the signal', async () => {
    // grow A and B: generate 100-150 answers; their evaluations start at 150 and are cut at 175
    const r = await run(TREE, { latencyMs: 50 }, { timeout: 175 });
    expect(r.result.finishReason).toBe('timeout');
    expect(r.model.log.some((c) => c.cut)).toBe(true);
    expectEveryAnsweredCallCounted(r);
    expect(r.result.stats.modelCalls).toBe(6);
  });
});
