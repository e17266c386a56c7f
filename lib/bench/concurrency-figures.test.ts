// bench:concurrency's arithmetic on hand-built logs: which calls depend on which, and the calls in flight.
import { describe, expect, it } from 'vitest';
import type { EventPayloads, ExplorationEvent, ExplorationEventType } from '../contract/events';
import type { ModelPurpose } from '../contract/vocabulary';
import { callsInFlight, criticalPath, widestLevel } from './concurrency-figures';

/** A log built event by event, seq 1, 2, 3, ... */
function logOf() {
  const events: ExplorationEvent[] = [];
  const push = <K extends ExplorationEventType>(type: K, payload: EventPayloads[K]) => {
    const seq = events.length + 1;
    events.push({ runId: 'r', seq, ts: seq, type, payload } as ExplorationEvent);
    return seq;
  };
  return {
    events,
    created: (nodeId: string, parentId: string | null) =>
      push('node.created', { nodeId, parentId, branch: null, score: null }),
    restored: (nodeId: string, parentId: string) =>
      push('node.restored', {
        nodeId,
        parentId,
        branch: { thought: nodeId, proposedAction: { type: 'response', content: nodeId } },
        score: null,
        status: 'completed',
        result: null,
        verification: null,
        from: null,
      }),
    call: (nodeId: string | null, purpose: ModelPurpose, startedAt?: number, latencyMs = 200) =>
      push('model.called', {
        nodeId,
        purpose,
        modelId: 'm',
        messages: [],
        response: 'ok',
        error: null,
        usage: { inputTokens: 1, outputTokens: 1 },
        cost: null,
        latencyMs,
        ...(startedAt === undefined ? {} : { startedAt }),
      }),
  };
}

describe('criticalPath', () => {
  it('chains a parent expansion, a child execution turn by turn, its own expansion and the synthesis', () => {
    const log = logOf();
    log.created('n0', null);
    const gen0 = log.call('n0', 'generate');
    const eval0 = log.call('n0', 'evaluate'); // both evaluations are one call deep: the chain names the first
    log.call('n0', 'evaluate');
    log.created('n1', 'n0');
    log.created('n2', 'n0');
    const turn1 = log.call('n1', 'execute');
    const turn2 = log.call('n1', 'execute');
    const gen1 = log.call('n1', 'generate');
    const eval1 = log.call('n1', 'evaluate');
    log.call('n2', 'generate'); // n2 ran no call: its generation waits for n0's expansion only
    log.call('n2', 'evaluate');
    const synthesis = log.call(null, 'synthesize');
    expect(criticalPath(log.events)).toEqual({
      length: 7,
      seqs: [gen0, eval0, turn1, turn2, gen1, eval1, synthesis],
    });
  });

  it('never chains evaluations of one expansion to each other, nor the generations of siblings', () => {
    const log = logOf();
    log.created('n0', null);
    log.call('n0', 'generate');
    for (let i = 0; i < 3; i++) log.call('n0', 'evaluate');
    for (const child of ['n1', 'n2', 'n3']) log.created(child, 'n0');
    for (const child of ['n1', 'n2', 'n3']) {
      log.call(child, 'generate');
      log.call(child, 'evaluate');
      log.call(child, 'evaluate');
    }
    // gen n0 -> eval n0 -> gen of a child -> eval of it: 4, however many siblings and candidates
    expect(criticalPath(log.events).length).toBe(4);
  });

  it('counts a failed generation with no evaluation, and a root that only synthesizes', () => {
    const failed = logOf();
    failed.created('n0', null);
    failed.call('n0', 'generate');
    failed.call(null, 'synthesize');
    expect(criticalPath(failed.events).length).toBe(2);
    expect(criticalPath([]).length).toBe(0);
  });

  it('starts a node restored from another run at no call, whatever its parent did there', () => {
    const log = logOf();
    log.created('n0', null);
    log.restored('n1', 'n0');
    log.call('n1', 'generate');
    log.call('n1', 'evaluate');
    expect(criticalPath(log.events).length).toBe(2);
  });

  it('starts a second expansion of a node from its execution, and its new children from that expansion', () => {
    const log = logOf();
    log.created('n0', null);
    log.call('n0', 'generate');
    log.call('n0', 'evaluate');
    log.created('n1', 'n0');
    // a person expands n0 again: the same chain depth as the first, not stacked on it
    log.call('n0', 'generate');
    const late = log.call('n0', 'evaluate');
    log.created('n2', 'n0');
    log.call('n2', 'generate');
    expect(criticalPath(log.events)).toMatchObject({ length: 3 });
    expect(criticalPath(log.events).seqs).toContain(late);
  });
});

describe('callsInFlight', () => {
  it('weights the calls by their time in the window and finds the peak', () => {
    const log = logOf();
    log.call('n0', 'evaluate', 1_000);
    log.call('n0', 'evaluate', 1_000);
    log.call('n1', 'evaluate', 1_200);
    expect(callsInFlight(log.events, { from: 1_000, to: 1_400 })).toEqual({ average: 1.5, peak: 2 });
    // only the part of a call inside the window counts
    expect(callsInFlight(log.events, { from: 1_100, to: 1_200 })?.average).toBe(2);
  });

  it('reads calls one after another as one in flight, even when rounding makes them touch by a millisecond', () => {
    const log = logOf();
    log.call('n0', 'generate', 1_000, 201);
    log.call('n0', 'evaluate', 1_200, 200);
    expect(callsInFlight(log.events, { from: 1_000, to: 1_400 })?.peak).toBe(1);
  });

  it('gives no figure for a log without startedAt, or an empty window', () => {
    const log = logOf();
    log.call('n0', 'generate');
    expect(callsInFlight(log.events, { from: 0, to: 100 })).toBeNull();
    expect(callsInFlight([], { from: 5, to: 5 })).toBeNull();
  });
});

describe('widestLevel', () => {
  it('counts the generations made at each depth and names the widest', () => {
    const log = logOf();
    log.created('n0', null);
    log.call('n0', 'generate');
    for (const child of ['n1', 'n2']) {
      log.created(child, 'n0');
      log.call(child, 'generate');
      log.call(child, 'evaluate');
    }
    log.created('n3', 'n1');
    log.call('n3', 'generate');
    expect(widestLevel(log.events)).toEqual({ depth: 1, generations: 2 });
  });
});
