import { describe, expect, it } from 'vitest';
import { makeNode } from '../tasks/testing/trees';
import { displayStatus, firstLine, scoreFigure, statusLabel } from './node-status';

describe('how a node reads', () => {
  it('shows a completed node whose answer passed its check as verified, any other as its status', () => {
    const node = makeNode('n1', 'n0', 1, null);
    expect(displayStatus(node)).toBe('completed');
    expect(displayStatus({ ...node, verification: { passed: true, trace: 'ok' } })).toBe('verified');
    expect(displayStatus({ ...node, status: 'failed', verification: { passed: true, trace: 'ok' } })).toBe('failed');
  });

  it('names who pruned a node: a person, or the search by its own rule', () => {
    const node = { ...makeNode('n1', 'n0', 1, null), status: 'pruned' as const };
    expect(statusLabel({ ...node, prunedBy: 'alice' })).toBe('pruned by alice');
    expect(statusLabel({ ...node, pruneReason: 'an impossible clue' })).toBe('pruned by the search');
    expect(statusLabel(node)).toBe('pruned by a person');
    expect(statusLabel(makeNode('n2', 'n0', 1, null))).toBe('completed');
  });

  it('takes the first line with text, cut with an ellipsis', () => {
    expect(firstLine('\n  \nfirst\nsecond')).toBe('first');
    expect(firstLine('x'.repeat(10), 5)).toBe('xxxx…');
  });

  it("writes a score as our composite, or a log's own value on its scale", () => {
    const ours = { confidence: 0.8, progress: 0.5, novelty: 0.5, composite: 0.655, reasoning: '', fallback: false };
    expect(scoreFigure(ours)).toBe('0.66');
    const logged = { ...ours, confidence: null, progress: null, novelty: null, composite: 0.002 / 60 };
    expect(scoreFigure({ ...logged, logValue: { value: 0.002, max: 60 } })).toBe('0.002/60');
    expect(scoreFigure({ ...logged, composite: 1, logValue: { value: 60, max: 60 } })).toBe('60/60');
  });
});
