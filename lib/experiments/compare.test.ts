import { describe, expect, it } from 'vitest';
import { compareConfigurations, compareHref, foldRepetitions } from './compare';
import { cell } from './testing';

describe('foldRepetitions', () => {
  it('gives one row per item x configuration with solved and done counts, in item then configuration order', () => {
    const rows = foldRepetitions([
      cell({ item: 1, configuration: 0, repetition: 0, outcome: 'solved' }),
      cell({ item: 0, configuration: 1, repetition: 1, outcome: 'failed' }),
      cell({ item: 0, configuration: 1, repetition: 0, outcome: 'solved' }),
      cell({ item: 0, configuration: 1, repetition: 2, outcome: 'running' }),
      cell({ item: 0, configuration: 0, repetition: 0, outcome: 'queued', runId: null }),
    ]);
    expect(rows.map((r) => [r.item, r.configuration, r.solved, r.done, r.cells])).toEqual([
      [0, 0, 0, 0, 1],
      [0, 1, 1, 2, 3],
      [1, 0, 1, 1, 1],
    ]);
    expect(rows[1]!.runIds).toEqual(['run-0-1-0', 'run-0-1-1', 'run-0-1-2']);
    expect(rows[1]!.solvedRunIds).toEqual(['run-0-1-0']);
    expect(rows[0]!.runIds).toEqual([]);
  });

  it('solves an item by majority of done repetitions: 2 of 3 yes, 1 of 2 (a tie) no, none done undecided', () => {
    const rows = foldRepetitions([
      cell({ item: 0, repetition: 0, outcome: 'solved' }),
      cell({ item: 0, repetition: 1, outcome: 'solved' }),
      cell({ item: 0, repetition: 2, outcome: 'error' }),
      cell({ item: 1, repetition: 0, outcome: 'solved' }),
      cell({ item: 1, repetition: 1, outcome: 'failed' }),
      cell({ item: 2, repetition: 0, outcome: 'running' }),
      // skipped is not done: 1 solved of 1 done
      cell({ item: 3, repetition: 0, outcome: 'solved' }),
      cell({ item: 3, repetition: 1, outcome: 'skipped' }),
    ]);
    expect(rows.map((r) => r.solvedByMajority)).toEqual([true, false, null, true]);
  });
});

describe('compareConfigurations', () => {
  const cells = [
    // item 0: both solve
    cell({ item: 0, configuration: 0, outcome: 'solved' }),
    cell({ item: 0, configuration: 1, outcome: 'solved' }),
    // item 1: only a (configuration 0)
    cell({ item: 1, configuration: 0, outcome: 'solved' }),
    cell({ item: 1, configuration: 1, outcome: 'failed' }),
    // item 2: only b
    cell({ item: 2, configuration: 0, outcome: 'error' }),
    cell({ item: 2, configuration: 1, outcome: 'solved' }),
    // item 3: neither
    cell({ item: 3, configuration: 0, outcome: 'failed' }),
    cell({ item: 3, configuration: 1, outcome: 'failed' }),
    // item 4: b still running
    cell({ item: 4, configuration: 0, outcome: 'solved' }),
    cell({ item: 4, configuration: 1, outcome: 'running' }),
    // a third configuration is not part of the comparison
    cell({ item: 3, configuration: 2, outcome: 'solved' }),
  ];

  it('sorts items into only a, only b, both, neither and pending', () => {
    const result = compareConfigurations(cells, 0, 1);
    expect(result.both.map((r) => r.item)).toEqual([0]);
    expect(result.onlyA.map((r) => r.item)).toEqual([1]);
    expect(result.onlyB.map((r) => r.item)).toEqual([2]);
    expect(result.neither.map((r) => r.item)).toEqual([3]);
    expect(result.pending).toEqual([4]);
  });

  it("keeps each side's runs so a row can open both", () => {
    const [row] = compareConfigurations(cells, 0, 1).onlyA;
    expect(row!.a.runIds).toEqual(['run-1-0-0']);
    expect(row!.b.runIds).toEqual(['run-1-1-0']);
    expect(compareHref(row!)).toBe('/compare?a=run-1-0-0&b=run-1-1-0');
  });

  it('swaps only a and only b when the configurations are swapped', () => {
    const result = compareConfigurations(cells, 1, 0);
    expect(result.onlyA.map((r) => r.item)).toEqual([2]);
    expect(result.onlyB.map((r) => r.item)).toEqual([1]);
  });

  it('counts an item with no cell on one side as pending', () => {
    const result = compareConfigurations([cell({ item: 0, configuration: 0 })], 0, 1);
    expect(result.pending).toEqual([0]);
  });
});

describe('compareHref', () => {
  it("links each side's solving run when it solved, an unsolved run otherwise, and escapes ids", () => {
    const result = compareConfigurations(
      [
        cell({ item: 0, configuration: 0, repetition: 0, outcome: 'failed', runId: 'a fail' }),
        cell({ item: 0, configuration: 0, repetition: 1, outcome: 'solved', runId: 'a&ok' }),
        cell({ item: 0, configuration: 0, repetition: 2, outcome: 'solved', runId: 'a2' }),
        cell({ item: 0, configuration: 1, repetition: 0, outcome: 'solved', runId: 'b-ok' }),
        cell({ item: 0, configuration: 1, repetition: 1, outcome: 'failed', runId: 'b-fail' }),
      ],
      0,
      1,
    );
    expect(compareHref(result.onlyA[0]!)).toBe('/compare?a=a%26ok&b=b-fail');
  });

  it('is null when a side has no run', () => {
    const result = compareConfigurations(
      [
        cell({ item: 0, configuration: 0, outcome: 'error', runId: null }),
        cell({ item: 0, configuration: 1, outcome: 'solved' }),
      ],
      0,
      1,
    );
    expect(compareHref(result.onlyB[0]!)).toBeNull();
  });
});
