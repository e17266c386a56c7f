/**
 * Monte Carlo tree search (issue 31), proven from outside the engine: every check below reads only the run's log and
 * trees folded from it, and computes UCT, visits and Q from their formulas (written here, not imported from mcts.ts):
 * - at every iteration each hop chose the child that maximises UCT = Q + c * sqrt(ln N(parent) / N(child)) over the
 *   N and Q folded just before the iteration (unvisited children first, by prior), and the hop's figures are those;
 * - N(root) equals the iterations that backed up a value; every node's N and Q are the count and the mean (or max)
 *   of the values backed up through it;
 * - the same seed writes the same log; a restart from any group boundary continues exactly;
 * - a prune takes the subtree out of selection; a step runs exactly one iteration;
 * - the config refuses a negative or non-finite c, an iteration budget of 0 and a rollout deeper than maxDepth.
 * Not a success-rate figure: bench:mcts prints those.
 */
import { describe, expect, it } from 'vitest';
import { createSimulatedModel, getTaskEntry, puzzleGoal, puzzleRange } from '../tasks/index';
import type { EventOf, ExplorationEvent } from '../contract/events';
import type { ToTConfig } from '../contract/vocabulary';
import { clockless } from './clockless';
import { InvalidConfigError, resolveConfig } from './config';
import { ExplorationControl } from './control';
import { forkEvents } from './fork';
import { ThoughtTreeExecutor, type ExploreOptions } from './executor';
import { fold, subtreeIds } from './tree';
import type { ThoughtNode, ThoughtTree } from './types';

const game24 = getTaskEntry('game24').task;
const goals = puzzleRange(900, 906).map((p) => puzzleGoal(p));
const moreGoals = puzzleRange(900, 925).map((p) => puzzleGoal(p));
const MCTS: Partial<ToTConfig> = {
  explorationStrategy: 'mcts',
  branchFactor: 5,
  beamWidth: 1,
  maxDepth: 4,
  maxTotalNodes: 100,
  mctsIterations: 40,
};

async function search(config: Partial<ToTConfig>, goal: string, options: ExploreOptions = {}, seed = 4) {
  const events: ExplorationEvent[] = [];
  const result = await new ThoughtTreeExecutor(config).explore(
    { name: 'mcts', model: createSimulatedModel({ seed }) },
    goal,
    {
      runId: 'r',
      task: game24,
      ...options,
      onEvent: (event) => {
        events.push(event);
        options.onEvent?.(event);
      },
    },
  );
  return { result, events };
}

type Selected = EventOf<'mcts.selected'>;
type Backed = EventOf<'mcts.backpropagated'>;
const selections = (events: readonly ExplorationEvent[]) =>
  events.filter((e): e is Selected => e.type === 'mcts.selected');
const backups = (events: readonly ExplorationEvent[]) =>
  events.filter((e): e is Backed => e.type === 'mcts.backpropagated');

/** The checker's UCT, from the formula. */
function uct(q: number, c: number, parentVisits: number, visits: number): number {
  return q + c * Math.sqrt(Math.log(parentVisits) / visits);
}

/** Whether a subtree still has something to do: a node not run, or a ran node below maxDepth never grown. */
function hasWork(tree: ThoughtTree, node: ThoughtNode, maxDepth: number): boolean {
  if (node.status === 'failed' || node.status === 'pruned') return false;
  if (node.status === 'pending') return true;
  const children = node.childIds.map((id) => tree.nodes[id] as ThoughtNode);
  if (children.length === 0) return node.expansions === 0 && node.depth < maxDepth && !isTerminal(tree, node);
  return children.some((child) => hasWork(tree, child, maxDepth));
}

/** The task's own rule: nothing to grow from an answer or a board that cannot reach 24. */
function isTerminal(tree: ThoughtTree, node: ThoughtNode): boolean {
  const path: ThoughtNode[] = [];
  for (let at: ThoughtNode | undefined = node; at; at = at.parentId ? tree.nodes[at.parentId] : undefined)
    path.unshift(at);
  return game24.isTerminal?.(node, path, tree.goal) ?? false;
}

/** Every selection checked against the tree folded just before it. */
function checkSelections(events: readonly ExplorationEvent[], c: number, maxDepth: number): number {
  let hops = 0;
  for (const selected of selections(events)) {
    const before = fold(events.slice(0, selected.seq - 1));
    const { hops: walk, leafId } = selected.payload;
    let parentId = before.rootId as string;
    for (const hop of walk) {
      expect(hop.parentId).toBe(parentId);
      const parent = before.nodes[parentId] as ThoughtNode;
      const parentVisits = parent.mcts?.n ?? 0;
      expect(hop.parentVisits).toBe(parentVisits);
      // the candidates are the children with work left, and no child with work is left out
      const live = parent.childIds.filter((id) => hasWork(before, before.nodes[id] as ThoughtNode, maxDepth));
      expect(hop.candidates.map((candidate) => candidate.nodeId)).toEqual(live);
      const scored = live.map((id) => {
        const node = before.nodes[id] as ThoughtNode;
        const visits = node.mcts?.n ?? 0;
        const q = node.mcts?.q ?? 0;
        return {
          id,
          visits,
          prior: node.score?.composite ?? 0,
          value: visits === 0 ? Infinity : uct(q, c, parentVisits, visits),
        };
      });
      for (const candidate of hop.candidates) {
        const mine = scored.find((s) => s.id === candidate.nodeId);
        expect(candidate.visits).toBe(mine?.visits);
        if (candidate.uct !== null) expect(candidate.uct).toBeCloseTo(mine?.value as number, 12);
        else expect(mine?.visits).toBe(0);
      }
      const chosen = scored.find((s) => s.id === hop.chosenId) as (typeof scored)[number];
      for (const other of scored) {
        // nothing beats the chosen child: a higher UCT (unvisited counts as infinite), or the same with a higher prior
        expect(other.value > chosen.value || (other.value === chosen.value && other.prior > chosen.prior)).toBe(false);
      }
      parentId = hop.chosenId;
      hops += 1;
    }
    expect(leafId).toBe(parentId);
  }
  return hops;
}

/** N and Q of every node, from the values backed up through it: count, and mean or max. */
function checkStatistics(events: readonly ExplorationEvent[], rule: 'mean' | 'max'): void {
  const values = new Map<string, number[]>();
  for (const backup of backups(events)) {
    if (backup.payload.value === null) continue;
    for (const id of backup.payload.path) values.set(id, [...(values.get(id) ?? []), backup.payload.value]);
  }
  const tree = fold(events);
  for (const id of tree.nodeOrder) {
    const seen = values.get(id) ?? [];
    const node = tree.nodes[id] as ThoughtNode;
    expect(node.mcts?.n ?? 0).toBe(seen.length);
    if (seen.length === 0) continue;
    const expected = rule === 'max' ? Math.max(...seen) : seen.reduce((a, b) => a + b, 0) / seen.length;
    expect(node.mcts?.q).toBeCloseTo(expected, 10);
  }
  const root = tree.nodes[tree.rootId as string] as ThoughtNode;
  const backedUp = backups(events).filter((b) => b.payload.value !== null).length;
  expect(root.mcts?.n ?? 0).toBe(backedUp);
  // every backup walks from its node to the root
  for (const backup of backups(events)) {
    if (backup.payload.value === null) continue;
    expect(backup.payload.path[0]).toBe(backup.payload.nodeId);
    expect(backup.payload.path.at(-1)).toBe(tree.rootId);
  }
}

describe('MCTS selects by UCT and backs values up, as the formulas say', () => {
  it.each([
    { label: 'c = sqrt 2, mean', c: Math.SQRT2, rule: 'mean' as const, rollout: 0 },
    { label: 'c = 0.5, max', c: 0.5, rule: 'max' as const, rollout: 0 },
    { label: 'c = 3, mean, a rollout of 1', c: 3, rule: 'mean' as const, rollout: 1 },
  ])('$label: every selection and every N and Q, on 25 puzzles', async ({ c, rule, rollout }) => {
    let hops = 0;
    let iterations = 0;
    for (const goal of moreGoals) {
      const config = { ...MCTS, mctsExploration: c, mctsBackup: rule, mctsRolloutDepth: rollout };
      const { events, result } = await search(config, goal);
      hops += checkSelections(events, c, config.maxDepth as number);
      checkStatistics(events, rule);
      iterations += selections(events).length;
      expect(result.tree.mcts?.iterations).toBe(selections(events).length);
      expect(['terminated', 'iteration-limit', 'frontier-empty', 'node-limit']).toContain(result.finishReason);
      // MCTS never backtracks: a dead end's 0 is backed up instead
      expect(events.some((e) => e.type === 'backtrack')).toBe(false);
    }
    expect(iterations).toBeGreaterThan(40);
    expect(hops).toBeGreaterThan(iterations);
  });

  it('a rollout runs on from the simulated node, and its last node gives the value', async () => {
    const { events } = await search({ ...MCTS, mctsRolloutDepth: 2 }, goals[0] as string);
    const tree = fold(events);
    const deeper = backups(events).filter((b) => {
      const leaf = selections(events).find((s) => s.payload.iteration === b.payload.iteration)?.payload.leafId;
      return leaf && (tree.nodes[b.payload.nodeId]?.depth ?? 0) > (tree.nodes[leaf]?.depth ?? 0) + 1;
    });
    expect(deeper.length).toBeGreaterThan(0);
  });

  it("stops at a verified answer, which is the run's output", async () => {
    const runs = await Promise.all(goals.map((goal) => search(MCTS, goal)));
    const solved = runs.filter(({ result }) => result.finishReason === 'terminated');
    expect(solved.length).toBeGreaterThan(2);
    for (const { result, events } of solved) {
      const last = backups(events).at(-1) as Backed;
      expect(last.payload.source).toBe('verified');
      expect(last.payload.value).toBe(1);
      expect(result.tree.bestNodeId).toBe(last.payload.nodeId);
      expect(result.verified).toBe(true);
    }
  });

  it('spends its iteration budget and no more', async () => {
    const { result, events } = await search({ ...MCTS, mctsIterations: 3, maxDepth: 2 }, goals[0] as string);
    expect(result.finishReason).toBe('iteration-limit');
    expect(selections(events)).toHaveLength(3);
    expect(backups(events)).toHaveLength(3);
    expect(result.tree.nodes[result.tree.rootId as string]?.mcts?.n).toBe(3);
  });

  it('the same seed writes the same log; another seed another', async () => {
    const a = await search(MCTS, goals[2] as string);
    const b = await search(MCTS, goals[2] as string);
    expect(b.events.map(clockless)).toEqual(a.events.map(clockless));
    const other = await search(MCTS, goals[2] as string, {}, 11);
    expect(other.events.map(clockless)).not.toEqual(a.events.map(clockless));
  });
});

describe('MCTS under steering and restarts', () => {
  it('a restart from any group boundary continues exactly', async () => {
    const goal = goals[3] as string;
    const config = { ...MCTS, mctsIterations: 12, mctsRolloutDepth: 1 };
    const groups: number[] = [];
    const whole = await search(config, goal, { onCommit: (group) => groups.push(group.at(-1)?.seq ?? 0) });
    const midIteration = groups.filter((seq) => fold(whole.events.slice(0, seq)).mcts?.current);
    expect(midIteration.length).toBeGreaterThan(5);
    const story = (events: readonly ExplorationEvent[]) =>
      events.map((event) => {
        const { runId: _r, ts: _t, seq: _s, ...rest } = clockless(event);
        return rest;
      });
    for (const cut of groups.slice(0, -1)) {
      const prefix = whole.events.slice(0, cut);
      const rest: ExplorationEvent[] = [];
      await new ThoughtTreeExecutor().resume({ name: 'mcts', model: createSimulatedModel({ seed: 4 }) }, prefix, {
        task: game24,
        onEvent: (e) => rest.push(e),
      });
      const kept = prefix.at(-1)?.type === 'node.started' ? prefix.slice(0, -1) : prefix;
      const resumed = [...kept, ...rest.filter((e) => e.type !== 'run.resumed')];
      expect(story(resumed)).toEqual(story(whole.events));
    }
  });

  it('a pruned subtree is never selected again, and an iteration under way there backs up nothing', async () => {
    const control = new ExplorationControl();
    let prunedId: string | null = null;
    let prunedAt = 0;
    const { events, result } = await search({ ...MCTS, mctsIterations: 30 }, goals[0] as string, {
      control,
      onEvent: (event) => {
        // prune the first child of the root as soon as its first value is backed up
        if (prunedId === null && event.type === 'mcts.backpropagated' && event.payload.path.length >= 2) {
          prunedId = event.payload.path.at(-2) as string;
          prunedAt = event.seq;
          control.prune(prunedId, 'alice');
        }
      },
    });
    expect(prunedId).not.toBeNull();
    const doomed = new Set(subtreeIds(result.tree, prunedId as unknown as string));
    const later = selections(events).filter((s) => s.seq > prunedAt);
    expect(later.length).toBeGreaterThan(3);
    for (const selected of later) {
      expect(doomed.has(selected.payload.leafId)).toBe(false);
      for (const hop of selected.payload.hops) {
        expect(hop.candidates.some((candidate) => doomed.has(candidate.nodeId))).toBe(false);
      }
    }
    checkStatistics(events, 'mean');
  });

  it('an iteration whose leaf is pruned before it runs is abandoned: nothing is backed up', async () => {
    const control = new ExplorationControl();
    let leafId: string | null = null;
    const { events, result } = await search({ ...MCTS, mctsIterations: 20 }, goals[0] as string, {
      control,
      onEvent: (event) => {
        if (leafId === null && event.type === 'mcts.selected' && event.payload.iteration === 3) {
          leafId = event.payload.leafId;
          control.prune(leafId, 'alice');
        }
      },
    });
    const third = backups(events).find((b) => b.payload.iteration === 3) as Backed;
    expect(third.payload).toMatchObject({ nodeId: leafId, value: null, source: 'abandoned', path: [] });
    expect(result.tree.nodes[leafId as unknown as string]?.status).toBe('pruned');
    checkStatistics(events, 'mean');
  });

  it('a step runs exactly one iteration', async () => {
    const control = new ExplorationControl();
    const pausedAfter: number[] = [];
    const seen: ExplorationEvent[] = [];
    const { events } = await search({ ...MCTS, mctsIterations: 6 }, goals[0] as string, {
      control,
      startPaused: true,
      onEvent: (event) => {
        seen.push(event);
        if (event.type === 'run.paused' || event.type === 'steer.pause') {
          const tree = fold(seen);
          pausedAfter.push(tree.nodes[tree.rootId as string]?.mcts?.n ?? 0);
          setTimeout(() => control.step('bob'), 0);
        }
      },
    });
    // paused at the start (0 iterations), then after each step one more: 0, 1, 2, ...
    expect(pausedAfter.length).toBeGreaterThan(3);
    expect(pausedAfter).toEqual(pausedAfter.map((_, i) => i));
    for (const paused of events.filter((e) => e.type === 'run.paused')) {
      expect(events[paused.seq - 2]?.type).toBe('mcts.backpropagated');
    }
  });
});

describe('an MCTS run forked from a node', () => {
  it('grows the fork point first, then selects from the root through the copied path, and checks out', async () => {
    const { result } = await search(MCTS, goals[0] as string);
    const target = result.bestPath.at(2) as ThoughtNode;
    const seed = forkEvents({
      runId: 'fork',
      source: result.tree,
      nodeId: target.id,
      config: result.tree.config,
      agentName: 't',
      modelId: 'simulated',
    });
    const more: ExplorationEvent[] = [];
    const forked = await new ThoughtTreeExecutor().resume(
      { name: 't', model: createSimulatedModel({ seed: 4 }) },
      seed,
      {
        task: game24,
        announceResume: false,
        onEvent: (e) => more.push(e),
      },
    );
    const events = [...seed, ...more];
    expect(selections(events).length).toBeGreaterThan(0);
    // the first selection walks the copied path: root, then its one copied child, ...
    expect(selections(events)[0]?.payload.hops[0]?.candidates.map((c) => c.nodeId)).toEqual(['n1']);
    checkSelections(events, Math.SQRT2, 4);
    checkStatistics(events, 'mean');
    expect(['terminated', 'iteration-limit', 'frontier-empty', 'node-limit']).toContain(forked.finishReason);
  });
});

describe('the config refuses bad MCTS settings with the field and the reason', () => {
  it.each([
    ['mctsExploration', { mctsExploration: -1 }, 'cannot be negative'],
    ['mctsExploration', { mctsExploration: Number.POSITIVE_INFINITY }, ''],
    ['mctsExploration', { mctsExploration: Number.NaN }, ''],
    ['mctsIterations', { mctsIterations: 0 }, 'at least 1'],
    ['mctsRolloutDepth', { mctsRolloutDepth: 6, maxDepth: 5 }, 'deeper than maxDepth'],
  ])('%s: %o', (field, partial, words) => {
    let error: unknown;
    try {
      resolveConfig({ explorationStrategy: 'mcts', ...partial });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidConfigError);
    const issue = (error as InvalidConfigError).issues.find((i) => i.path === field);
    expect(issue?.message).toContain(words);
  });

  it("fills an MCTS run's settings and keeps them off every other strategy's config", () => {
    expect(resolveConfig({ explorationStrategy: 'mcts' })).toMatchObject({ mctsIterations: 50, mctsBackup: 'mean' });
    const beam = resolveConfig({ explorationStrategy: 'beam', mctsIterations: 9 });
    expect(Object.keys(beam).some((key) => key.startsWith('mcts'))).toBe(false);
  });
});
