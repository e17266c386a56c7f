import { describe, expect, it } from 'vitest';
import {
  formatLabelCounts,
  labelsByConfiguration,
  median,
  progressOf,
  summarizeByConfiguration,
  summarizeCells,
} from './aggregate';
import { cell } from './testing';

describe('summarizeCells', () => {
  it('counts each outcome and takes done as solved + failed + error', () => {
    const figures = summarizeCells([
      cell({ outcome: 'solved' }),
      cell({ outcome: 'solved' }),
      cell({ outcome: 'failed' }),
      cell({ outcome: 'error' }),
      cell({ outcome: 'running' }),
      cell({ outcome: 'queued', runId: null }),
      cell({ outcome: 'skipped', runId: null }),
    ]);
    expect(figures).toMatchObject({
      cells: 7,
      done: 4,
      solved: 2,
      failed: 1,
      error: 1,
      running: 1,
      queued: 1,
      skipped: 1,
    });
    expect(figures.successRate).toBe(0.5);
    expect(figures.interval!.low).toBeCloseTo(0.15, 2);
    expect(figures.interval!.high).toBeCloseTo(0.85, 2);
  });

  it('sums cost and unpriced calls over every cell with a run, and averages over done cells only', () => {
    const figures = summarizeCells([
      cell({ outcome: 'solved', costUsd: 1, unpricedCalls: 1, tokens: 10, wallMs: 100 }),
      cell({ outcome: 'failed', costUsd: 3, unpricedCalls: 0, tokens: 30, wallMs: 300 }),
      // an aborted run: spent, but not done
      cell({ outcome: 'skipped', costUsd: 0.5, unpricedCalls: 2, tokens: 999, wallMs: 5 }),
      cell({ outcome: 'running', costUsd: 0.25, tokens: 999, wallMs: null }),
      // no run: its figures are not counted even if a caller left some in
      cell({ outcome: 'queued', runId: null, costUsd: 7, unpricedCalls: 9 }),
    ]);
    expect(figures.costUsd).toBeCloseTo(4.75, 10);
    expect(figures.unpricedCalls).toBe(3);
    expect(figures.meanCostUsd).toBe(2);
    expect(figures.medianCostUsd).toBe(2);
    expect(figures.meanTokens).toBe(20);
    expect(figures.meanWallMs).toBe(200);
    expect(figures.medianWallMs).toBe(200);
  });

  it('takes means of model calls, explored nodes and backtracks, and wall time over the done cells that have one', () => {
    const figures = summarizeCells([
      cell({ outcome: 'solved', modelCalls: 2, exploredNodes: 4, backtracks: 0, wallMs: 10 }),
      cell({ outcome: 'error', modelCalls: 4, exploredNodes: 8, backtracks: 3, wallMs: null }),
    ]);
    expect(figures.meanModelCalls).toBe(3);
    expect(figures.meanExploredNodes).toBe(6);
    expect(figures.meanBacktracks).toBe(1.5);
    expect(figures.meanWallMs).toBe(10);
  });

  it('has null rate, interval, means and medians before any cell is done', () => {
    const figures = summarizeCells([
      cell({ outcome: 'running', costUsd: 0.2 }),
      cell({ outcome: 'queued', runId: null }),
    ]);
    expect(figures.done).toBe(0);
    expect(figures.successRate).toBeNull();
    expect(figures.interval).toBeNull();
    expect(figures.meanCostUsd).toBeNull();
    expect(figures.medianCostUsd).toBeNull();
    expect(figures.meanTokens).toBeNull();
    expect(figures.medianWallMs).toBeNull();
    expect(figures.costUsd).toBe(0.2);
  });

  it('is all zeros and nulls for no cells', () => {
    expect(summarizeCells([])).toMatchObject({ cells: 0, done: 0, costUsd: 0, successRate: null, interval: null });
  });
});

describe('median', () => {
  it('is the middle value of an odd count and the mean of the two middle values of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNull();
  });

  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
});

describe('summarizeByConfiguration', () => {
  it('gives one entry per configuration in order, an empty one for a configuration with no cell', () => {
    const figures = summarizeByConfiguration(
      [
        cell({ configuration: 0, outcome: 'solved' }),
        cell({ configuration: 0, outcome: 'failed' }),
        cell({ configuration: 2, outcome: 'solved' }),
        cell({ configuration: 7, outcome: 'solved' }),
      ],
      3,
    );
    expect(figures.map((f) => [f.cells, f.solved])).toEqual([
      [2, 1],
      [0, 0],
      [1, 1],
    ]);
    expect(figures[1]!.successRate).toBeNull();
  });
});

describe('progressOf', () => {
  it('counts every cell but queued and running as done, and sums the cost of cells with a run', () => {
    expect(
      progressOf([
        cell({ outcome: 'solved', costUsd: 1 }),
        cell({ outcome: 'skipped', runId: null, costUsd: 0 }),
        cell({ outcome: 'error', costUsd: 0.5 }),
        cell({ outcome: 'running', costUsd: 0.25 }),
        cell({ outcome: 'queued', runId: null }),
      ]),
    ).toEqual({ done: 3, total: 5, costUsd: 1.75 });
  });
});

describe('labelsByConfiguration', () => {
  it('sums each label over the runs of each configuration’s cells, by name, whatever their outcome', () => {
    const cells = [
      cell({ item: 0, configuration: 0, outcome: 'solved' }),
      cell({ item: 1, configuration: 0, outcome: 'failed' }),
      cell({ item: 0, configuration: 1, outcome: 'skipped' }),
      cell({ item: 1, configuration: 1, outcome: 'queued', runId: null }),
      cell({ item: 0, configuration: 2 }),
      cell({ item: 0, configuration: 9 }),
    ];
    const labels = labelsByConfiguration(
      cells,
      [
        { runId: 'run-0-0-0', label: 'good thought', count: 2 },
        { runId: 'run-0-0-0', label: 'evaluator wrong', count: 1 },
        { runId: 'run-1-0-0', label: 'good thought', count: 3 },
        { runId: 'run-0-1-0', label: 'hallucinated move', count: 1 },
        // not a cell of this experiment, and a cell outside the configurations: left out
        { runId: 'elsewhere', label: 'good thought', count: 7 },
        { runId: 'run-0-9-0', label: 'good thought', count: 7 },
      ],
      3,
    );
    expect(labels).toEqual([
      [
        { label: 'evaluator wrong', count: 1 },
        { label: 'good thought', count: 5 },
      ],
      [{ label: 'hallucinated move', count: 1 }],
      [],
    ]);
    expect(labels.map(formatLabelCounts)).toEqual(['evaluator wrong 1 · good thought 5', 'hallucinated move 1', '']);
  });
});
