import { beforeAll, describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '@/lib/contract/events';
import { recordGame24, type RecordedLog } from '../tasks/testing/recorded';
import type { ModelAttempt, ModelPurpose } from '@/lib/contract/vocabulary';
import {
  attemptsText,
  callStart,
  callTotals,
  callWaterfall,
  eventAt,
  formatClock,
  messagesAsText,
  modelCallsOf,
  type ModelCallEvent,
} from './model-calls';

let run: RecordedLog;
beforeAll(async () => {
  run = await recordGame24();
});

describe('modelCallsOf', () => {
  it('finds a node’s model.called events by its modelCallSeqs', () => {
    const root = run.tree.nodes.n0;
    if (!root) throw new Error('no root');
    const calls = modelCallsOf(run.events, root.modelCallSeqs);
    expect(calls.map((c) => c.seq)).toEqual(root.modelCallSeqs);
    expect(calls.every((c) => c.type === 'model.called' && c.payload.nodeId === 'n0')).toBe(true);
    expect(calls.map((c) => c.payload.purpose)).toEqual(['generate', 'evaluate', 'evaluate', 'evaluate']);
  });

  it('skips seqs the store does not have yet, or that are not model calls', () => {
    expect(modelCallsOf(run.events, [1, 99_999])).toEqual([]);
    expect(modelCallsOf(run.events.slice(0, 4), [5])).toEqual([]);
    expect(eventAt(run.events, 0)).toBeUndefined();
    expect(eventAt(run.events, 3)?.seq).toBe(3);
  });

  it('adds up to the node’s own usage (the one reduce keeps)', () => {
    for (const node of Object.values(run.tree.nodes)) {
      const totals = callTotals(modelCallsOf(run.events, node.modelCallSeqs));
      expect(totals.calls).toBe(node.modelCallSeqs.length);
      expect(totals.inputTokens).toBe(node.usage.inputTokens);
      expect(totals.outputTokens).toBe(node.usage.outputTokens);
      expect(totals.cost).toBeCloseTo(node.usage.cost, 12);
      expect(totals.unpricedCalls).toBe(node.usage.unpricedCalls);
    }
  });
});

describe('callTotals', () => {
  it('counts errors, unpriced calls and latency', () => {
    const call = (cost: number | null, error: string | null): ModelCallEvent =>
      ({
        runId: 'r',
        seq: 1,
        ts: 0,
        type: 'model.called',
        payload: {
          nodeId: 'n1',
          purpose: 'execute',
          modelId: 'm',
          messages: [],
          response: error ? null : 'ok',
          error,
          usage: { inputTokens: 100, outputTokens: 20 },
          cost,
          latencyMs: 250,
        },
      }) satisfies ExplorationEvent;
    expect(callTotals([call(0.5, null), call(null, 'boom'), call(0.25, null)])).toEqual({
      calls: 3,
      errors: 1,
      inputTokens: 300,
      outputTokens: 60,
      cost: 0.75,
      unpricedCalls: 1,
      latencyMs: 750,
    });
    expect(callTotals([]).calls).toBe(0);
  });
});

describe('formatting', () => {
  it('writes tokens, clock times and prompts', () => {
    expect(formatClock(new Date(2026, 0, 2, 3, 4, 5, 6).getTime())).toBe('03:04:05.006');
    expect(
      messagesAsText([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hi' },
      ]),
    ).toBe('[system]\nbe brief\n\n[user]\nhi');
  });
});

/** A model.called event of node n1: written at `ts`, after `latencyMs`; `startedAt` when the log records it. */
function timedCall(
  seq: number,
  purpose: ModelPurpose,
  timing: { ts: number; latencyMs: number; startedAt?: number; attempts?: ModelAttempt[]; error?: string },
): ModelCallEvent {
  return {
    runId: 'r',
    seq,
    ts: timing.ts,
    type: 'model.called',
    payload: {
      nodeId: 'n1',
      purpose,
      modelId: 'm',
      messages: [],
      response: timing.error ? null : 'ok',
      error: timing.error ?? null,
      usage: { inputTokens: 1, outputTokens: 1 },
      cost: null,
      latencyMs: timing.latencyMs,
      ...(timing.startedAt !== undefined && { startedAt: timing.startedAt }),
      ...(timing.attempts && { attempts: timing.attempts }),
    },
  };
}

describe('callWaterfall', () => {
  it('puts a node’s calls on one axis from its first start, by start, with how many ran at once', () => {
    const waterfall = callWaterfall([
      timedCall(5, 'evaluate', { ts: 1_700, startedAt: 1_400, latencyMs: 300 }),
      timedCall(4, 'generate', { ts: 1_400, startedAt: 1_000, latencyMs: 400 }),
      timedCall(6, 'evaluate', { ts: 1_800, startedAt: 1_400, latencyMs: 400 }),
    ]);
    expect(waterfall).toMatchObject({ startedAt: 1_000, spanMs: 800, peakInFlight: 2 });
    expect(
      waterfall?.rows.map((r) => [r.seq, r.purpose, r.offsetMs, r.durationMs, r.left, r.width, r.estimated]),
    ).toEqual([
      [4, 'generate', 0, 400, 0, 0.5, false],
      [5, 'evaluate', 400, 300, 0.5, 0.375, false],
      [6, 'evaluate', 400, 400, 0.5, 0.5, false],
    ]);
  });

  it('counts calls one after another as one at a time, and says nothing when no call took any time', () => {
    const chain = callWaterfall([
      timedCall(1, 'generate', { ts: 200, startedAt: 100, latencyMs: 100 }),
      timedCall(2, 'evaluate', { ts: 300, startedAt: 200, latencyMs: 100 }),
    ]);
    expect(chain?.peakInFlight).toBe(1);
    // a call admitted as the last one ended can be recorded a millisecond before its end (clocks rounded apart):
    // still one at a time, as a limit of 1 ran them; an overlap longer than the rounding is two at once
    const rounded = callWaterfall([
      timedCall(1, 'generate', { ts: 200, startedAt: 100, latencyMs: 101 }),
      timedCall(2, 'evaluate', { ts: 300, startedAt: 200, latencyMs: 100 }),
    ]);
    expect(rounded?.peakInFlight).toBe(1);
    const overlapping = callWaterfall([
      timedCall(1, 'generate', { ts: 200, startedAt: 100, latencyMs: 110 }),
      timedCall(2, 'evaluate', { ts: 300, startedAt: 200, latencyMs: 100 }),
    ]);
    expect(overlapping?.peakInFlight).toBe(2);
    expect(callWaterfall([])).toBeNull();
    expect(callWaterfall([timedCall(1, 'generate', { ts: 5, startedAt: 5, latencyMs: 0 })])).toBeNull();
  });

  it('estimates the start of a call from a log written before starts were recorded', () => {
    const old = timedCall(3, 'execute', { ts: 2_000, latencyMs: 250 });
    expect(callStart(old)).toEqual({ startedAt: 1_750, estimated: true });
    const waterfall = callWaterfall([old, timedCall(4, 'generate', { ts: 2_100, startedAt: 2_000, latencyMs: 100 })]);
    expect(waterfall?.rows.map((r) => [r.seq, r.offsetMs, r.estimated])).toEqual([
      [3, 0, true],
      [4, 250, false],
    ]);
  });

  it('draws a retried call as its attempts with the waits between them, the failures marked', () => {
    const attempts: ModelAttempt[] = [
      { startedAt: 0, latencyMs: 100, status: 429, error: 'rate limited', waitMs: 200 },
      { startedAt: 300, latencyMs: 100, status: 503, error: 'overloaded', waitMs: 100 },
      { startedAt: 500, latencyMs: 500, status: 200, error: null, waitMs: null },
    ];
    const waterfall = callWaterfall([
      timedCall(7, 'generate', { ts: 1_000, startedAt: 0, latencyMs: 1_000, attempts }),
    ]);
    const row = waterfall?.rows[0];
    expect(row).toMatchObject({ retries: 2, error: null, left: 0, width: 1, durationMs: 1_000 });
    expect(row?.segments.map((s) => [s.kind, s.left, s.width, s.status, s.error !== null])).toEqual([
      ['attempt', 0, 0.1, 429, true],
      ['wait', 0.1, 0.2, null, false],
      ['attempt', 0.3, 0.1, 503, true],
      ['wait', 0.4, 0.1, null, false],
      ['attempt', 0.5, 0.5, 200, false],
    ]);
    expect(row && attemptsText(row)).toBe('429, 503, 200');
  });

  it('keeps a failed call’s error, and a call made once has no segments', () => {
    const waterfall = callWaterfall([
      timedCall(8, 'evaluate', { ts: 300, startedAt: 100, latencyMs: 200, error: 'the server said no' }),
      timedCall(9, 'evaluate', { ts: 300, startedAt: 200, latencyMs: 100 }),
    ]);
    expect(waterfall?.rows.map((r) => [r.seq, r.error, r.retries, r.segments.length])).toEqual([
      [8, 'the server said no', 0, 0],
      [9, null, 0, 0],
    ]);
  });

  it('places the calls of a real recorded run inside their node’s span', () => {
    for (const node of Object.values(run.tree.nodes)) {
      const waterfall = callWaterfall(modelCallsOf(run.events, node.modelCallSeqs));
      for (const row of waterfall?.rows ?? []) {
        expect(row.left).toBeGreaterThanOrEqual(0);
        expect(row.left + row.width).toBeLessThanOrEqual(1 + 1e-9);
      }
    }
  });
});
