/**
 * The MCTS breakpoints (issue 31) in real searches: Game of 24 with the offline simulated model under
 * explorationStrategy 'mcts', stopping at iteration 3, at a node's Q passing a figure (mean and max backup) and at a
 * node's visits passing a number. Each stop is checked from outside the judge: against the iteration's own
 * mcts.selected, and against N and Q folded by reduce (tree.ts) just before and just after each backup of a run made
 * without breakpoints. The stop pauses the run right after its event (run.paused, reason 'breakpoint'), the page's
 * findHits over the recorded log finds exactly the stops, and resumed at each stop the log is the plain run's.
 * The judge alone: breakpoints.test.ts; other strategies: breakpoints-executor.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Breakpoint, BreakpointCondition, BreakpointHit } from '../contract/breakpoints';
import type { EventOf, ExplorationEvent } from '../contract/events';
import type { MctsStats, ToTConfig } from '../contract/vocabulary';
import { createSimulatedModel, game24Task, getPuzzle, puzzleGoal } from '../tasks/index';
import { findHits } from './breakpoints';
import { ExplorationControl } from './control';
import { ThoughtTreeExecutor } from './executor';
import { createEmptyTree, fold, reduce } from './tree';

/** "1 11 11 13": 32 iterations with these settings, values from 0 to 1, a verified answer at the end. */
const GOAL = puzzleGoal(getPuzzle(905));
const MCTS: Partial<ToTConfig> = {
  explorationStrategy: 'mcts',
  branchFactor: 5,
  maxDepth: 4,
  maxTotalNodes: 100,
  mctsIterations: 40,
};
const BREAKPOINT_TRAFFIC = new Set<ExplorationEvent['type']>(['breakpoints.set', 'run.paused', 'steer.resume']);

/** An MCTS search of GOAL; every run.paused is resumed at once (the log keeps it). */
async function search(config: Partial<ToTConfig>, breakpoints?: Breakpoint[]) {
  const control = new ExplorationControl();
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor(config).explore(
    { name: 'tester', model: createSimulatedModel({ seed: 1 }) },
    GOAL,
    {
      task: game24Task,
      runId: 'run',
      now: () => 1_700_000_000_000,
      control,
      breakpoints: breakpoints && { breakpoints, actor: 'tester' },
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'run.paused') control.resume('tester');
      },
    },
  );
  return { events, result };
}

const bp = (condition: BreakpointCondition): Breakpoint => ({ id: 'b', enabled: true, condition });
const stopsOf = (events: readonly ExplorationEvent[]) =>
  events.filter((e): e is EventOf<'run.paused'> => e.type === 'run.paused' && e.payload.reason === 'breakpoint');
const hitOf = (pause: EventOf<'run.paused'>) =>
  (pause.payload as Extract<EventOf<'run.paused'>['payload'], { reason: 'breakpoint' }>).hit;

/** A log less its breakpoints' events, seq, ts and latencies: what a run without breakpoints writes. */
const plainOf = (events: readonly ExplorationEvent[]) =>
  events
    .filter((e) => !BREAKPOINT_TRAFFIC.has(e.type))
    .map((e) => ({ type: e.type, payload: e.type === 'model.called' ? { ...e.payload, latencyMs: 0 } : e.payload }));

/** Each backup of a log with every path node's MCTS statistics folded just before and just after it. */
function foldedBackups(events: readonly ExplorationEvent[]) {
  const tree = createEmptyTree();
  const out: {
    event: EventOf<'mcts.backpropagated'>;
    nodes: { id: string; before: MctsStats | null; after: MctsStats | null }[];
  }[] = [];
  for (const event of events) {
    if (event.type !== 'mcts.backpropagated') {
      reduce(tree, event);
      continue;
    }
    // reduce replaces node objects and never mutates them, so what was read before stays as it was
    const before = event.payload.path.map((id) => tree.nodes[id]?.mcts ?? null);
    reduce(tree, event);
    out.push({
      event,
      nodes: event.payload.path.map((id, i) => ({
        id,
        before: before[i] ?? null,
        after: tree.nodes[id]?.mcts ?? null,
      })),
    });
  }
  return out;
}

/** The backups where a node's folded figure goes from at most `over` to above it, with the first such node. */
function expectedPasses(events: readonly ExplorationEvent[], figure: (s: MctsStats | null) => number, over: number) {
  return foldedBackups(events).flatMap(({ event, nodes }) => {
    const passing = nodes.filter((n) => figure(n.before) <= over && figure(n.after) > over);
    return passing.length === 0 ? [] : [{ iteration: event.payload.iteration, nodeId: passing[0]!.id }];
  });
}
/** A hit as the plain fold states it: the backup's iteration and the node named. */
const passOf = (eventOf: (h: BreakpointHit) => ExplorationEvent) => (hit: BreakpointHit) => ({
  iteration: (eventOf(hit) as EventOf<'mcts.backpropagated'>).payload.iteration,
  nodeId: hit.nodeId,
});
const qOf = (s: MctsStats | null) => s?.q ?? Number.NEGATIVE_INFINITY;
const visitsOf = (s: MctsStats | null) => s?.n ?? 0;

/**
 * Runs the search with one breakpoint and checks every stop: it names the backup (or selection) the plain run's fold
 * says, the run pauses right after that event, the page's findHits over the recorded log finds the same hits, and the
 * log less the breakpoints' events is the plain run's. Returns the stops' hits with their events.
 */
async function expectStops(config: Partial<ToTConfig>, condition: BreakpointCondition) {
  const plain = await search(config);
  const run = await search(config, [bp(condition)]);
  expect(plainOf(run.events)).toEqual(plainOf(plain.events));
  const stops = stopsOf(run.events);
  const hits = stops.map(hitOf);
  for (const [i, stop] of stops.entries()) {
    const hit = hits[i] as BreakpointHit;
    // the pause comes right after the hit's event: an MCTS move is a step of its own
    expect(stop.seq).toBe((hit.seq as number) + 1);
    const paused = fold(run.events.slice(0, stop.seq));
    expect(paused.status).toBe('paused');
    expect(paused.breakpointHit).toEqual(hit);
  }
  // the page's query over the recorded log: the same hits, and over the plain log the same events
  expect(findHits(run.events, [bp(condition)])).toEqual(hits);
  expect(findHits(plain.events, [bp(condition)]).map((h) => h.detail)).toEqual(hits.map((h) => h.detail));
  const eventOf = (hit: BreakpointHit) => run.events.find((e) => e.seq === hit.seq) as ExplorationEvent;
  return { hits, eventOf, plain, run };
}

describe('MCTS breakpoints in a real search (Game of 24, simulated model)', () => {
  it('mcts-iteration 3 stops once, right after iteration 3 selects its leaf, with the leaf not yet run', async () => {
    const { hits, eventOf, run } = await expectStops(MCTS, { kind: 'mcts-iteration', iteration: 3 });
    expect(hits).toHaveLength(1);
    const [hit] = hits as [BreakpointHit];
    const selected = eventOf(hit);
    expect(selected.type).toBe('mcts.selected');
    const payload = (selected as EventOf<'mcts.selected'>).payload;
    expect(payload.iteration).toBe(3);
    expect(hit.nodeId).toBe(payload.leafId);
    expect(hit.detail).toMatch(new RegExp(`^iteration 3 selected ${payload.leafId}, \\d+ hops? from the root$`));
    // the first selection numbered 3 in the log, and the paused tree is in iteration 3 with two values backed up
    expect(run.events.find((e) => e.type === 'mcts.selected' && e.payload.iteration === 3)).toBe(selected);
    const paused = fold(run.events.slice(0, (hit.seq as number) + 1));
    expect(paused.mcts?.current?.iteration).toBe(3);
    expect(paused.nodes[paused.rootId as string]?.mcts?.n).toBe(2);
  });

  it('q-above 0.6 (mean backup) stops at every backup whose fold takes a node past 0.6, naming the first', async () => {
    const { hits, eventOf, plain, run } = await expectStops(MCTS, { kind: 'q-above', q: 0.6 });
    const expected = expectedPasses(plain.events, qOf, 0.6);
    expect(expected.length, 'some node passes 0.6 in this search').toBeGreaterThan(0);
    expect(hits.map(passOf(eventOf))).toEqual(expected);
    for (const hit of hits) {
      const event = eventOf(hit);
      expect(event.type).toBe('mcts.backpropagated');
      // the node's Q folded before the hit's event was not above 0.6, after it is
      const seq = hit.seq as number;
      const before = fold(run.events.slice(0, seq - 1)).nodes[hit.nodeId as string]?.mcts ?? null;
      const after = fold(run.events.slice(0, seq)).nodes[hit.nodeId as string]?.mcts ?? null;
      expect(qOf(before)).toBeLessThanOrEqual(0.6);
      expect(qOf(after)).toBeGreaterThan(0.6);
      expect(hit.detail).toMatch(new RegExp(`^${hit.nodeId}'s Q rose to [\\d.]+, past 0\\.6 \\(`));
    }
  });

  it('q-above with max backup: the run folds by its own rule, and the stops follow the max', async () => {
    const config = { ...MCTS, mctsBackup: 'max' as const };
    const { hits, eventOf, plain } = await expectStops(config, { kind: 'q-above', q: 0.65 });
    const expected = expectedPasses(plain.events, qOf, 0.65);
    expect(expected.length).toBeGreaterThan(0);
    expect(hits.map(passOf(eventOf))).toEqual(expected);
    // with max, a value past the figure carries every ancestor at or below it over too; the detail names them
    const first = foldedBackups(plain.events).find((b) => b.event.payload.iteration === expected[0]!.iteration)!;
    const carried = first.nodes.filter((n) => qOf(n.before) <= 0.65 && qOf(n.after) > 0.65).map((n) => n.id);
    expect(carried.length).toBeGreaterThan(1);
    expect(hits[0]!.nodeId).toBe(carried[0]);
    expect(hits[0]!.detail).toMatch(/ too$/);
    for (const id of carried.slice(1)) expect(hits[0]!.detail).toContain(id);
  });

  it('visits-above 2 stops at each backup that gives a node its third visit, as the fold counts them', async () => {
    const { hits, eventOf, plain } = await expectStops(MCTS, { kind: 'visits-above', visits: 2 });
    const expected = expectedPasses(plain.events, visitsOf, 2);
    expect(expected.length).toBeGreaterThan(0);
    expect(hits.map(passOf(eventOf))).toEqual(expected);
    for (const hit of hits) expect(hit.detail).toBe(`${hit.nodeId}'s visits reached 3, past 2`);
  });
});
