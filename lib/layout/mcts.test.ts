// MCTS figures as the card and inspector write them, and whether a tree has any to colour by.
import { describe, expect, it } from 'vitest';
import { createEmptyTree, fold } from '../engine/index';
import { externalSearchLog } from '../engine/testing';
import { formatQ, hasMctsStats, mctsFigure } from './mcts';

describe('MCTS figures', () => {
  it('write Q to a precision that fits its size, and N as a count', () => {
    expect(formatQ(0.6234)).toBe('0.62');
    expect(formatQ(-1.5)).toBe('-1.50');
    expect(formatQ(12.345)).toBe('12.3');
    expect(formatQ(104.6)).toBe('105');
    expect(mctsFigure({ q: 0.6234, n: 7, uct: 1.2 })).toBe('Q 0.62 · N 7');
  });

  it('leave out what the search has not said, and say nothing for a node without statistics', () => {
    expect(mctsFigure({ q: null, n: 10, uct: null })).toBe('N 10');
    expect(mctsFigure({ q: 0.5, n: null, uct: null })).toBe('Q 0.50');
    expect(mctsFigure({ q: null, n: null, uct: 2 })).toBeNull();
    expect(mctsFigure(null)).toBeNull();
  });

  it('tell a tree with statistics from one without', () => {
    expect(hasMctsStats(fold(externalSearchLog()))).toBe(true);
    expect(hasMctsStats(createEmptyTree('x'))).toBe(false);
  });
});
