/**
 * Breakpoints in real searches (issue 17's engine tests): Game of 24 with the offline simulated model (and the open
 * goal on a scripted tree, where nodes run the model), every strategy, every condition a run can reach. Each stop is checked against what the log says from outside the engine: the
 * first event that satisfies the condition, found by findHits over a run made without the breakpoint and by a plain
 * look at its events. Then: the same seed stops at the same event, a disabled breakpoint never stops, resuming at
 * every hit ends with the log of a run without breakpoints, "run to here" stops before the node's step, a list set
 * live applies at the next step boundary, a restart from a log cut at a hit stays stopped there, and a step from a
 * hit takes one step, a hit on the synthesis call cannot stop the run, and breakpoints the run manager wrote before
 * the search stop it as explore's own do. The judge alone: breakpoints.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Breakpoint, BreakpointCondition, BreakpointHit } from '../contract/breakpoints';
import type { EventOf, ExplorationEvent } from '../contract/events';
import type { ExplorationStrategy } from '../contract/vocabulary';
import { ScriptedTreeModel } from '../models/index';
import { createSimulatedModel, game24Task, getPuzzle, puzzleGoal } from '../tasks/index';
import { findHits } from './breakpoints';
import { ExplorationControl } from './control';
import { ThoughtTreeExecutor } from './executor';
import type { PriceTable } from './pricing';
import { followEvent } from './testing';
import { fold } from './tree';
import type { CompletionRequest, LanguageModel, ThoughtTask, ToTResult } from './types';

const STRATEGIES: readonly ExplorationStrategy[] = ['beam', 'best-first', 'dfs'];
/** "1 11 11 13": every strategy's search verifies, fails verification, backtracks and goes three levels deep. */
const GOAL = puzzleGoal(getPuzzle(905));
/** Prices for the simulated model, so that every call costs something the cost condition can pass. */
const PRICES: PriceTable = { simulated: { inputPerMillion: 1, outputPerMillion: 4 } };
/** The events a breakpoint adds to a log: with them removed, a run with breakpoints must read as one without. */
const BREAKPOINT_TRAFFIC = new Set<ExplorationEvent['type']>([
  'breakpoints.set',
  'run.paused',
  'steer.resume',
  'steer.step',
]);

/** What a search runs on: a goal, its task (the open goal when none) and a fresh model for each run. */
interface World {
  goal: string;
  task?: ThoughtTask;
  model: () => LanguageModel;
}

/** Game of 24 with the simulated model (seed 1). */
const GAME24: World = { goal: GOAL, task: game24Task, model: () => createSimulatedModel({ seed: 1 }) };
/** The same, with every 6th call failing. */
const GAME24_FAILING: World = { ...GAME24, model: () => failingEvery(6, createSimulatedModel({ seed: 1 })) };
/**
 * The open goal on a scripted tree whose thoughts are sub-goals, so nodes run the model (execute calls, responses and
 * results from the model); B1's run fails (a model error) and the search backtracks.
 */
const OPEN_GOAL: World = {
  goal: 'Plan a migration',
  model: () =>
    new ScriptedTreeModel({
      children: { '': ['A', 'B', 'C'], A: ['A1', 'A2'], B: ['B1', 'B2'] },
      scores: { A: 0.7, B: 0.6, C: 0.5, A1: 0.6, A2: 0.45, B1: 0.75, B2: 0.35 },
      subGoals: ['A', 'B', 'C', 'A1', 'A2', 'B1', 'B2'],
      fail: (request) =>
        request.purpose === 'execute' && !!request.messages.at(-1)?.content.includes('Approach to carry out now: B1'),
    }),
};

/** The simulated model with every `every`th call failing (counted in the order the search makes them). */
function failingEvery(every: number, model: LanguageModel): LanguageModel {
  let calls = 0;
  return {
    id: model.id,
    complete: (request: CompletionRequest) =>
      ++calls % every === 0 ? Promise.reject(new Error('the backend is overloaded')) : model.complete(request),
  };
}

interface SearchOptions {
  /** The run's log before the search (explore's `log`): what the run manager wrote when it created the run. */
  log?: ExplorationEvent[];
  /** GAME24 unless given. */
  world?: World;
  /** The world's goal unless given. */
  goal?: string;
  breakpoints?: Breakpoint[];
  /** Called after each event is applied; by default a run.paused is resumed at once. */
  onEvent?: (event: ExplorationEvent, control: ExplorationControl, log: readonly ExplorationEvent[]) => void;
}

const resumeAtEachPause = (event: ExplorationEvent, control: ExplorationControl) => {
  if (event.type === 'run.paused') control.resume('tester');
};

const MAX_PAUSES = 200;

const executorFor = (strategy: ExplorationStrategy) => new ThoughtTreeExecutor({ explorationStrategy: strategy });

async function search(strategy: ExplorationStrategy, options: SearchOptions = {}) {
  const control = new ExplorationControl();
  const events: ExplorationEvent[] = [];
  let pauses = 0;
  const onEvent = options.onEvent ?? resumeAtEachPause;
  const world = options.world ?? GAME24;
  const result = await executorFor(strategy).explore(
    { name: 'tester', model: world.model() },
    options.goal ?? world.goal,
    {
      task: world.task,
      prices: PRICES,
      runId: 'run',
      now: () => 1_700_000_000_000,
      control,
      breakpoints: options.breakpoints && { breakpoints: options.breakpoints, actor: 'tester' },
      log: options.log,
      onEvent: (event) => {
        events.push(event);
        // a stop that comes back at once after every resume would spin for ever without yielding: end it, so the
        // test fails instead of hanging (a search here pauses a few dozen times at most)
        if (event.type === 'run.paused' && ++pauses > MAX_PAUSES) return control.abort('too many pauses');
        onEvent(event, control, events);
      },
    },
  );
  return { events, result, control };
}

/** A log as a run without breakpoints would read: their events removed, seq and ts dropped, latency zeroed. */
function withoutBreakpointTraffic(events: readonly ExplorationEvent[]) {
  return events
    .filter((e) => !BREAKPOINT_TRAFFIC.has(e.type))
    .map((e) => ({
      type: e.type,
      payload: e.type === 'model.called' ? { ...e.payload, latencyMs: 0 } : e.payload,
    }));
}

/** A log with what a clock measures zeroed (a call's latency): two runs of one seed must then be equal. */
const unmeasured = (events: readonly ExplorationEvent[]) =>
  events.map((e) => (e.type === 'model.called' ? { ...e, payload: { ...e.payload, latencyMs: 0 } } : e));

/** Where an event of a log with breakpoints stands in that log once their traffic is removed (0-based). */
const plainIndexOf = (events: readonly ExplorationEvent[], seq: number) =>
  events.filter((e) => e.seq < seq && !BREAKPOINT_TRAFFIC.has(e.type)).length;

const pausesOf = (events: readonly ExplorationEvent[]) =>
  events.filter((e): e is EventOf<'run.paused'> => e.type === 'run.paused');
const hitsOf = (events: readonly ExplorationEvent[]) =>
  pausesOf(events).flatMap((e) => (e.payload.reason === 'breakpoint' ? [e.payload.hit] : []));
const bp = (condition: BreakpointCondition, enabled = true, id = 'b'): Breakpoint => ({ id, enabled, condition });
/** Ends the step under way: a breakpoint's events found by hand never count a synthesis or the finish itself. */
const endsTheRun = (e: ExplorationEvent) =>
  e.type === 'run.finished' || (e.type === 'model.called' && e.payload.purpose === 'synthesize');

/** Each condition with the plain look that finds its first event in a log, without the judge. */
interface Case {
  condition: BreakpointCondition;
  /** GAME24 unless given. */
  world?: World;
  first(events: readonly ExplorationEvent[], result: ToTResult): ExplorationEvent | undefined;
}

function firstPassing(
  events: readonly ExplorationEvent[],
  amount: (e: EventOf<'model.called'>) => number,
  over: number,
) {
  let sum = 0;
  return events.find((e) => {
    if (e.type !== 'model.called') return false;
    const before = sum;
    sum += amount(e);
    return before <= over && sum > over;
  });
}

const CASES: Case[] = [
  {
    condition: { kind: 'verification-failed' },
    first: (events) => events.find((e) => e.type === 'node.verified' && !e.payload.passed),
  },
  { condition: { kind: 'backtrack' }, first: (events) => events.find((e) => e.type === 'backtrack') },
  {
    condition: { kind: 'score-below', value: 0.3 },
    first: (events) => events.find((e) => e.type === 'branch.scored' && e.payload.score.composite < 0.3),
  },
  {
    condition: { kind: 'score-above', value: 0.5 },
    first: (events) => events.find((e) => e.type === 'branch.scored' && e.payload.score.composite > 0.5),
  },
  {
    condition: { kind: 'depth', depth: 3 },
    first: (events, result) =>
      events.find((e) => e.type === 'node.created' && result.tree.nodes[e.payload.nodeId]?.depth === 3),
  },
  {
    condition: { kind: 'cost-above', usd: 0.001 },
    first: (events) => firstPassing(events, (e) => e.payload.cost ?? 0, 0.001),
  },
  {
    condition: { kind: 'tokens-above', tokens: 1500 },
    first: (events) => firstPassing(events, (e) => e.payload.usage.inputTokens + e.payload.usage.outputTokens, 1500),
  },
  {
    condition: { kind: 'text-match', field: 'thought', pattern: 'LEFT: 13 132', regex: false, caseSensitive: false },
    first: (events) =>
      events.find(
        (e) => e.type === 'node.created' && !!e.payload.branch?.thought.toLowerCase().includes('left: 13 132'),
      ),
  },
  {
    condition: { kind: 'text-match', field: 'result', pattern: '= 1\\d\\d \\(', regex: true, caseSensitive: true },
    first: (events) => events.find((e) => e.type === 'node.completed' && /= 1\d\d \(/.test(e.payload.result.response)),
  },
  {
    condition: {
      kind: 'text-match',
      field: 'response',
      pattern: 'I CANNOT OBTAIN 24 NOW',
      regex: false,
      caseSensitive: false,
    },
    first: (events) =>
      events.find(
        (e) => e.type === 'model.called' && !!e.payload.response?.toLowerCase().includes('i cannot obtain 24 now'),
      ),
  },
  {
    condition: { kind: 'model-call-failed' },
    world: GAME24_FAILING,
    first: (events) => events.find((e) => e.type === 'model.called' && e.payload.error !== null),
  },
];

const caseName = (c: Case) =>
  c.condition.kind === 'text-match' ? `text-match on ${c.condition.field}` : c.condition.kind;

/**
 * One condition in one strategy's search: the stop is exact and each later one is the first hit of its step, the
 * same seed stops at the same events, resumed at each stop the log is the plain run's, disabled it never stops.
 */
async function expectExactStops(strategy: ExplorationStrategy, c: Case) {
  const plain = await search(strategy, { world: c.world });
  expect(pausesOf(plain.events)).toEqual([]);
  const list = [bp(c.condition)];

  // from outside the engine: the first event that satisfies the condition, by a plain look and by the judge
  const first = c.first(plain.events, plain.result);
  expect(first, 'the condition is reached by this search').toBeDefined();
  const firstSeq = (first as ExplorationEvent).seq;
  expect(findHits(plain.events, list)[0]?.seq).toBe(firstSeq);

  const run = await search(strategy, { world: c.world, breakpoints: list });
  const [stop] = pausesOf(run.events);
  const hit = hitsOf(run.events)[0] as BreakpointHit;
  expect(stop?.payload).toMatchObject({ reason: 'breakpoint', hit: { breakpointId: 'b', condition: c.condition } });
  // exact: the hit names the first satisfying event, never one later
  expect(plainIndexOf(run.events, hit.seq as number)).toBe(firstSeq - 1);
  const hitEvent = run.events.find((e) => e.seq === hit.seq) as ExplorationEvent;
  expect(hitEvent.type).toBe(hit.eventType);
  // both with what a clock measures zeroed: a call's latency differs between two runs of one seed on a busy machine
  expect(withoutBreakpointTraffic([hitEvent])[0]).toEqual(withoutBreakpointTraffic([first!])[0]);
  // the run stops at the end of that step: no step starts between the hit and the pause
  const between = run.events.filter((e) => e.seq > (hit.seq as number) && e.seq < (stop as ExplorationEvent).seq);
  expect(between.filter((e) => e.type === 'node.started')).toEqual([]);

  // every later stop too: the first hit of each step that has one, as findHits reads the log afterwards
  const steps = new Map<number, number>();
  const stepOf = (seq: number) => run.events.filter((e) => e.seq <= seq && e.type === 'node.started').length;
  for (const h of findHits(run.events, list)) {
    const e = run.events.find((x) => x.seq === h.seq) as ExplorationEvent;
    if (endsTheRun(e) || steps.has(stepOf(e.seq))) continue;
    steps.set(stepOf(e.seq), e.seq);
  }
  expect(hitsOf(run.events).map((h) => h.seq)).toEqual([...steps.values()]);
  for (const [i, pause] of pausesOf(run.events).entries()) {
    const hitSeq = hitsOf(run.events)[i]?.seq as number;
    const cut = run.events.filter((e) => e.seq > hitSeq && e.seq < pause.seq);
    expect(cut.some((e) => e.type === 'node.started')).toBe(false);
  }

  // resumed at each hit, the run ends as it does without the breakpoint
  expect(withoutBreakpointTraffic(run.events)).toEqual(withoutBreakpointTraffic(plain.events));
  expect(run.result.output).toBe(plain.result.output);

  // deterministic: the same seed stops at the same events again
  const again = await search(strategy, { world: c.world, breakpoints: list });
  expect(hitsOf(again.events)).toEqual(hitsOf(run.events));
  expect(unmeasured(again.events)).toEqual(unmeasured(run.events));

  // a disabled breakpoint never stops
  const off = await search(strategy, { world: c.world, breakpoints: [bp(c.condition, false)] });
  expect(pausesOf(off.events)).toEqual([]);
  expect(withoutBreakpointTraffic(off.events)).toEqual(withoutBreakpointTraffic(plain.events));
}

describe.each(STRATEGIES)('%s: each condition stops the run at its first event (Game of 24)', (strategy) => {
  it.each(CASES.map((c) => [caseName(c), c] as const))('%s', (_, c) => expectExactStops(strategy, c));
});

/** Where a node runs the model: its execute calls' responses, its results, a failed execute call. */
const OPEN_GOAL_CASES: Case[] = [
  {
    world: OPEN_GOAL,
    condition: { kind: 'text-match', field: 'response', pattern: 'done B', regex: false, caseSensitive: true },
    first: (events) => events.find((e) => e.type === 'model.called' && !!e.payload.response?.includes('done B')),
  },
  {
    world: OPEN_GOAL,
    condition: { kind: 'text-match', field: 'result', pattern: '^done A\\d', regex: true, caseSensitive: true },
    first: (events) => events.find((e) => e.type === 'node.completed' && /^done A\d/.test(e.payload.result.response)),
  },
  {
    world: OPEN_GOAL,
    condition: { kind: 'model-call-failed' },
    first: (events) => events.find((e) => e.type === 'model.called' && e.payload.error !== null),
  },
  {
    world: OPEN_GOAL,
    condition: { kind: 'backtrack' },
    first: (events) => events.find((e) => e.type === 'backtrack'),
  },
];

describe.each(STRATEGIES)('%s: conditions on the model runs of nodes (open goal, scripted tree)', (strategy) => {
  it.each(OPEN_GOAL_CASES.map((c) => [caseName(c), c] as const))('%s', (_, c) => expectExactStops(strategy, c));
});

/**
 * A node that waits in the queue while another step runs, and starts twice (it runs, then grows): "run to here" on it
 * must stop before its first step only.
 */
function queuedNode(events: readonly ExplorationEvent[]): string | undefined {
  const starts = events.filter((e): e is EventOf<'node.started'> => e.type === 'node.started');
  return starts.find((s, i) => {
    const id = s.payload.nodeId;
    const queued = events.find((e) => e.type === 'node.queued' && e.payload.nodeId === id);
    const startsOfIt = starts.filter((x) => x.payload.nodeId === id).length;
    const previous = starts[i - 1];
    return s.payload.mode === 'execute' && startsOfIt >= 2 && !!queued && !!previous && previous.seq > queued.seq;
  })?.payload.nodeId;
}

describe.each(STRATEGIES)('%s: run to here', (strategy) => {
  it('stops before the queued node runs (still pending), turns the breakpoint off, and resume runs it next', async () => {
    const plain = await search(strategy);
    const nodeId = queuedNode(plain.events) as string;
    expect(nodeId, 'a node waits in the queue and then runs twice').toBeDefined();
    let atPause: ReturnType<typeof fold> | null = null;
    const run = await search(strategy, {
      breakpoints: [bp({ kind: 'node-runs', nodeId })],
      onEvent: (event, control, log) => {
        if (event.type !== 'run.paused') return;
        atPause = fold(log);
        control.resume('tester');
      },
    });
    const [pause, ...more] = pausesOf(run.events);
    expect(more, 'one-shot: its later step (it grows) does not stop').toEqual([]);
    expect(pause?.payload).toEqual({
      reason: 'breakpoint',
      hit: {
        breakpointId: 'b',
        condition: { kind: 'node-runs', nodeId },
        seq: null,
        eventType: 'node.started',
        nodeId,
        detail: `${nodeId} is about to run (execute)`,
      },
    });
    const tree = atPause as unknown as ReturnType<typeof fold>;
    expect(tree.status).toBe('paused');
    expect(tree.nodes[nodeId]?.status).toBe('pending');
    expect(tree.frontier[nodeId]).toBeDefined();
    expect(tree.breakpointHit?.nodeId).toBe(nodeId);
    expect(tree.breakpoints).toEqual([bp({ kind: 'node-runs', nodeId }, false)]);
    const before = run.events.filter((e) => e.seq < (pause as ExplorationEvent).seq);
    expect(before.some((e) => e.type === 'node.started' && e.payload.nodeId === nodeId)).toBe(false);
    const after = run.events.filter((e) => e.seq > (pause as ExplorationEvent).seq).slice(0, 2);
    expect(after.map((e) => [e.type, e.payload])).toEqual([
      ['steer.resume', { actor: 'tester' }],
      ['node.started', { nodeId, mode: 'execute' }],
    ]);
    expect(withoutBreakpointTraffic(run.events)).toEqual(withoutBreakpointTraffic(plain.events));
  });
});

describe.each(STRATEGIES)('%s: breakpoints set live', (strategy) => {
  it('apply from the next step boundary and stop there; switched off while paused, the run goes to the end', async () => {
    const plain = await search(strategy);
    const condition: BreakpointCondition = { kind: 'verification-failed' };
    let sentAt = 0;
    const run = await search(strategy, {
      onEvent: (event, control) => {
        // sent in the middle of the step whose verification fails first: that step is not judged any more
        if (sentAt === 0 && event.type === 'node.verified' && !event.payload.passed) {
          sentAt = event.seq;
          control.setBreakpoints([bp(condition)], 'alice');
        } else if (event.type === 'run.paused') {
          control.setBreakpoints([bp(condition, false)], 'alice');
          control.resume('alice');
        }
      },
    });
    const sets = run.events.filter((e): e is EventOf<'breakpoints.set'> => e.type === 'breakpoints.set');
    expect(sets.map((e) => e.payload)).toEqual([
      { breakpoints: [bp(condition)], actor: 'alice' },
      { breakpoints: [bp(condition, false)], actor: 'alice' },
    ]);
    const [set] = sets as [EventOf<'breakpoints.set'>];
    // the next step boundary: after the step under way ended, before the next one starts
    const between = run.events.filter((e) => e.seq > sentAt && e.seq < set.seq);
    expect(between.some((e) => e.type === 'node.started')).toBe(false);
    expect(run.events.find((e) => e.seq === set.seq + 1)?.type).toBe('node.started');
    // it stops at the first failed verification after the list was set, and only there
    const expected = findHits(run.events, [bp(condition)]).find((h) => (h.seq as number) > set.seq);
    expect(expected, 'another verification fails later').toBeDefined();
    expect(hitsOf(run.events).map((h) => h.seq)).toEqual([expected?.seq]);
    expect(run.result.tree.status).toBe('finished');
    expect(withoutBreakpointTraffic(run.events)).toEqual(withoutBreakpointTraffic(plain.events));
  });
});

describe('setBreakpoints', () => {
  it('refuses "run to here" on a node that is not in the run', async () => {
    let problem: unknown = null;
    await search('beam', {
      onEvent: (event, control) => {
        if (event.type !== 'node.expanded' || problem) return;
        try {
          control.setBreakpoints([bp({ kind: 'node-runs', nodeId: 'n999' })]);
        } catch (error) {
          problem = error;
        }
      },
    });
    expect(problem).toMatchObject({ name: 'SteeringError', message: 'no node n999 in this run' });
  });
});

describe.each(STRATEGIES)('%s: a restart at a breakpoint pause', (strategy) => {
  it.each([
    ['the log ends at the pause', false],
    ['the server wrote run.interrupted', true],
  ] as const)(
    'stays paused at the hit until a resume (%s), then ends as the uninterrupted run',
    async (_, interrupted) => {
      const plain = await search(strategy);
      const list = [bp({ kind: 'verification-failed' })];
      // the first run stops at its first hit and the process ends there: its log is cut after that run.paused
      const first = await search(strategy, {
        breakpoints: list,
        onEvent: (event, control) => {
          if (event.type === 'run.paused') control.abort('the process ended');
        },
      });
      const cut = first.events.slice(0, first.events.findIndex((e) => e.type === 'run.paused') + 1);
      const log = interrupted ? [...cut, followEvent(cut, 'run.interrupted', { reason: 'server restarted' })] : cut;
      const hit = hitsOf(cut)[0] as BreakpointHit;

      const control = new ExplorationControl();
      const resumed: ExplorationEvent[] = [];
      let atResume: ReturnType<typeof fold> | null = null;
      const result = await executorFor(strategy).resume({ name: 'tester', model: GAME24.model() }, log, {
        task: game24Task,
        prices: PRICES,
        now: () => 1_700_000_000_000,
        control,
        onEvent: (event) => {
          resumed.push(event);
          if (event.type === 'run.resumed') {
            atResume = fold([...log, ...resumed]);
            // the person resumes once the run is back, waiting
            queueMicrotask(() => control.resume('tester'));
          } else if (event.type === 'run.paused') control.resume('tester');
        },
      });
      const tree = atResume as unknown as ReturnType<typeof fold>;
      expect(tree.status).toBe('paused');
      expect(tree.breakpointHit).toEqual(hit);
      // nothing ran until the resume came
      expect(resumed.slice(0, 2).map((e) => e.type)).toEqual(['run.resumed', 'steer.resume']);
      expect(result.tree.breakpointHit).toBeNull();
      const whole = [...log, ...resumed].filter((e) => e.type !== 'run.resumed' && e.type !== 'run.interrupted');
      expect(withoutBreakpointTraffic(whole)).toEqual(withoutBreakpointTraffic(plain.events));
    },
  );
});

describe('step at a breakpoint pause', () => {
  const reasons = new Set<string>();

  describe.each(STRATEGIES)('%s', (strategy) => {
    it.each(CASES.map((c) => [caseName(c), c] as const))(
      '%s: takes one step and pauses (a step pause, or a breakpoint pause if that step hits)',
      async (_, c) => {
        const plain = await search(strategy, { world: c.world });
        const list = [bp(c.condition)];
        let stepped = false;
        const run = await search(strategy, {
          world: c.world,
          breakpoints: list,
          onEvent: (event, control) => {
            if (event.type !== 'run.paused') return;
            if (stepped) return control.resume('tester');
            stepped = true;
            control.step('tester');
          },
        });
        const [first, second] = pausesOf(run.events);
        if (!second) {
          // the step was the last: the run ended without another pause
          expect(run.events.at(-1)?.type).toBe('run.finished');
          return;
        }
        const taken = run.events.filter((e) => e.seq > (first as ExplorationEvent).seq && e.seq < second.seq);
        expect(taken.filter((e) => e.type === 'node.started')).toHaveLength(1);
        const hitInStep = findHits(run.events, list).find((h) => taken.some((e) => e.seq === h.seq)) ?? null;
        reasons.add(second.payload.reason);
        if (hitInStep) {
          expect(second.payload).toMatchObject({ reason: 'breakpoint', hit: { seq: hitInStep.seq } });
        } else {
          expect(second.payload).toEqual({ reason: 'step' });
        }
        expect(withoutBreakpointTraffic(run.events)).toEqual(withoutBreakpointTraffic(plain.events));
      },
    );
  });

  it('saw both: a step that hits pauses at the breakpoint, one that does not pauses as a step', () => {
    expect([...reasons].sort()).toEqual(['breakpoint', 'step']);
  });
});

describe.each(STRATEGIES)('%s: the run ending', (strategy) => {
  it('a hit in the step that finds the answer pauses there; resumed, the run ends as it would have', async () => {
    const goal = puzzleGoal(getPuzzle(900));
    const list = [bp({ kind: 'text-match', field: 'result', pattern: '= 24$', regex: true, caseSensitive: true })];
    const plain = await search(strategy, { goal });
    expect(plain.result.finishReason).toBe('terminated');
    const run = await search(strategy, { goal, breakpoints: list });
    const [pause, ...more] = pausesOf(run.events);
    expect(more).toEqual([]);
    const hit = (pause?.payload as { hit: BreakpointHit }).hit;
    expect(run.result.tree.terminatedBy).toBe(hit.nodeId);
    expect(run.events.slice(-3).map((e) => e.type)).toEqual(['run.paused', 'steer.resume', 'run.finished']);
    expect(withoutBreakpointTraffic(run.events)).toEqual(withoutBreakpointTraffic(plain.events));
  });

  it("a hit on the synthesis call cannot stop the run: it ends, and the recorded run's hits list it", async () => {
    const list = [
      bp({ kind: 'text-match', field: 'response', pattern: 'no solution found', regex: false, caseSensitive: false }),
    ];
    const run = await search(strategy, { breakpoints: list });
    expect(pausesOf(run.events)).toEqual([]);
    expect(run.result.tree.status).toBe('finished');
    const hits = findHits(run.events, list);
    expect(hits).toHaveLength(1);
    expect(run.events.find((e) => e.seq === hits[0]?.seq)?.payload).toMatchObject({ purpose: 'synthesize' });
  });
});

describe.each(STRATEGIES)('%s: breakpoints the run was created with', (strategy) => {
  it("a breakpoints.set the run manager wrote before the search stops it as explore's own would", async () => {
    const list = [bp({ kind: 'verification-failed' }), bp({ kind: 'depth', depth: 3 }, true, 'deep')];
    const own = await search(strategy, { breakpoints: list });
    const created: ExplorationEvent[] = [
      { runId: 'run', seq: 1, ts: 0, type: 'run.queued', payload: { reason: 'new', actor: 'tester' } },
      { runId: 'run', seq: 2, ts: 0, type: 'breakpoints.set', payload: { breakpoints: list, actor: 'tester' } },
    ];
    const managed = await search(strategy, { log: created });
    expect(hitsOf(own.events).length).toBeGreaterThan(1);
    // the same stops, one seq later: run.queued comes first in the manager's log
    expect(hitsOf(managed.events)).toEqual(hitsOf(own.events).map((h) => ({ ...h, seq: (h.seq as number) + 1 })));
    expect(withoutBreakpointTraffic(managed.events)).toEqual(withoutBreakpointTraffic(own.events));
  });
});
