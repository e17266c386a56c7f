import { describe, expect, it } from 'vitest';
import { makeNode } from '../tasks/testing/trees';
import {
  displayStatus,
  droppedFoldText,
  firstLine,
  isSearchPruned,
  rootThought,
  scoreFigure,
  statusLabel,
} from './node-status';

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

  it("draws a node the search pruned by its own rule as the engine draws its own prunes (pruned by score), a person's prune as pruned", () => {
    const node = { ...makeNode('n1', 'n0', 1, null), status: 'pruned' as const };
    const bySearch = { ...node, pruneReason: 'an impossible clue' };
    expect(isSearchPruned(bySearch)).toBe(true);
    expect(displayStatus(bySearch)).toBe('dropped');
    expect(isSearchPruned({ ...node, prunedBy: 'alice' })).toBe(false);
    expect(displayStatus({ ...node, prunedBy: 'alice' })).toBe('pruned');
  });

  it('names what a fold of pruned branches holds: candidates below the threshold, branches the search pruned, or both', () => {
    expect(droppedFoldText(3, 0)).toEqual({ title: '3 pruned by score', detail: 'below the threshold' });
    expect(droppedFoldText(0, 1)).toEqual({ title: '1 pruned by the search', detail: 'by its own rule' });
    expect(droppedFoldText(2, 3)).toEqual({ title: '5 pruned', detail: '2 by score · 3 by the search' });
  });

  it("shows a root's own thought beside the goal, unless it has none or it is the goal again", () => {
    const root = makeNode('n0', null, 0, null);
    expect(rootThought(root, 'make 24')).toBeNull();
    const withThought = (thought: string) => ({
      ...root,
      branch: { thought, proposedAction: { type: 'response' as const, content: thought } },
    });
    expect(rootThought(withThought('4 9 10 13'), 'make 24 from 4 9 10 13')).toBe('4 9 10 13');
    expect(rootThought(withThought(' make 24 '), 'make 24')).toBeNull();
    expect(
      rootThought(withThought('4 9'), 'g') && rootThought({ ...withThought('4 9'), parentId: 'x' }, 'g'),
    ).toBeNull();
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
