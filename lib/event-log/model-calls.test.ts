import { beforeAll, describe, expect, it } from 'vitest';
import type { ExplorationEvent } from '@/lib/contract/events';
import { recordGame24, type RecordedLog } from '../tasks/testing/recorded';
import { callTotals, eventAt, formatClock, messagesAsText, modelCallsOf, type ModelCallEvent } from './model-calls';

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
