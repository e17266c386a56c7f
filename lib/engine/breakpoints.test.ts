/**
 * The breakpoint judge without a search (issue 17): each condition against events built by hand, its negatives, and
 * what a hit names. judgeEvent and findHits are the one judge for the engine's live stops and a recorded log's hits,
 * so what is pinned here holds for both. The MCTS kinds (issue 31) on a hand-built MCTS log, each hit checked
 * against the trees folded just before and just after its event. The executor's stops with real searches:
 * breakpoints-executor.test.ts (MCTS: breakpoints-mcts.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Breakpoint, BreakpointCondition } from '../contract/breakpoints';
import type { EventPayloads, ExplorationEvent } from '../contract/events';
import type { ModelPurpose, ToTConfig } from '../contract/vocabulary';
import { findHits, judgeEvent, treeHitContext } from './breakpoints';
import { DEFAULT_TOT_CONFIG } from './config';
import { createEmptyTree, fold, reduce } from './tree';
import { handBuiltLog } from './testing';

const bp = (id: string, condition: BreakpointCondition, enabled = true): Breakpoint => ({ id, enabled, condition });
const one = (condition: BreakpointCondition) => [bp('b', condition)];
/** The seqs of a log's hits for a list. */
const hitSeqs = (events: ExplorationEvent[], breakpoints: Breakpoint[]) =>
  findHits(events, breakpoints).map((h) => h.seq);

function score(composite: number) {
  return { confidence: composite, progress: composite, novelty: composite, composite, reasoning: '', fallback: false };
}

/** A log with a model call per step: tokens 100 + 10 each, cost as given (null: no price). */
function logWithCalls(costs: (number | null)[], errorAt = -1) {
  const log = handBuiltLog();
  costs.forEach((cost, i) => {
    log.add('model.called', {
      nodeId: 'n0',
      purpose: (i === 0 ? 'generate' : 'evaluate') as ModelPurpose,
      modelId: 'm',
      messages: [{ role: 'user', content: 'q' }],
      response: i === errorAt ? null : `answer ${i}`,
      error: i === errorAt ? 'HTTP 503: overloaded' : null,
      usage: { inputTokens: 100, outputTokens: 10 },
      cost,
      latencyMs: 1,
    });
  });
  return log.events;
}

/** root n0 -> a (.4), b (.8); a fails verification and the search backtracks to b, which passes. */
function verifiedLog() {
  const log = handBuiltLog();
  log.add('branch.scored', { nodeId: 'n0', index: 0, branch: thought('a'), score: score(0.4), raw: null });
  log.add('branch.scored', { nodeId: 'n0', index: 1, branch: thought('b'), score: score(0.8), raw: null });
  log.child('a', 0.4);
  log.child('b', 0.8);
  log.fail('a');
  log.add('backtrack', { fromId: 'a', toId: 'b', reason: 'verification failed' });
  log.complete('b', true);
  return log.events;
}

function thought(text: string) {
  return { thought: text, proposedAction: { type: 'response' as const, content: text } };
}

const seqOf = (events: ExplorationEvent[], match: (e: ExplorationEvent) => boolean) => events.find(match)?.seq;

describe('judgeEvent / findHits: each condition', () => {
  it('verification-failed: a failed node.verified hits, a passed one does not', () => {
    const events = verifiedLog();
    const failed = seqOf(events, (e) => e.type === 'node.verified' && !e.payload.passed);
    expect(hitSeqs(events, one({ kind: 'verification-failed' }))).toEqual([failed]);
    const [hit] = findHits(events, one({ kind: 'verification-failed' }));
    expect(hit).toMatchObject({ eventType: 'node.verified', nodeId: 'a', detail: 'a failed verification: checked' });
  });

  it('backtrack: each backtrack event, naming where it went', () => {
    const events = verifiedLog();
    const [hit, ...rest] = findHits(events, one({ kind: 'backtrack' }));
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({
      seq: seqOf(events, (e) => e.type === 'backtrack'),
      nodeId: 'a',
      detail: 'backtrack from a to b: verification failed',
    });
  });

  it('score-below and score-above: strictly past the value (a score equal to it is no hit)', () => {
    const events = verifiedLog();
    const scored = events.filter((e) => e.type === 'branch.scored').map((e) => e.seq);
    expect(hitSeqs(events, one({ kind: 'score-below', value: 0.5 }))).toEqual([scored[0]]);
    expect(hitSeqs(events, one({ kind: 'score-above', value: 0.5 }))).toEqual([scored[1]]);
    expect(hitSeqs(events, one({ kind: 'score-below', value: 0.4 }))).toEqual([]);
    expect(hitSeqs(events, one({ kind: 'score-above', value: 0.8 }))).toEqual([]);
    expect(findHits(events, one({ kind: 'score-below', value: 0.5 }))[0]?.detail).toBe(
      'candidate 1 of n0 scored 0.4, below 0.5',
    );
    expect(findHits(events, one({ kind: 'score-above', value: 0.5 }))[0]?.detail).toBe(
      'candidate 2 of n0 scored 0.8, above 0.5',
    );
  });

  it('score details never read as equal to the threshold they passed', () => {
    const log = handBuiltLog();
    log.add('branch.scored', { nodeId: 'n0', index: 0, branch: thought('a'), score: score(0.2999), raw: null });
    log.add('branch.scored', { nodeId: 'n0', index: 1, branch: thought('b'), score: score(0.70001), raw: null });
    expect(findHits(log.events, one({ kind: 'score-below', value: 0.3 }))[0]?.detail).toBe(
      'candidate 1 of n0 scored 0.2999, below 0.3',
    );
    expect(findHits(log.events, one({ kind: 'score-above', value: 0.7 }))[0]?.detail).toBe(
      'candidate 2 of n0 scored 0.70001, above 0.7',
    );
    // and a cost just past its figure
    const events = logWithCalls([0.0125, 0.0125000001]);
    expect(findHits(events, one({ kind: 'cost-above', usd: 0.025 }))[0]?.detail).toBe(
      "the run's cost reached $0.0250000001, past $0.025",
    );
  });

  it('depth: a node created at exactly that depth, not shallower or deeper', () => {
    const log = handBuiltLog();
    log.child('a', 0.5); // depth 1
    log.add('node.created', { nodeId: 'a1', parentId: 'a', branch: thought('a1'), score: score(0.5) }); // depth 2
    log.add('node.created', { nodeId: 'a11', parentId: 'a1', branch: thought('a11'), score: score(0.5) }); // depth 3
    log.child('b', 0.5); // depth 1 again
    const created = (id: string) => seqOf(log.events, (e) => e.type === 'node.created' && e.payload.nodeId === id);
    expect(hitSeqs(log.events, one({ kind: 'depth', depth: 2 }))).toEqual([created('a1')]);
    expect(hitSeqs(log.events, one({ kind: 'depth', depth: 1 }))).toEqual([created('a'), created('b')]);
    expect(hitSeqs(log.events, one({ kind: 'depth', depth: 4 }))).toEqual([]);
    expect(findHits(log.events, one({ kind: 'depth', depth: 3 }))[0]).toMatchObject({
      nodeId: 'a11',
      detail: 'a11 is at depth 3',
    });
  });

  it('cost-above: the one call that takes the run past the figure, never again', () => {
    const events = logWithCalls([0.01, 0.01, 0.01, 0.01]);
    const calls = events.filter((e) => e.type === 'model.called').map((e) => e.seq);
    // 0.01, 0.02, 0.03, 0.04: past 0.025 on the third call only
    expect(hitSeqs(events, one({ kind: 'cost-above', usd: 0.025 }))).toEqual([calls[2]]);
    // reaching the figure exactly is not passing it: 0.02 is passed by the third call
    expect(hitSeqs(events, one({ kind: 'cost-above', usd: 0.02 }))).toEqual([calls[2]]);
    expect(hitSeqs(events, one({ kind: 'cost-above', usd: 1 }))).toEqual([]);
    expect(findHits(events, one({ kind: 'cost-above', usd: 0.025 }))[0]?.detail).toBe(
      "the run's cost reached $0.03, past $0.025",
    );
  });

  it('cost-above: a call with no price never hits', () => {
    expect(hitSeqs(logWithCalls([null, null, null]), one({ kind: 'cost-above', usd: 0 }))).toEqual([]);
  });

  it('tokens-above: the call that takes the run past the figure, once', () => {
    const events = logWithCalls([null, null, null]);
    const calls = events.filter((e) => e.type === 'model.called').map((e) => e.seq);
    // 110, 220, 330 tokens
    expect(hitSeqs(events, one({ kind: 'tokens-above', tokens: 200 }))).toEqual([calls[1]]);
    expect(hitSeqs(events, one({ kind: 'tokens-above', tokens: 220 }))).toEqual([calls[2]]);
    expect(hitSeqs(events, one({ kind: 'tokens-above', tokens: 0 }))).toEqual([calls[0]]);
    expect(findHits(events, one({ kind: 'tokens-above', tokens: 200 }))[0]?.detail).toBe(
      "the run's tokens reached 220, past 200",
    );
  });

  it('model-call-failed: a call with an error, naming its purpose and node', () => {
    const events = logWithCalls([0.01, 0.01, 0.01], 1);
    const hits = findHits(events, one({ kind: 'model-call-failed' }));
    expect(hits.map((h) => h.seq)).toEqual([events.filter((e) => e.type === 'model.called')[1]?.seq]);
    expect(hits[0]?.detail).toBe('an evaluate call for n0 failed: HTTP 503: overloaded');
    expect(hitSeqs(logWithCalls([0.01, 0.01]), one({ kind: 'model-call-failed' }))).toEqual([]);
  });

  it('node-runs: that node.started only', () => {
    const events = verifiedLog();
    const started = seqOf(events, (e) => e.type === 'node.started' && e.payload.nodeId === 'b');
    expect(hitSeqs(events, one({ kind: 'node-runs', nodeId: 'b' }))).toEqual([started]);
    expect(findHits(events, one({ kind: 'node-runs', nodeId: 'b' }))[0]?.detail).toBe('b is about to run (execute)');
    expect(hitSeqs(events, one({ kind: 'node-runs', nodeId: 'zz' }))).toEqual([]);
  });

  it('node-runs judged before the step: the node.started not yet written has seq null in its hit', () => {
    const tree = fold(verifiedLog());
    const hit = judgeEvent(
      one({ kind: 'node-runs', nodeId: 'b' }),
      { type: 'node.started', seq: null, payload: { nodeId: 'b', mode: 'expand' } },
      treeHitContext(tree),
    );
    expect(hit).toMatchObject({ seq: null, eventType: 'node.started', nodeId: 'b' });
  });
});

describe('judgeEvent / findHits: text-match', () => {
  const log = handBuiltLog();
  log.add('node.created', {
    nodeId: 'a',
    parentId: 'n0',
    branch: thought('Try 13 - 9 = 4'),
    score: score(0.5),
  });
  log.add('node.started', { nodeId: 'a', mode: 'execute' });
  log.add('model.called', {
    nodeId: 'a',
    purpose: 'execute',
    modelId: 'm',
    messages: [],
    response: 'Working.\nFINAL ANSWER: (13 - 9) * 6',
    error: null,
    usage: { inputTokens: 1, outputTokens: 1 },
    cost: null,
    latencyMs: 0,
  });
  log.add('node.completed', { nodeId: 'a', result: { response: '(13 - 9) * 6', iterations: 1, isAnswer: true } });
  const events = log.events;
  const seq = (type: ExplorationEvent['type']) =>
    seqOf(events, (e) => e.type === type && 'nodeId' in e.payload && e.payload.nodeId === 'a');
  const text = (field: 'thought' | 'result' | 'response', pattern: string, regex = false, caseSensitive = false) =>
    one({ kind: 'text-match', field, pattern, regex, caseSensitive });

  it('reads each field from its own event: a thought, a result, a model response', () => {
    expect(hitSeqs(events, text('thought', '13'))).toEqual([seq('node.created')]);
    expect(hitSeqs(events, text('result', '13'))).toEqual([seq('node.completed')]);
    expect(hitSeqs(events, text('response', '13'))).toEqual([seq('model.called')]);
  });

  it('plain text is a substring, in any case unless case-sensitive', () => {
    expect(hitSeqs(events, text('thought', 'TRY'))).toEqual([seq('node.created')]);
    expect(hitSeqs(events, text('thought', 'TRY', false, true))).toEqual([]);
    expect(hitSeqs(events, text('thought', 'Try', false, true))).toEqual([seq('node.created')]);
    // plain text is not a pattern: "." is a dot
    expect(hitSeqs(events, text('response', 'Working..'))).toEqual([]);
  });

  it('a regular expression matches, any case unless case-sensitive', () => {
    expect(hitSeqs(events, text('response', 'final answer:\\s*\\(', true))).toEqual([seq('model.called')]);
    expect(hitSeqs(events, text('response', 'final answer', true, true))).toEqual([]);
    expect(hitSeqs(events, text('result', '^\\(\\d+ - \\d+\\)', true, true))).toEqual([seq('node.completed')]);
    expect(hitSeqs(events, text('thought', '^\\d', true))).toEqual([]);
  });

  it('says what matched', () => {
    expect(findHits(events, text('thought', '13'))[0]).toMatchObject({
      nodeId: 'a',
      detail: 'a\'s thought contains "13"',
    });
    expect(findHits(events, text('result', '\\* 6$', true))[0]?.detail).toBe("a's result matches /\\* 6$/");
    expect(findHits(events, text('response', 'final'))[0]?.detail).toBe('an execute response for a contains "final"');
  });
});

describe('judgeEvent / findHits: the list', () => {
  it('a disabled breakpoint never hits', () => {
    const events = verifiedLog();
    expect(findHits(events, [bp('v', { kind: 'verification-failed' }, false)])).toEqual([]);
    expect(
      findHits(events, [bp('v', { kind: 'backtrack' }, false), bp('w', { kind: 'depth', depth: 1 }, false)]),
    ).toEqual([]);
  });

  it('list order decides which breakpoint names a hit; one hit per event', () => {
    const events = verifiedLog();
    const failed = seqOf(events, (e) => e.type === 'node.verified' && !e.payload.passed);
    const list = [
      bp('first', { kind: 'text-match', field: 'thought', pattern: 'a', regex: false, caseSensitive: true }),
      bp('second', { kind: 'depth', depth: 1 }),
      bp('third', { kind: 'verification-failed' }),
    ];
    const hits = findHits(events, list);
    // node.created a: both first and second hold; first names it. node.created b: only second.
    expect(hits.map((h) => [h.seq, h.breakpointId])).toEqual([
      [seqOf(events, (e) => e.type === 'node.created' && e.payload.nodeId === 'a'), 'first'],
      [seqOf(events, (e) => e.type === 'node.created' && e.payload.nodeId === 'b'), 'second'],
      [failed, 'third'],
    ]);
    const reversed = findHits(events, [...list].reverse());
    expect(reversed[0]?.breakpointId).toBe('second');
    // a disabled first breakpoint passes the event on to the next
    expect(findHits(events, [{ ...list[0]!, enabled: false }, list[1]!])[0]?.breakpointId).toBe('second');
  });

  it('a hit carries the condition as it was, and judges against the tree before the event', () => {
    const condition: BreakpointCondition = { kind: 'tokens-above', tokens: 100 };
    const events = logWithCalls([null]);
    const call = events.at(-1)!;
    // the tree before the call: no tokens yet, so this call (110) passes 100
    const before = fold(events.slice(0, -1));
    expect(judgeEvent([bp('t', condition)], call, treeHitContext(before))).toEqual({
      breakpointId: 't',
      condition,
      seq: call.seq,
      eventType: 'model.called',
      nodeId: 'n0',
      detail: "the run's tokens reached 110, past 100",
    });
    // judged against the tree after it (the call already counted) it would not be the call that passes
    expect(judgeEvent([bp('t', condition)], call, treeHitContext(fold(events)))).toBeNull();
    expect(judgeEvent([], call, treeHitContext(createEmptyTree()))).toBeNull();
  });

  it('an empty log and an empty list have no hits', () => {
    expect(findHits([], one({ kind: 'backtrack' }))).toEqual([]);
    expect(findHits(verifiedLog(), [])).toEqual([]);
  });
});

/**
 * An MCTS log by hand: root n0 with children a and b; iteration 1 backs 0.6 up from a, 2 backs 0.9 up from b, 3
 * backs 1 up from a, 4 is abandoned (nothing backed up). With mean backup: a's Q 0.6 then 0.8, b's 0.9, n0's 0.6,
 * 0.75, 0.833; with max: a's 0.6 then 1, n0's 0.6, 0.9, 1.
 */
function mctsLog(mctsBackup: ToTConfig['mctsBackup']) {
  const events: ExplorationEvent[] = [];
  const add = <K extends ExplorationEvent['type']>(type: K, payload: EventPayloads[K]) =>
    events.push({ runId: 'r', seq: events.length + 1, ts: events.length, type, payload } as ExplorationEvent);
  const config: ToTConfig = { ...DEFAULT_TOT_CONFIG, explorationStrategy: 'mcts', mctsBackup };
  add('run.started', { goal: 'g', taskId: 'open-goal', agentName: 'a', modelId: 'm', config });
  add('node.created', { nodeId: 'n0', parentId: null, branch: null, score: null });
  add('node.created', { nodeId: 'a', parentId: 'n0', branch: thought('a'), score: score(0.4) });
  add('node.created', { nodeId: 'b', parentId: 'n0', branch: thought('b'), score: score(0.8) });
  const iteration = (n: number, leafId: string, value: number | null) => {
    const candidate = (nodeId: string) => ({ nodeId, visits: 0, q: null, prior: 0.5, explore: null, uct: null });
    const hop = { parentId: 'n0', parentVisits: n - 1, candidates: [candidate('a'), candidate('b')], chosenId: leafId };
    add('mcts.selected', { iteration: n, hops: [hop], leafId });
    add('mcts.backpropagated', {
      iteration: n,
      nodeId: leafId,
      value,
      source: value === null ? 'abandoned' : 'score',
      path: value === null ? [] : [leafId, 'n0'],
    });
  };
  iteration(1, 'a', 0.6);
  iteration(2, 'b', 0.9);
  iteration(3, 'a', 1);
  iteration(4, 'a', null);
  return events;
}

const backupSeq = (events: ExplorationEvent[], iteration: number) =>
  seqOf(events, (e) => e.type === 'mcts.backpropagated' && e.payload.iteration === iteration);

/** What a hit on a backup says about its node, read from the folded trees before and after its event. */
function foldedAround(events: ExplorationEvent[], seq: number, nodeId: string) {
  const stats = (count: number) => fold(events.slice(0, count)).nodes[nodeId]?.mcts ?? null;
  return { before: stats(seq - 1), after: stats(seq) };
}

describe('judgeEvent / findHits: MCTS (issue 31)', () => {
  it('mcts-iteration: the mcts.selected of that iteration, naming its leaf', () => {
    const events = mctsLog('mean');
    const selected = seqOf(events, (e) => e.type === 'mcts.selected' && e.payload.iteration === 2);
    const hits = findHits(events, one({ kind: 'mcts-iteration', iteration: 2 }));
    expect(hits).toEqual([
      {
        breakpointId: 'b',
        condition: { kind: 'mcts-iteration', iteration: 2 },
        seq: selected,
        eventType: 'mcts.selected',
        nodeId: 'b',
        detail: 'iteration 2 selected b, 1 hop from the root',
      },
    ]);
    expect(hitSeqs(events, one({ kind: 'mcts-iteration', iteration: 5 }))).toEqual([]);
  });

  it('q-above: the first node on the path whose Q goes from at most x to above it (the rest named too); one already above is no hit', () => {
    const events = mctsLog('mean');
    // 0.7: iteration 2 takes b past it (its first value; n0 passes too, but b comes first on the path), 3 takes a
    const hits = findHits(events, one({ kind: 'q-above', q: 0.7 }));
    expect(hits.map((h) => [h.seq, h.nodeId, h.detail])).toEqual([
      [backupSeq(events, 2), 'b', "b's Q rose to 0.9, past 0.7 (its first value, 1 visit); n0 too"],
      [backupSeq(events, 3), 'a', "a's Q rose to 0.8, past 0.7 (from 0.6, 2 visits)"],
    ]);
    // 0.5: a and b pass on their first values; at iteration 3 every node on the path was above already
    expect(findHits(events, one({ kind: 'q-above', q: 0.5 })).map((h) => [h.seq, h.nodeId])).toEqual([
      [backupSeq(events, 1), 'a'],
      [backupSeq(events, 2), 'b'],
    ]);
    // a Q equal to the figure is not above it: 0.6 is passed by b first (0.9), then by a (0.6 -> 0.8)
    expect(findHits(events, one({ kind: 'q-above', q: 0.6 })).map((h) => [h.seq, h.nodeId])).toEqual([
      [backupSeq(events, 2), 'b'],
      [backupSeq(events, 3), 'a'],
    ]);
    expect(findHits(events, one({ kind: 'q-above', q: 0.95 }))).toEqual([]);
    for (const hit of hits) {
      const { before, after } = foldedAround(events, hit.seq!, hit.nodeId!);
      // no Q yet is not above the figure
      expect(before?.q ?? Number.NEGATIVE_INFINITY).toBeLessThanOrEqual(0.7);
      expect(after?.q).toBeGreaterThan(0.7);
    }
  });

  it("q-above folds the value by the run's own mctsBackup: with max, a's Q jumps to 1", () => {
    const events = mctsLog('max');
    const [hit, ...rest] = findHits(events, one({ kind: 'q-above', q: 0.95 }));
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({
      seq: backupSeq(events, 3),
      eventType: 'mcts.backpropagated',
      nodeId: 'a',
      detail: "a's Q rose to 1, past 0.95 (from 0.6, 2 visits); n0 too",
    });
    const { before, after } = foldedAround(events, hit!.seq!, 'a');
    expect(before?.q).toBe(0.6);
    expect(after?.q).toBe(1);
  });

  it('visits-above: the backup that gives a node its (n + 1)th visit, the first such node on the path', () => {
    const events = mctsLog('mean');
    const hits = findHits(events, one({ kind: 'visits-above', visits: 1 }));
    expect(hits.map((h) => [h.seq, h.nodeId, h.detail])).toEqual([
      [backupSeq(events, 2), 'n0', "n0's visits reached 2, past 1"],
      [backupSeq(events, 3), 'a', "a's visits reached 2, past 1"],
    ]);
    expect(findHits(events, one({ kind: 'visits-above', visits: 2 })).map((h) => [h.seq, h.nodeId])).toEqual([
      [backupSeq(events, 3), 'n0'],
    ]);
    for (const hit of hits) {
      const { before, after } = foldedAround(events, hit.seq!, hit.nodeId!);
      expect(before?.n ?? 0).toBeLessThanOrEqual(1);
      expect(after?.n).toBeGreaterThan(1);
    }
  });

  it('an abandoned iteration backs nothing up and hits nothing; nodes not in the tree are passed over', () => {
    const events = mctsLog('mean');
    const abandoned = events.find((e) => e.type === 'mcts.backpropagated' && e.payload.value === null)!;
    const before = fold(events.slice(0, abandoned.seq - 1));
    expect(judgeEvent(one({ kind: 'visits-above', visits: 1 }), abandoned, treeHitContext(before))).toBeNull();
    const ghost = {
      type: 'mcts.backpropagated' as const,
      seq: 99,
      payload: { iteration: 5, nodeId: 'zz', value: 1, source: 'verified' as const, path: ['zz', 'b', 'n0'] },
    };
    expect(judgeEvent(one({ kind: 'visits-above', visits: 1 }), ghost, treeHitContext(fold(events)))).toMatchObject({
      nodeId: 'b',
      detail: "b's visits reached 2, past 1",
    });
  });

  it('names the other nodes that pass with the first, at most three of them', () => {
    const events = mctsLog('mean');
    const path = ['a', 'p1', 'p2', 'p3', 'p4', 'p5'];
    const deep = {
      type: 'mcts.backpropagated' as const,
      seq: 99,
      payload: { iteration: 5, nodeId: 'a', value: 1, source: 'verified' as const, path },
    };
    // a tree where every node of the path has no Q yet: all of them pass on the value 1
    const tree = fold(events.slice(0, 3));
    path.slice(1).forEach((nodeId, i) =>
      reduce(tree, {
        runId: 'r',
        seq: 4 + i,
        ts: 4 + i,
        type: 'node.created',
        payload: { nodeId, parentId: 'n0', branch: thought(nodeId), score: score(0.5) },
      }),
    );
    expect(judgeEvent(one({ kind: 'q-above', q: 0.5 }), deep, treeHitContext(tree))?.detail).toBe(
      "a's Q rose to 1, past 0.5 (its first value, 1 visit); p1, p2, p3 and 2 more too",
    );
  });

  it('never hit on a run that writes no MCTS events', () => {
    const list = [
      bp('i', { kind: 'mcts-iteration', iteration: 1 }),
      bp('q', { kind: 'q-above', q: -1 }),
      bp('v', { kind: 'visits-above', visits: 1 }),
    ];
    expect(findHits(verifiedLog(), list)).toEqual([]);
  });
});
