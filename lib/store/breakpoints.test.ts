import { describe, expect, it } from 'vitest';
import type { Breakpoint } from '../contract/breakpoints';
import type { ExplorationEvent } from '../contract/events';
import { recordGame24 } from '../tasks/testing/recorded';
import {
  adjacentHit,
  hitMarkers,
  nextHitOf,
  addBreakpoint,
  conditionFromDraft,
  decodeBreakpoints,
  disableAll,
  EMPTY_DRAFT,
  encodeBreakpoints,
  NO_HITS,
  queryHits,
  removeBreakpoint,
  runToHere,
  setEnabled,
  StopIndex,
} from './breakpoints';
import { createRunStore } from './run-store';

const recordRun = async () => (await recordGame24()).events;

const failedVerifications = (events: readonly ExplorationEvent[]) =>
  events.filter((e) => e.type === 'node.verified' && !e.payload.passed);

const verificationFails: Breakpoint = { id: 'bp-1', enabled: true, condition: { kind: 'verification-failed' } };

describe('a breakpoint from the add form', () => {
  it('builds the condition the draft describes, numbers parsed', () => {
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'score-below', value: ' 0.25 ' })).toEqual({
      ok: true,
      condition: { kind: 'score-below', value: 0.25 },
    });
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'backtrack' })).toEqual({
      ok: true,
      condition: { kind: 'backtrack' },
    });
  });

  it('puts each message beside its field: a missing number, a fraction of a depth, an empty node', () => {
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'cost-above', usd: '' })).toEqual({
      ok: false,
      errors: { usd: 'required' },
    });
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'tokens-above', tokens: 'lots' })).toEqual({
      ok: false,
      errors: { tokens: 'not a number' },
    });
    const depth = conditionFromDraft({ ...EMPTY_DRAFT, kind: 'depth', depth: '1.5' });
    expect(depth.ok ? null : Object.keys(depth.errors)).toEqual(['depth']);
    const node = conditionFromDraft({ ...EMPTY_DRAFT, kind: 'node-runs', nodeId: '  ' });
    expect(node.ok ? null : Object.keys(node.errors)).toEqual(['nodeId']);
  });

  it('builds the MCTS kinds from their own fields, and puts the schema’s refusals beside them', () => {
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'mcts-iteration', iteration: '3' })).toEqual({
      ok: true,
      condition: { kind: 'mcts-iteration', iteration: 3 },
    });
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'q-above', q: '0.7', value: 'ignored' })).toEqual({
      ok: true,
      condition: { kind: 'q-above', q: 0.7 },
    });
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'visits-above', visits: '12' })).toEqual({
      ok: true,
      condition: { kind: 'visits-above', visits: 12 },
    });
    const fieldsOf = (r: ReturnType<typeof conditionFromDraft>) => (r.ok ? null : Object.keys(r.errors));
    expect(fieldsOf(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'mcts-iteration', iteration: '0' }))).toEqual([
      'iteration',
    ]);
    expect(fieldsOf(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'visits-above', visits: '0' }))).toEqual(['visits']);
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'q-above', q: 'Infinity' })).toEqual({
      ok: false,
      errors: { q: 'not a number' },
    });
  });

  it('refuses a broken or catastrophic regular expression in the contract’s words, beside the pattern', () => {
    const broken = conditionFromDraft({ ...EMPTY_DRAFT, kind: 'text-match', pattern: '(a', regex: true });
    expect(broken.ok ? null : broken.errors.pattern).toMatch(/^not a regular expression/);
    const slow = conditionFromDraft({ ...EMPTY_DRAFT, kind: 'text-match', pattern: '(a+)+$', regex: true });
    expect(slow.ok ? null : slow.errors.pattern).toMatch(/exponential time/);
    // the same text as plain text is fine: it is not a regular expression then
    expect(conditionFromDraft({ ...EMPTY_DRAFT, kind: 'text-match', pattern: '(a+)+$' }).ok).toBe(true);
  });
});

describe('editing a list', () => {
  it('adds with fresh ids, switches, removes and switches all off', () => {
    let list = addBreakpoint([], { kind: 'backtrack' });
    list = addBreakpoint(list, { kind: 'verification-failed' });
    expect(list.map((b) => b.id)).toEqual(['bp-1', 'bp-2']);
    list = addBreakpoint(removeBreakpoint(list, 'bp-1'), { kind: 'depth', depth: 2 });
    expect(list.map((b) => b.id)).toEqual(['bp-2', 'bp-1']);
    expect(setEnabled(list, 'bp-2', false).map((b) => b.enabled)).toEqual([false, true]);
    expect(disableAll(list).every((b) => !b.enabled)).toBe(true);
  });

  it('"run to here" adds a node-runs breakpoint once and switches a used one on again', () => {
    const list = runToHere([verificationFails], 'n4');
    expect(list[1]).toEqual({ id: 'run-to-n4', enabled: true, condition: { kind: 'node-runs', nodeId: 'n4' } });
    const used = setEnabled(list, 'run-to-n4', false);
    expect(runToHere(used, 'n4')).toEqual(list);
  });
});

describe('hits', () => {
  it('a recorded run’s query hits are its failed verifications, in order, counted per breakpoint', async () => {
    const events = await recordRun();
    const failed = failedVerifications(events);
    expect(failed.length).toBeGreaterThan(1);
    const hits = queryHits(events, events.length, [
      verificationFails,
      { ...verificationFails, id: 'off', enabled: false },
    ]);
    expect(hits.marks.map((m) => m.seq)).toEqual(failed.map((e) => e.seq));
    expect(hits.marks.map((m) => m.hit.nodeId)).toEqual(failed.map((e) => (e.payload as { nodeId: string }).nodeId));
    expect(hits.counts.get('bp-1')).toBe(failed.length);
    // only the history loaded so far is judged
    const firstTwo = queryHits(events, (failed[1] as ExplorationEvent).seq, [verificationFails]);
    expect(firstTwo.marks).toHaveLength(2);
  });

  it('judges nothing when no breakpoint is on', async () => {
    const events = await recordRun();
    expect(queryHits(events, events.length, disableAll([verificationFails]))).toBe(NO_HITS);
  });

  it('steps to the next and previous hit from any step, and nowhere past the ends', () => {
    const hit = verificationFails.condition;
    const marks = [5, 9, 20].map((seq) => ({
      seq,
      hit: { breakpointId: 'bp-1', condition: hit, seq, eventType: 'node.verified', nodeId: 'n1', detail: '' },
    }));
    expect(adjacentHit(marks, 0, 1)?.seq).toBe(5);
    expect(adjacentHit(marks, 5, 1)?.seq).toBe(9);
    expect(adjacentHit(marks, 12, 1)?.seq).toBe(20);
    expect(adjacentHit(marks, 20, 1)).toBeNull();
    expect(adjacentHit(marks, 20, -1)?.seq).toBe(9);
    expect(adjacentHit(marks, 6, -1)?.seq).toBe(5);
    expect(adjacentHit(marks, 5, -1)).toBeNull();
    // one breakpoint's hits, round and round
    const mixed = [...marks, { ...marks[0]!, seq: 7, hit: { ...marks[0]!.hit, breakpointId: 'bp-2' } }].sort(
      (a, b) => a.seq - b.seq,
    );
    expect(nextHitOf(mixed, 5, 'bp-1')?.seq).toBe(9);
    expect(nextHitOf(mixed, 20, 'bp-1')?.seq).toBe(5);
    expect(nextHitOf(mixed, 0, 'bp-2')?.seq).toBe(7);
    expect(nextHitOf(mixed, 7, 'bp-2')?.seq).toBe(7);
    expect(nextHitOf(mixed, 0, 'bp-3')).toBeNull();
  });

  it('puts a marker at each hit’s place on the timeline, hits closer than a place sharing one', () => {
    const condition = verificationFails.condition;
    const mark = (seq: number) => ({
      seq,
      hit: { breakpointId: 'bp-1', condition, seq, eventType: 'node.verified', nodeId: null, detail: '' },
    });
    const markers = hitMarkers([1, 2, 50, 101].map(mark), 101, 10);
    expect(markers.map((m) => [m.first.seq, m.count, m.at])).toEqual([
      [1, 2, 0],
      [50, 1, 0.5],
      [101, 1, 1],
    ]);
    // thousands of hits: never more markers than places
    const many = Array.from({ length: 5_000 }, (_, i) => mark(i + 1));
    const drawn = hitMarkers(many, 5_000, 400);
    expect(drawn.length).toBeLessThanOrEqual(401);
    expect(drawn.reduce((n, m) => n + m.count, 0)).toBe(5_000);
  });

  it('a live run’s hits are its stops, read as the log grows; a run-to-here stop marks its own pause', async () => {
    const events = await recordRun();
    const failed = failedVerifications(events)[0] as ExplorationEvent;
    const stepEnd = events.findIndex((e) => e.seq > failed.seq && e.type === 'node.started');
    const prefix = events.slice(0, stepEnd);
    const seq = prefix.length + 1;
    const failedNode = (failed.payload as { nodeId: string }).nodeId;
    const log: ExplorationEvent[] = [
      ...prefix,
      {
        ...failed,
        seq,
        type: 'run.paused',
        payload: {
          reason: 'breakpoint',
          hit: {
            breakpointId: 'bp-1',
            condition: { kind: 'verification-failed' },
            seq: failed.seq,
            eventType: 'node.verified',
            nodeId: failedNode,
            detail: 'failed',
          },
        },
      } as ExplorationEvent,
    ];
    const index = new StopIndex();
    const before = index.read(log, prefix.length);
    expect(before.marks).toEqual([]);
    expect(index.read(log, log.length).marks.map((m) => m.seq)).toEqual([failed.seq]);
    expect(index.read(log, log.length)).toBe(index.read(log, log.length)); // unchanged: the same object

    // the store: stopped at it, the hit named, the stop marked
    const store = createRunStore(failed.runId, () => {});
    store.getState().receiveMany(log);
    store.getState().flush();
    const state = store.getState();
    expect(state.liveStatus).toBe('paused');
    expect(state.liveHit?.nodeId).toBe(failedNode);
    expect(state.hits.marks.map((m) => m.seq)).toEqual([failed.seq]);
    expect(state.hits.counts.get('bp-1')).toBe(1);

    const runTo: ExplorationEvent = {
      ...failed,
      seq: seq + 1,
      type: 'run.paused',
      payload: {
        reason: 'breakpoint',
        hit: {
          breakpointId: 'run-to-n9',
          condition: { kind: 'node-runs', nodeId: 'n9' },
          seq: null,
          eventType: 'node.started',
          nodeId: 'n9',
          detail: 'n9 is about to run',
        },
      },
    } as ExplorationEvent;
    expect(index.read([...log, runTo], log.length + 1).marks.map((m) => m.seq)).toEqual([failed.seq, seq + 1]);
  });

  it('an ended run’s store judges its local list once its history is whole', async () => {
    const events = await recordRun();
    const failed = failedVerifications(events);
    const store = createRunStore(events[0]?.runId ?? '', () => {});
    store.getState().receiveMany(events);
    store.getState().flush();
    expect(store.getState().hits).toBe(NO_HITS); // the run had no breakpoints of its own
    store.getState().setLocalBreakpoints([verificationFails]);
    expect(store.getState().hits.marks.map((m) => m.seq)).toEqual(failed.map((e) => e.seq));
    const hits = store.getState().hits;
    store.getState().select('n1'); // anything else changing leaves the hits as they were
    expect(store.getState().hits).toBe(hits);
    store.getState().setLocalBreakpoints(disableAll([verificationFails]));
    expect(store.getState().hits).toBe(NO_HITS);
  });
});

describe('a list in a link', () => {
  it('comes back as it went', () => {
    const list = [verificationFails, { id: 'bp-2', enabled: false, condition: { kind: 'depth', depth: 3 } } as const];
    expect(decodeBreakpoints(encodeBreakpoints(list))).toEqual({ ok: true, list });
  });

  it('is refused, with why, when it is not JSON or not a list the contract takes', () => {
    expect(decodeBreakpoints('[{')).toEqual({ ok: false, problem: 'it is not JSON' });
    const bad = decodeBreakpoints(JSON.stringify([{ id: 'x', enabled: true, condition: { kind: 'nope' } }]));
    expect(bad.ok).toBe(false);
    const twice = decodeBreakpoints(encodeBreakpoints([verificationFails, verificationFails]));
    expect(twice.ok ? null : twice.problem).toMatch(/used twice/);
  });
});
