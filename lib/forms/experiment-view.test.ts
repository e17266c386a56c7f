import { describe, expect, it } from 'vitest';
import type { CellFigures, CellOutcome, ExperimentItemView } from '@/lib/contract/experiments';
import { filterItems, foldOutcome, formatRate, gridOf, itemTags, niceMax } from './experiment-view';

function cell(item: number, configuration: number, outcome: CellOutcome, repetition = 0): CellFigures {
  return {
    item,
    configuration,
    repetition,
    runId: outcome === 'queued' ? null : `r${item}-${configuration}-${repetition}`,
    outcome,
    costUsd: 0,
    unpricedCalls: 0,
    tokens: 0,
    modelCalls: 0,
    wallMs: null,
    exploredNodes: 0,
    backtracks: 0,
    bestScore: null,
    output: null,
  };
}

describe('formatRate', () => {
  it('reads as a percentage with its interval', () => {
    expect(formatRate(0.74, { low: 0.648, high: 0.821 })).toBe('74% [65–82%]');
    expect(formatRate(null, null)).toBe('—');
    expect(formatRate(1, null)).toBe('100%');
  });
});

describe('foldOutcome', () => {
  it('colours a square by its repetitions: running first, then the majority, errors beside failures', () => {
    expect(foldOutcome([cell(0, 0, 'solved'), cell(0, 0, 'running', 1)]).outcome).toBe('running');
    expect(foldOutcome([cell(0, 0, 'solved'), cell(0, 0, 'solved', 1), cell(0, 0, 'failed', 2)])).toMatchObject({
      outcome: 'solved',
      solved: 2,
      done: 3,
      cells: 3,
    });
    expect(foldOutcome([cell(0, 0, 'solved'), cell(0, 0, 'failed', 1)]).outcome).toBe('failed');
    expect(foldOutcome([cell(0, 0, 'error'), cell(0, 0, 'error', 1), cell(0, 0, 'failed', 2)]).outcome).toBe('error');
    expect(foldOutcome([cell(0, 0, 'queued')]).outcome).toBe('queued');
    expect(foldOutcome([cell(0, 0, 'skipped')]).outcome).toBe('skipped');
  });

  it('opens the repetition that needs a look: a failed one when the square is not solved', () => {
    expect(foldOutcome([cell(0, 0, 'solved'), cell(0, 0, 'failed', 1)]).runId).toBe('r0-0-1');
    expect(foldOutcome([cell(0, 0, 'solved'), cell(0, 0, 'solved', 1)]).runId).toBe('r0-0-0');
    expect(foldOutcome([cell(0, 0, 'queued')]).runId).toBeNull();
  });
});

describe('grid filters', () => {
  const items: ExperimentItemView[] = [
    { index: 0, goal: '1 1 4 6', expected: null, tags: ['easy'] },
    { index: 1, goal: '4 9 10 13', expected: '(10-4)*(13-9)', tags: ['hard'] },
    { index: 2, goal: '2 2 2 9', expected: null, tags: [] },
  ];
  const grid = gridOf(
    [cell(0, 0, 'solved'), cell(0, 1, 'failed'), cell(1, 0, 'error'), cell(1, 1, 'solved'), cell(2, 0, 'queued')],
    3,
    2,
  );

  it('keep items by text, tag and outcome', () => {
    expect(filterItems(items, grid, { text: '', tag: '', outcome: '' })).toEqual([0, 1, 2]);
    expect(filterItems(items, grid, { text: '13-9', tag: '', outcome: '' })).toEqual([1]);
    expect(filterItems(items, grid, { text: '', tag: 'easy', outcome: '' })).toEqual([0]);
    expect(filterItems(items, grid, { text: '', tag: '', outcome: 'failed' })).toEqual([0]);
    expect(filterItems(items, grid, { text: '', tag: '', outcome: 'queued' })).toEqual([2]);
    expect(itemTags(items)).toEqual(['easy', 'hard']);
  });

  it('build a square for every item and configuration, queued where no cell is', () => {
    expect(grid).toHaveLength(3);
    expect(grid[2]?.map((sq) => sq.outcome)).toEqual(['queued', 'queued']);
  });
});

describe('niceMax', () => {
  it('rounds an axis up', () => {
    expect(niceMax(0.0042)).toBe(0.005);
    expect(niceMax(0.011)).toBeCloseTo(0.02);
    expect(niceMax(0)).toBe(1);
  });
});
