/**
 * Breakpoints in real searches (issue 17's engine tests): Game of 24 with the offline simulated model, every strategy,
 * every condition a run can reach. Each stop is checked against what the log says from outside the engine: the
 * first event that satisfies the condition, found by findHits over a run made without the breakpoint and by a plain
 * look at its events. Then: the same seed stops at the same event, a disabled breakpoint never stops, resuming at
 * every hit ends with the log of a run without breakpoints, "run to here" stops before the node's step, a list set
 * live applies at the next step boundary, a restart from a log cut at a hit stays stopped there, and a step from a
 * hit takes one step. The judge alone: breakpoints.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Breakpoint, BreakpointCondition, BreakpointHit } from '../contract/breakpoints';
import type { EventOf, ExplorationEvent } from '../contract/events';
import type { ExplorationStrategy } from '../contract/vocabulary';
import { getPuzzle, puzzleGoal } from '../tasks/game24/puzzles';
import { game24Task } from '../tasks/game24/task';
import { createSimulatedModel } from '../tasks/simulated-model';
import { findHits } from './breakpoints';
import { ExplorationControl } from './control';
import { ThoughtTreeExecutor } from './executor';
import type { PriceTable } from './pricing';
import { followEvent } from './testing';
import { fold } from './tree';
import type { CompletionRequest, LanguageModel, ToTResult } from './types';

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
  breakpoints?: Breakpoint[];
  failing?: boolean;
  /** Called after each event is applied; by default a run.paused is resumed at once. */
  onEvent?: (event: ExplorationEvent, control: ExplorationControl) => void;
}

const resumeAtEachPause = (event: ExplorationEvent, control: ExplorationControl) => {
  if (event.type === 'run.paused') control.resume('tester');
};

function modelFor(failing = false): LanguageModel {
  const model = createSimulatedModel({ seed: 1 });
  return failing ? failingEvery(6, model) : model;
}

const executorFor = (strategy: ExplorationStrategy) => new ThoughtTreeExecutor({ explorationStrategy: strategy });

async function search(strategy: ExplorationStrategy, options: SearchOptions = {}) {
  const control = new ExplorationControl();
  const events: ExplorationEvent[] = [];
  const onEvent = options.onEvent ?? resumeAtEachPause;
  const result = await executorFor(strategy).explore({ name: 'tester', model: modelFor(options.failing) }, GOAL, {
    task: game24Task,
    prices: PRICES,
    runId: 'run',
    now: () => 1_700_000_000_000,
    control,
    breakpoints: options.breakpoints && { breakpoints: options.breakpoints, actor: 'tester' },
    onEvent: (event) => {
      events.push(event);
      onEvent(event, control);
    },
  });
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
  failing?: boolean;
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
    failing: true,
    first: (events) => events.find((e) => e.type === 'model.called' && e.payload.error !== null),
  },
];

const caseName = (c: Case) =>
  c.condition.kind === 'text-match' ? `text-match on ${c.condition.field}` : c.condition.kind;

describe.each(STRATEGIES)('%s: each condition stops the run at its first event', (strategy) => {
  it.each(CASES.map((c) => [caseName(c), c] as const))('%s', async (_, c) => {
    const plain = await search(strategy, { failing: c.failing });
    expect(pausesOf(plain.events)).toEqual([]);
    const list = [bp(c.condition)];

    // from outside the engine: the first event that satisfies the condition, by a plain look and by the judge
    const first = c.first(plain.events, plain.result);
    expect(first, 'the condition is reached by this search').toBeDefined();
    const firstSeq = (first as ExplorationEvent).seq;
    expect(findHits(plain.events, list)[0]?.seq).toBe(firstSeq);

    const run = await search(strategy, { failing: c.failing, breakpoints: list });
    const [stop] = pausesOf(run.events);
    const hit = hitsOf(run.events)[0] as BreakpointHit;
    expect(stop?.payload).toMatchObject({ reason: 'breakpoint', hit: { breakpointId: 'b', condition: c.condition } });
    // exact: the hit names the first satisfying event, never one later
    expect(plainIndexOf(run.events, hit.seq as number)).toBe(firstSeq - 1);
    const hitEvent = run.events.find((e) => e.seq === hit.seq) as ExplorationEvent;
    expect(hitEvent.type).toBe(hit.eventType);
    expect({ type: hitEvent.type, payload: hitEvent.payload }).toEqual(withoutBreakpointTraffic([first!])[0]);
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
    const again = await search(strategy, { failing: c.failing, breakpoints: list });
    expect(hitsOf(again.events)).toEqual(hitsOf(run.events));
    expect(unmeasured(again.events)).toEqual(unmeasured(run.events));

    // a disabled breakpoint never stops
    const off = await search(strategy, { failing: c.failing, breakpoints: [bp(c.condition, false)] });
    expect(pausesOf(off.events)).toEqual([]);
    expect(withoutBreakpointTraffic(off.events)).toEqual(withoutBreakpointTraffic(plain.events));
  });
});
